/**
 * The renderer's streamed messages (thread-renderer.ts), where the platform streams (port.ts:
 * {@link ThreadSigns.stream}, Slack's chat.startStream/appendStream/stopStream): one message per
 * attempt, opened at the attempt's first sign (its checks, its writing, its code), holding its code
 * as it is written, its task updates, its result and notices, and closed when the next attempt
 * starts or with the turn's last message. A stream the platform refuses or cuts is dropped: the
 * caller then posts what it had to show, as today.
 */
import type { AttemptStream, TaskState, ThreadSigns } from './port.js';

/** The open stream of one attempt, and the code it shows so far. */
interface Live<M> {
  attempt: number;
  stream: AttemptStream<M>;
  /** The code appended so far (the attempt's code always grows by its end). */
  code: string;
  /** Something was shown in it. */
  used: boolean;
}

/** Slack's shortest time between two appends of code to one stream, in ms (see {@link STREAM_APPEND_INTERVAL_MS}). */
export const STREAM_APPEND_INTERVAL_MS = 1000;

/** See the module comment. Every method is called from the renderer's chain, one at a time. */
export class AttemptStreams<M> {
  private live: Live<M> | undefined;
  /** The platform could not open a stream in this thread: none is tried again in this turn. */
  private refused = false;

  constructor(
    private readonly signs: ThreadSigns<M> | undefined,
    private readonly lastAttempt: () => number,
  ) {}

  /** Whether this turn may stream (the platform streams and has not refused). */
  get usable(): boolean {
    return !!this.signs?.stream && !this.refused;
  }

  /** The attempt whose stream is open, if any. */
  get attempt(): number | undefined {
    return this.live?.attempt;
  }

  /** The open stream of `attempt`, opened (after closing another attempt's) when the platform streams. */
  private async of(attempt: number): Promise<Live<M> | undefined> {
    if (this.live?.attempt === attempt) return this.live;
    if (!this.usable) return undefined;
    await this.close();
    const stream = await this.signs!.stream!(attempt, this.lastAttempt());
    if (!stream) {
      this.refused = true;
      return undefined;
    }
    this.live = { attempt, stream, code: '', used: false };
    return this.live;
  }

  /**
   * Shows the attempt's code so far (`done`: its final code).
   * @returns false when it could not be streamed (no stream, refused or cut, or, when done, the final
   *   code no longer extends what was streamed): the caller shows it as today
   */
  async code(attempt: number, code: string, done: boolean): Promise<boolean> {
    const live = await this.of(attempt);
    if (!live) return false;
    let from = live.code.length;
    if (!code.startsWith(live.code)) {
      // the final code may drop the reply's trailing blank; otherwise the reply was rewritten: wait for the final code
      if (!done) return true;
      if (!code.startsWith(live.code.trimEnd())) return false;
      from = code.length;
    }
    const ok = await live.stream.code(code.slice(from), done);
    if (ok) live.code = code;
    return this.went(live, ok);
  }

  /**
   * Appends `msg` to the stream of `attempt` (default: the open one, without opening any).
   * @returns false when it was not streamed (the caller posts it)
   */
  async append(msg: M, attempt?: number): Promise<boolean> {
    const live = attempt === undefined ? this.live : await this.of(attempt);
    if (!live) return false;
    return this.went(live, await live.stream.append(msg));
  }

  /** Shows a task of `attempt` (opening its stream); nothing when the platform does not stream. */
  async task(attempt: number, id: string, title: string, state: TaskState): Promise<void> {
    const live = await this.of(attempt);
    if (live) this.went(live, await live.stream.task(id, title, state));
  }

  /**
   * Closes the open stream, with `last` at its end.
   * @returns true when `last` was shown there; false when there was no open stream or it was cut
   *   (the caller posts `last`)
   */
  async close(last?: M): Promise<boolean> {
    const live = this.live;
    this.live = undefined;
    if (!live) return false;
    return live.stream.stop(last);
  }

  /**
   * Notes how a call on the stream went. A stream that refused a call was cut: closed with what it
   * shows (best effort), and no other stream is tried this turn (the rest is posted as today).
   */
  private went(live: Live<M>, ok: boolean): boolean {
    if (ok) {
      live.used = true;
      return true;
    }
    this.refused = true;
    if (this.live === live) this.live = undefined;
    void live.stream.stop().catch(() => undefined);
    return false;
  }
}
