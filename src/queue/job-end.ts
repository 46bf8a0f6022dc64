/**
 * One truth about how a queue job ended. A worker paused past its lock (a long GC pause, a frozen
 * VM, SIGSTOP) looks exactly like a dead one: another worker's stalled-job check fails the job and
 * its thread is told "interrupted", yet the paused worker may wake up and finish the run. Both
 * sides therefore claim the job's end in Redis (`SET … NX`, atomic:
 * https://redis.io/docs/latest/commands/set/), and only the first one speaks:
 * - the run finished first: the stalled-job handler says nothing;
 * - "interrupted" was declared first: the finished run corrects what was posted (the notice is
 *   edited, the channel message shows the run's real status).
 *
 * Keys (prefix `code-agent:ended:<queue name>:`): `<job id>` → who claimed the end; `<job id>:told`
 * → the messages that said "interrupted" (JSON {@link InterruptNotice}), once posted.
 */
import type { Redis } from 'ioredis';
import { setTimeout as delay } from 'node:timers/promises';
import type { InterruptNotice } from '../chat/job-queue.js';


/** Who ends a job: its own run, or the handler of a job whose worker seemed to stop. */
export type JobEnder = 'finished' | 'interrupted';

/** How often {@link JobEnds.waitTold} looks for the notice, in ms. */
const POLL_MS = 200;

/** See the module comment. */
export class JobEnds {
  private readonly prefix: string;

  /**
   * @param redis an ioredis connection (not closed by this class)
   * @param scope the queue's name
   * @param ttlMs how long a claim is kept, in ms (longer than any job may take)
   */
  constructor(
    private readonly redis: Redis,
    scope: string,
    private readonly ttlMs: number,
  ) {
    this.prefix = `code-agent:ended:${scope}:`;
  }

  /**
   * Claims the end of a job.
   * @returns true when this is the first claim (the caller speaks), false when the other side was first.
   * @throws Redis errors.
   */
  async claim(jobId: string, by: JobEnder): Promise<boolean> {
    return (await this.redis.set(this.prefix + jobId, by, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  /** Records the messages that said "interrupted", once they are posted. @throws Redis errors. */
  async told(jobId: string, notice: InterruptNotice): Promise<void> {
    await this.redis.set(`${this.prefix}${jobId}:told`, JSON.stringify(notice), 'PX', this.ttlMs);
  }

  /**
   * Waits until the interruption of a job has been posted (see {@link told}).
   * @param timeoutMs how long to wait, in ms
   * @returns the notice, or undefined when it was not recorded in time (its handler died).
   */
  async waitTold(jobId: string, timeoutMs: number): Promise<InterruptNotice | undefined> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const raw = await this.redis.get(`${this.prefix}${jobId}:told`);
      if (raw) return JSON.parse(raw) as InterruptNotice;
      if (Date.now() >= until) return undefined;
      await delay(POLL_MS);
    }
  }
}
