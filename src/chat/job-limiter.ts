/**
 * Admission control for chat: at most one running job per user and a bounded queue per channel.
 * Jobs of one channel run in order, `concurrencyPerChannel` at a time.
 */
import PQueue from 'p-queue';

/** Why a job was not accepted. */
export type Refusal = 'user_busy' | 'queue_full';

/** Result of {@link JobLimiter.submit}: accepted (with the job's promise) or refused. */
export type Admission<T> = { accepted: true; position: number; done: Promise<T> } | { accepted: false; reason: Refusal };

/** Limits jobs per user and per channel. */
export class JobLimiter {
  private readonly queues = new Map<string, PQueue>();
  private readonly busyUsers = new Set<string>();

  /**
   * @param maxQueuePerChannel jobs waiting or running in one channel, at most
   * @param concurrencyPerChannel jobs of one channel running at once (default 1: in order)
   */
  constructor(
    private readonly maxQueuePerChannel: number,
    private readonly concurrencyPerChannel = 1,
  ) {}

  /**
   * Submits a job. Refuses at once (no work done) when the user already has a job or the channel's
   * queue is full. `position` is 0 when the job starts at once, else the number of jobs before it.
   */
  submit<T>(channel: string, user: string, job: () => Promise<T>): Admission<T> {
    if (this.busyUsers.has(user)) return { accepted: false, reason: 'user_busy' };
    let queue = this.queues.get(channel);
    if (!queue) {
      queue = new PQueue({ concurrency: this.concurrencyPerChannel });
      this.queues.set(channel, queue);
    }
    const position = queue.size + queue.pending;
    if (position >= this.maxQueuePerChannel) return { accepted: false, reason: 'queue_full' };
    this.busyUsers.add(user);
    const done = queue.add(job, { throwOnTimeout: true }).finally(() => {
      this.busyUsers.delete(user);
      if (queue.size === 0 && queue.pending === 0) this.queues.delete(channel);
    }) as Promise<T>;
    return { accepted: true, position, done };
  }
}
