/**
 * The chat job limits of queue mode, global across every ingress and worker process: one job per
 * user and at most `maxPerChannel` jobs waiting or running per channel, decided by one Lua script
 * that Redis runs atomically (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/).
 * Also the truthful "N ahead": the jobs admitted before this one that no worker has started yet
 * (workers take jobs in arrival order).
 *
 * Keys (prefix `code-agent:limits:<queue name>:`): `user:<user>` → job id; `channel:<channel>` and `pending`:
 * sorted sets of job ids scored by admission time (ms, Redis's clock). An entry older than
 * `staleMs` (a job whose process died without releasing it) no longer counts.
 */
import type { Redis } from 'ioredis';
import type { Admission, JobLimits, LimitKey } from '../chat/job-limits.js';

/**
 * KEYS: user, channel, pending. ARGV: jobId, maxPerChannel, staleMs, waitsForUser ('1': a reply to an
 * existing run, neither refused for nor holding its user). Returns -1 user busy, -2 queue full, else ahead.
 */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stale = now - tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', stale)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', stale)
local exempt = ARGV[4] == '1'
if not exempt and redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -2 end
local ahead = redis.call('ZCARD', KEYS[3])
if not exempt then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3]) end
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('ZADD', KEYS[3], now, ARGV[1])
return ahead`;

/** KEYS: user, channel, pending. ARGV: jobId. Frees the user (if still this job's) and the channel slot. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1`;

/** See the module comment. */
export class RedisJobLimits implements JobLimits {
  private readonly prefix: string;

  /**
   * @param redis an ioredis connection (not closed by this class)
   * @param scope the queue's name: queues on one Redis have their own limits
   * @param maxPerChannel jobs waiting or running in one channel, at most
   * @param staleMs after this many ms an admission no longer counts (longer than any job may take)
   */
  constructor(
    private readonly redis: Redis,
    scope: string,
    private readonly maxPerChannel: number,
    private readonly staleMs: number,
  ) {
    this.prefix = `code-agent:limits:${scope}:`;
  }

  /** Admits a job or says why not; nothing is recorded for a refused job. */
  async admit(key: LimitKey): Promise<Admission> {
    const result = Number(
      await this.redis.eval(ADMIT, 3, ...this.keys(key), key.jobId, String(this.maxPerChannel), String(this.staleMs), key.waitsForUser ? '1' : '0'),
    );
    if (result === -1) return { accepted: false, reason: 'user_busy' };
    if (result === -2) return { accepted: false, reason: 'queue_full' };
    return { accepted: true, ahead: result };
  }

  /** A worker started the job: it no longer counts as ahead of others. */
  async started(jobId: string): Promise<void> {
    await this.redis.zrem(`${this.prefix}pending`, jobId);
  }

  /** The job ended (or was never enqueued): frees its user and its channel slot. */
  async release(key: LimitKey): Promise<void> {
    await this.redis.eval(RELEASE, 3, ...this.keys(key), key.jobId);
  }

  private keys(key: LimitKey): [string, string, string] {
    return [`${this.prefix}user:${key.user}`, `${this.prefix}channel:${key.channel}`, `${this.prefix}pending`];
  }
}
