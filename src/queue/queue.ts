/**
 * The ingress side of queue mode: admit a chat job against the global limits, then add it to the
 * BullMQ queue (https://docs.bullmq.io/guide/queues). The job id is the delivery's id, so a job
 * added twice is kept once by BullMQ too.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import { checkRedis, closeConnection, ingressConnection } from './connection.js';
import { RedisJobLimits } from './redis-job-limits.js';
import type { ChatJobData, ChatQueue } from '../chat/job-queue.js';
import type { Admission } from '../chat/job-limits.js';
import type { QueueCounts } from '../metrics/metrics.js';

/** A BullMQ queue's jobs waiting (waiting, delayed, prioritized, paused) and running (https://docs.bullmq.io/guide/jobs/getters). */
export async function queueCounts(queue: Queue): Promise<QueueCounts> {
  const c = await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'paused', 'active');
  return { waiting: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0) + (c.paused ?? 0), active: c.active ?? 0 };
}

/** Completed and failed jobs kept in Redis for inspection, at most (older ones are removed). */
export const KEEP_FINISHED_JOBS = 1000;

/** The queue settings from the config, checked. @throws {ConfigError} when `queue.url` is not set. */
export function queueSettings(config: Config): Config['queue'] & { url: string } {
  const q = config.queue;
  if (!q.url) throw new ConfigError('queue.url is not set: queue mode needs Redis, e.g. queue.url: redis://127.0.0.1:6379 (docs/deploy.md)');
  return { ...q, url: q.url };
}

/** Enqueues chat jobs (one per ingress process). */
export class JobQueue implements ChatQueue {
  private constructor(
    private readonly redis: Redis,
    private readonly queue: Queue,
    private readonly limits: RedisJobLimits,
  ) {}

  /**
   * Connects to `queue.url`.
   * @param maxPerChannel the platform's `max_queue_per_channel`
   * @throws {ConfigError} without `queue.url`; the connection's error when Redis cannot be reached.
   */
  static async open(config: Config, maxPerChannel: number): Promise<JobQueue> {
    const settings = queueSettings(config);
    await checkRedis(settings.url);
    const redis = ingressConnection(settings.url);
    redis.on('error', () => {
      /* each command reports its own failure */
    });
    const queue = new Queue(settings.name, { connection: redis });
    queue.on('error', () => {
      /* reported to the caller of add() */
    });
    return new JobQueue(redis, queue, new RedisJobLimits(redis, settings.name, maxPerChannel, settings.job_timeout_s * 1000));
  }

  /**
   * See {@link ChatQueue.submit}; `ahead` counts the admitted jobs no worker has started yet.
   * @throws Redis errors (unreachable, timeout) or what `beforeAdd` threw, after freeing the slots.
   */
  async submit(jobId: string, data: Omit<ChatJobData, 'enqueuedAt'>, beforeAdd?: (ahead: number) => Promise<void>): Promise<Admission> {
    const admission = await this.limits.admit(data.limit);
    if (!admission.accepted) return admission;
    try {
      await beforeAdd?.(admission.ahead);
      await this.queue.add(`${data.platform}:${data.kind}`, { ...data, enqueuedAt: Date.now() } satisfies ChatJobData, {
        jobId,
        attempts: 1,
        removeOnComplete: KEEP_FINISHED_JOBS,
        removeOnFail: KEEP_FINISHED_JOBS,
      });
    } catch (err) {
      await this.limits.release(data.limit).catch(() => undefined);
      throw err;
    }
    return admission;
  }

  /** Jobs waiting (incl. delayed, prioritized) and running in the whole queue (BullMQ's counts). */
  async counts(): Promise<QueueCounts> {
    return queueCounts(this.queue);
  }

  /** Resolves when Redis answers a PING. @throws when it does not */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** Closes the queue and its connection (running jobs are the workers'). */
  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    await closeConnection(this.redis);
  }
}
