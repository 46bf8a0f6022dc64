/**
 * {@link AtomicOps} on Redis with the Keyv adapter's own client (node-redis): claims are
 * `SET key 1 NX PX ttl` (https://redis.io/docs/latest/commands/set/), the run index is a list
 * appended by a Lua script, which Redis runs atomically (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/).
 */
import type { AtomicOps } from './atomic.js';
import type { UsageLedger } from './usage.js';
import { RedisUsageLedger, type RedisUsageClient } from './usage-redis.js';
import { RedisMemory, type RedisMemoryClient } from './memory-redis.js';
import type { MemoryBackend } from './memory.js';
import { RedisSchedules, type RedisSchedulesClient } from './schedules-redis.js';
import type { ScheduleBackend } from './schedules.js';

/** The part of node-redis's client used here. */
export interface RedisLike extends RedisUsageClient, RedisMemoryClient, RedisSchedulesClient {
  set(key: string, value: string, options: { condition: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  lRange(key: string, start: number, stop: number): Promise<string[]>;
}

/** Appends ARGV[1] to list KEYS[1] unless present (LPOS, Redis ≥ 6.0.6), then keeps the last ARGV[2]. */
const APPEND = `
if redis.call('LPOS', KEYS[1], ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
return 1`;

/** Sets KEYS[1] to ARGV[1] for ARGV[2] ms when it is absent or already ARGV[1]'s. */
const LEASE = `
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
return 1`;

/** Deletes KEYS[1] when it holds ARGV[1]. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Keys: `code-agent:claim:<key>`, `code-agent:index:<conversationId>`, `code-agent:lease:<key>`. */
export class RedisAtomics implements AtomicOps {
  /**
   * @param connected resolves with the Keyv adapter's connected client
   * @param destroy closes that client at once (a server that is gone would never answer a QUIT)
   */
  constructor(
    private readonly connected: () => Promise<RedisLike>,
    private readonly destroy: () => Promise<void> = async () => {},
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const reply = await (await this.connected()).set(`code-agent:claim:${key}`, '1', {
      condition: 'NX',
      expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) },
    });
    return reply === 'OK';
  }

  async append(conversationId: string, runId: string, max: number): Promise<void> {
    await (await this.connected()).eval(APPEND, { keys: [`code-agent:index:${conversationId}`], arguments: [runId, String(max)] });
  }

  async recent(conversationId: string, limit: number): Promise<string[]> {
    return (await this.connected()).lRange(`code-agent:index:${conversationId}`, -limit, -1);
  }

  async lease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const reply = await (await this.connected()).eval(LEASE, {
      keys: [`code-agent:lease:${key}`],
      arguments: [owner, String(Math.max(1, Math.round(ttlMs)))],
    });
    return Number(reply) === 1;
  }

  async release(key: string, owner: string): Promise<void> {
    await (await this.connected()).eval(RELEASE, { keys: [`code-agent:lease:${key}`], arguments: [owner] });
  }

  usage(): UsageLedger {
    return new RedisUsageLedger(this.connected);
  }

  memory(): MemoryBackend {
    return new RedisMemory(this.connected);
  }

  schedules(): ScheduleBackend {
    return new RedisSchedules(this.connected);
  }

  async close(): Promise<void> {
    await this.destroy();
  }
}
