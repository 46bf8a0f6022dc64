/**
 * The boundary every chat job crosses, in both modes: the ingress admits a job and puts it on a
 * {@link ChatQueue} (in memory in one process, or BullMQ on Redis in queue mode); a processor takes
 * it and runs it with its platform's {@link PlatformJobs}. The same typed job and the same processor
 * serve both modes, so nothing outside the queues knows which one runs.
 */
import type { Admission, LimitKey } from './job-limits.js';
import type { ThreadRef } from './thread-ref.js';
import { inAccount, type UsageAccount } from '../log/scope.js';
import type { QueueCounts } from '../metrics/metrics.js';

/** The data of one queued job (JSON). */
export interface ChatJobData<P = unknown> {
  /** Which platform's jobs run it, e.g. `slack`. */
  platform: string;
  /** The request's kind (src/chat/incoming-port.ts: `run`, `generate`, `reply`, `improve`, `rerun`). */
  kind: string;
  /** What the job counts against; released when it ends. */
  limit: LimitKey;
  /** The request itself (src/chat/incoming-port.ts: IncomingRequest), JSON. */
  payload: P;
  /** Set by the processor once the job renders somewhere (so a job whose worker died can be answered there). */
  thread?: ThreadRef;
  /** When the ingress enqueued it, ms since the epoch. */
  enqueuedAt: number;
}

/** The messages that told a thread its job was interrupted (platform ids: Slack channel + ts, Discord channel + message id). */
export interface InterruptNotice {
  messages: Array<{ channel: string; id: string }>;
}

/** What a running job tells the queue that runs it. */
export interface JobHooks {
  /** Records where the job renders (the queue keeps it with the job: a worker's death is told there). */
  setThread(thread: ThreadRef): Promise<void>;
  /**
   * The job is about to post its last message: frees its user's and channel's slots now, so that
   * a user who sees the outcome may start another job at once. Freed again (a no-op) when the job
   * ends. Never throws.
   */
  ending(): Promise<void>;
}

/** Runs the jobs of one platform (implemented by each adapter). */
export interface PlatformJobs {
  /**
   * Runs one job to its end, posting progress and results; should not throw for a failed run
   * (the thread says so), only for a bug or an unknown job kind. `hooks` tell the queue where it
   * renders and when it is about to end.
   */
  run(data: ChatJobData, hooks: JobHooks): Promise<void>;
  /**
   * Queue mode: the job's worker stopped before it finished (killed, machine lost): says so in its
   * thread (or to its user when it had none yet) and marks its run failed. Says nothing when the run
   * had already ended (see `markInterrupted`).
   * @returns the messages that say so (for a later correction), or undefined when nothing was said.
   */
  interrupted(data: ChatJobData): Promise<InterruptNotice | undefined>;
  /**
   * Queue mode: the job's run ended after {@link interrupted} was said of it (its worker was only
   * paused): edits the notice (when known) into a correction and shows the run's real status.
   */
  falseAlarm(data: ChatJobData, notice: InterruptNotice | undefined): Promise<void>;
}

/** Where an ingress puts admitted jobs. */
export interface ChatQueue {
  /**
   * Admits a job against the limits and enqueues it; a refused job is not enqueued, and a job that
   * could not be added frees its slots again.
   * @param beforeAdd runs once the job is admitted, before any processor can see it (e.g. Discord's
   *   deferral, which must precede the job's edits of the response); when it throws, the job is not
   *   enqueued and its slots are freed.
   * @throws the store's errors or what `beforeAdd` threw, after freeing the slots.
   */
  submit(jobId: string, data: Omit<ChatJobData, 'enqueuedAt'>, beforeAdd?: (ahead: number) => Promise<void>): Promise<Admission>;
  /** Stops taking jobs; waits for running ones (the in-memory queue at most `graceMs`). */
  close(graceMs?: number): Promise<void>;
  /** Jobs waiting and running (queue mode: in the whole queue), for the metrics. @throws when the queue cannot say */
  counts(): Promise<QueueCounts>;
}

/**
 * The one processor: runs a job with its platform's jobs.
 * @throws an Error naming the platform when there is no runner for it; what the runner throws.
 */
export async function processJob(
  platforms: Record<string, PlatformJobs>,
  data: ChatJobData,
  hooks: JobHooks,
): Promise<void> {
  const runner = runnerOf(platforms, data);
  // what the job spends is charged to its channel and user, as its limits count them
  await inAccount(accountOfJob(data), () => runner.run(data, hooks));
}

/** The usage account of a job: its platform, and its limit key's channel and user. */
export function accountOfJob(data: Pick<ChatJobData, 'platform' | 'limit'>): UsageAccount {
  return { platform: data.platform, channel: data.limit.channel, user: data.limit.user };
}

/** The runner of a job's platform. @throws an Error naming the platform when there is none. */
export function runnerOf(platforms: Record<string, PlatformJobs>, data: ChatJobData): PlatformJobs {
  const runner = Object.hasOwn(platforms, data.platform) ? platforms[data.platform] : undefined;
  if (!runner) throw new Error(`this process has no ${data.platform} configuration (job of platform "${data.platform}")`);
  return runner;
}

/** A job id from a delivery id (letters, digits, `.`, `_`, `-`; BullMQ refuses `:` in ids). */
export function jobIdOf(platform: string, kind: string, deliveryId: string): string {
  return `${platform}-${kind}-${deliveryId}`.replace(/[^A-Za-z0-9._-]/g, '_');
}
