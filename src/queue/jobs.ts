/**
 * What travels through the queue: one chat job (a new run, a thread reply, a button) with the
 * platform's own payload, the limits it counts against, and — once the worker has posted the run's
 * channel message — the thread it renders into (so a job whose worker died can be answered there).
 */
import type { LimitKey } from './limits.js';
import type { InterruptNotice } from './job-end.js';

/** The data of one queued job (JSON). */
export interface ChatJobData<P = unknown> {
  /** Which adapter's worker code runs it, e.g. `slack`. */
  platform: string;
  /** The adapter's kind of job, e.g. `run`, `generate`, `reply`. */
  kind: string;
  /** What the job counts against; released when it ends. */
  limit: LimitKey;
  /** The adapter's payload (channel, user, text, response URL…). */
  payload: P;
  /** Set by the worker once the run has a thread (e.g. Slack's thread ts). */
  thread?: string;
  /** When the ingress enqueued it, ms since the epoch. */
  enqueuedAt: number;
}

/**
 * Runs the jobs of one platform in a worker. Implemented by each adapter with its own rendering
 * code (the same as in embedded mode).
 */
export interface PlatformJobs {
  /**
   * Runs one job to its end, posting progress and results; should not throw for a failed run
   * (the thread says so), only for a bug. `setThread` records the run's thread on the job.
   */
  run(data: ChatJobData, setThread: (thread: string) => Promise<void>): Promise<void>;
  /**
   * The job's worker stopped before it finished (killed, machine lost): says so in its thread
   * (or to its user when it had none yet) and marks its run failed. Says nothing when the run had
   * already ended (see `markInterrupted`).
   * @returns the messages that say so (for a later correction), or undefined when nothing was said.
   */
  interrupted(data: ChatJobData): Promise<InterruptNotice | undefined>;
  /**
   * The job's run ended after {@link interrupted} was said of it (its worker was only paused):
   * edits the notice (when known) into a correction and shows the run's real status.
   */
  falseAlarm(data: ChatJobData, notice: InterruptNotice | undefined): Promise<void>;
}

/** A BullMQ job id from a delivery id (letters, digits, `.`, `_`, `-`; BullMQ refuses `:` in ids). */
export function jobIdOf(platform: string, kind: string, deliveryId: string): string {
  return `${platform}-${kind}-${deliveryId}`.replace(/[^A-Za-z0-9._-]/g, '_');
}
