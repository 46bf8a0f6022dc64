/**
 * The worker side of queue mode: takes chat jobs from the BullMQ queue
 * (https://docs.bullmq.io/guide/workers) and runs each with its platform's {@link PlatformJobs}.
 *
 * A job is never run twice in parallel: its worker holds a lock renewed every `lock_s / 2`; when
 * the worker dies (kill -9, machine lost) the lock expires and another worker's stalled-job check
 * (every `stalled_interval_s`) finds the job. It is not run again (`maxStalledCount: 0`): a second
 * run would repeat what the first already posted. BullMQ fails it instead
 * (https://docs.bullmq.io/guide/jobs/stalled), and this worker then says so in the run's thread
 * and marks the run failed, so no run is left "running" and none is lost silently.
 *
 * A worker that was only paused past its lock (not dead) finishes its run after that: both sides
 * claim the job's end first (src/queue/job-end.ts), so "interrupted" is said only of a job whose
 * run had not ended, and a run that ends after such a false alarm corrects what was posted.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config/schema.js';
import { closeConnection, workerConnection } from './connection.js';
import { RedisJobLimits } from './redis-job-limits.js';
import { queueCounts, queueSettings } from './queue.js';
import type { QueueCounts } from '../metrics/metrics.js';
import { accountOfJob, processJob, runnerOf, type ChatJobData, type PlatformJobs } from '../chat/job-queue.js';
import { inAccount } from '../log/scope.js';
import { JobEnds } from './job-end.js';

/** BullMQ's failure reason for a job whose worker stopped (moveStalledJobsToWait). */
export const STALLED_REASON = 'job stalled more than allowable limit';

/** How long a run that ended after a false "interrupted" waits for that notice to be posted, in ms. */
export const NOTICE_WAIT_MS = 15_000;

/** Where a worker reports what it does. */
export interface WorkerLog {
  info(message: string): void;
  error(message: string, err?: unknown): void;
}

/** A running worker. */
export interface QueueWorker {
  /** Stops taking jobs and waits for the running ones to end. */
  close(): Promise<void>;
  /** Resolves when Redis answers a PING on the worker's connection. @throws when it does not */
  ping(): Promise<void>;
  /** Jobs waiting and running in the whole queue (for the metrics). */
  counts(): Promise<QueueCounts>;
}

/**
 * Starts taking jobs.
 * @param platforms the job runners by platform name (`slack`, …); a job of another platform fails with a clear reason.
 * @throws {ConfigError} without `queue.url`.
 */
export async function startQueueWorker(config: Config, platforms: Record<string, PlatformJobs>, log: WorkerLog): Promise<QueueWorker> {
  const settings = queueSettings(config);
  const redis: Redis = workerConnection(settings.url);
  // limits are released from their own connection (the worker's own blocks while waiting for jobs)
  const limitsRedis = workerConnection(settings.url);
  const limits = new RedisJobLimits(limitsRedis, settings.name, Number.MAX_SAFE_INTEGER, settings.job_timeout_s * 1000);
  const ends = new JobEnds(limitsRedis, settings.name, settings.job_timeout_s * 1000);

  const worker = new Worker<ChatJobData>(
    settings.name,
    // every line logged for the job carries its channel (src/log), its run's lines the run id too
    async (job: Job<ChatJobData>) => inAccount(accountOfJob(job.data), async () => {
      const data = job.data;
      await limits.started(job.id!).catch(() => undefined);
      log.info(`started job ${job.id} (${data.platform} ${data.kind}, ${Date.now() - data.enqueuedAt} ms after it was queued)`);
      const free = () => limits.release(data.limit).catch((err: unknown) => log.error(`could not free the limits of job ${job.id}`, err));
      try {
        await processJob(platforms, data, {
          setThread: async (thread) => {
            await job.updateData({ ...data, thread });
          },
          ending: free,
        });
      } finally {
        await free();
        log.info(`finished job ${job.id}`);
        await correctFalseAlarm(job.id!, job.data);
      }
    }),
    {
      connection: redis,
      concurrency: settings.concurrency,
      lockDuration: settings.lock_s * 1000,
      stalledInterval: settings.stalled_interval_s * 1000,
      maxStalledCount: 0,
    },
  );
  worker.on('failed', (job, err) => {
    if (!job) return;
    if (err.message !== STALLED_REASON) {
      log.error(`job ${job.id} failed`, err);
      return;
    }
    const data = job.data;
    const jobId = job.id!;
    void (async () => {
      // the job is over for BullMQ: its user and channel may queue again before its thread is told
      await limits.release(data.limit).catch((err: unknown) => log.error(`could not free the limits of job ${jobId}`, err));
      if (!(await ends.claim(jobId, 'interrupted'))) {
        log.info(`job ${jobId}: its lock expired, but its run had already ended; nothing to tell`);
        return;
      }
      log.error(`job ${jobId}: its worker stopped before it finished; telling its thread`);
      const notice = await runnerOf(platforms, data).interrupted(data);
      await ends.told(jobId, notice ?? { messages: [] });
    })()
      .catch((e: unknown) => log.error(`could not report the interrupted job ${jobId}`, e));
  });
  /** After a job's run ended: when "interrupted" was said of it meanwhile, that was false; correct it. */
  async function correctFalseAlarm(jobId: string, data: ChatJobData): Promise<void> {
    try {
      if (await ends.claim(jobId, 'finished')) return;
      log.error(`job ${jobId} ended after it was said to be interrupted (its worker was paused past its lock); correcting its thread`);
      await runnerOf(platforms, data).falseAlarm(data, await ends.waitTold(jobId, NOTICE_WAIT_MS));
    } catch (err) {
      log.error(`could not correct the false interruption of job ${jobId}`, err);
    }
  }
  worker.on('error', (err) => log.error('queue worker error', err));
  await worker.waitUntilReady();

  const counter = new Queue(settings.name, { connection: limitsRedis });
  counter.on('error', () => {
    /* reported by counts() */
  });
  return {
    ping: async () => {
      await limitsRedis.ping();
    },
    counts: () => queueCounts(counter),
    async close() {
      await worker.close();
      await counter.close().catch(() => undefined);
      await closeConnection(redis);
      await closeConnection(limitsRedis);
    },
  };
}
