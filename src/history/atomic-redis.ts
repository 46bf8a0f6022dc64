/**
 * {@link AtomicOps} on Redis with the Keyv adapter's own client (node-redis): claims are
 * `SET key 1 NX PX ttl` (https://redis.io/docs/latest/commands/set/), the run index is a list
 * appended by a Lua script, which Redis runs atomically (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/).
 */
import { KEYV_NAMESPACE, type AtomicOps } from './atomic.js';
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
  get(key: string): Promise<string | null>;
  scan(cursor: string, options: { MATCH: string; COUNT: number }): Promise<{ cursor: string | number; keys: string[] }>;
}

/** How `@keyv/redis` stores a Keyv key of the history: the adapter's namespace, `::`, then Keyv's own `code-agent:` prefix. */
const KEYV_PREFIX = `${KEYV_NAMESPACE}::${KEYV_NAMESPACE}:`;

/** The format version's key. */
const VERSION_KEY = 'code-agent:format-version';

/** Sets KEYS[1] to ARGV[2] when it holds ARGV[1] ('' : absent). */
const SET_VERSION = `
local v = redis.call('GET', KEYS[1])
if (v or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`;

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

/** Keys: `code-agent:format-version`, `code-agent:claim:<key>`, `code-agent:index:<conversationId>`, `code-agent:lease:<key>`. */
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

  async formatVersion(): Promise<number | undefined> {
    const value = await (await this.connected()).get(VERSION_KEY);
    return value === null ? undefined : Number(value);
  }

  async setFormatVersion(from: number | undefined, to: number): Promise<boolean> {
    const reply = await (await this.connected()).eval(SET_VERSION, { keys: [VERSION_KEY], arguments: [from === undefined ? '' : String(from), String(to)] });
    return Number(reply) === 1;
  }

  /** SCAN with MATCH on the adapter's prefix (glob characters of `prefix` escaped). */
  async keys(prefix: string): Promise<string[]> {
    const client = await this.connected();
    const match = `${(KEYV_PREFIX + prefix).replace(/[*?[\]\\]/g, '\\$&')}*`;
    const found = new Set<string>();
    let cursor = '0';
    do {
      const page = await client.scan(cursor, { MATCH: match, COUNT: 1000 });
      cursor = String(page.cursor);
      for (const k of page.keys) found.add(k.slice(KEYV_PREFIX.length));
    } while (cursor !== '0');
    return [...found].sort();
  }

  schedules(): ScheduleBackend {
    return new RedisSchedules(this.connected);
  }

  async close(): Promise<void> {
    await this.destroy();
  }
}
