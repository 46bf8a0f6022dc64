/**
 * The in-memory queue: a chat platform served by one process (no `queue.url`) queues its jobs
 * here, through the same typed jobs, limits interface and processor as queue mode's Redis queue.
 * Jobs of one channel run one after another, in arrival order; channels run side by side.
 */
import PQueue from 'p-queue';
import { processJob, type ChatJobData, type ChatQueue, type PlatformJobs } from './job-queue.js';
import type { Admission } from './job-limits.js';
import { MemoryJobLimits } from './job-limits.js';
import type { QueueCounts } from '../metrics/metrics.js';

/** Where the queue reports a job that threw (a bug: runs end with their own final message). */
export type JobErrorLog = (message: string, err: unknown) => void;

/** See the module comment. */
export class MemoryJobQueue implements ChatQueue {
  private readonly channels = new Map<string, PQueue>();
  private readonly running = new Set<Promise<void>>();
  private readonly limits: MemoryJobLimits;
  private closed = false;
  /** Jobs started and not yet ended. */
  private active = 0;

  /**
   * @param platforms the job runners by platform name (the process's own platform)
   * @param maxPerChannel jobs waiting or running in one channel, at most
   */
  constructor(
    private readonly platforms: Record<string, PlatformJobs>,
    maxPerChannel: number,
    private readonly onError: JobErrorLog,
  ) {
    this.limits = new MemoryJobLimits(maxPerChannel);
  }

  async submit(jobId: string, data: Omit<ChatJobData, 'enqueuedAt'>, beforeAdd?: (ahead: number) => Promise<void>): Promise<Admission> {
    if (this.closed) throw new Error('the app is stopping; no new jobs are taken');
    const admission = await this.limits.admit(data.limit);
    if (!admission.accepted) return admission;
    try {
      await beforeAdd?.(admission.ahead);
    } catch (err) {
      await this.limits.release(data.limit);
      throw err;
    }
    const job: ChatJobData = { ...data, enqueuedAt: Date.now() };
    const channel = this.channelQueue(data.limit.channel);
    const done = channel
      .add(async () => {
        await this.limits.started(jobId);
        this.active += 1;
        try {
          await processJob(this.platforms, job, {
            setThread: async (thread) => {
              job.thread = thread;
            },
            ending: () => this.limits.release(data.limit),
          });
        } finally {
          this.active -= 1;
          await this.limits.release(data.limit);
        }
      })
      .catch((err: unknown) => this.onError(`job ${jobId} failed`, err))
      .finally(() => {
        this.running.delete(done);
        if (channel.size === 0 && channel.pending === 0) this.channels.delete(data.limit.channel);
      });
    this.running.add(done);
    return admission;
  }

  /** Jobs admitted and not yet ended. */
  get size(): number {
    return this.running.size;
  }

  async counts(): Promise<QueueCounts> {
    return { waiting: this.running.size - this.active, active: this.active };
  }

  async close(graceMs = 10_000): Promise<void> {
    this.closed = true;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  private channelQueue(channel: string): PQueue {
    let queue = this.channels.get(channel);
    if (!queue) {
      queue = new PQueue({ concurrency: 1 });
      this.channels.set(channel, queue);
    }
    return queue;
  }
}
