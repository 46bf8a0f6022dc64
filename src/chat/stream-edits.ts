/**
 * Streamed code in chat: the attempt's message is edited as the code grows, at most once per
 * {@link STREAM_EDIT_INTERVAL_MS}, so a long generation shows progress without hitting the
 * platforms' rate limits:
 * - Slack: `chat.update` is a Tier 3 method, about 50 calls per minute per workspace
 *   (https://api.slack.com/methods/chat.update, https://api.slack.com/apis/rate-limits);
 * - Discord: message edits share a per-channel bucket (5 per 5 s observed), announced in the
 *   `X-RateLimit-*` headers that discord.js obeys (https://discord.com/developers/docs/topics/rate-limits).
 * One edit per second per run leaves room for the progress line's edits and for other runs.
 */
import { cutCharsEnd } from '../text/cut.js';

/** Shortest time between two edits of a streamed message, in ms. */
export const STREAM_EDIT_INTERVAL_MS = 1000;

/** Options of {@link Throttle}. */
export interface ThrottleOptions {
  /** Shortest time between two flushes, in ms. Default {@link STREAM_EDIT_INTERVAL_MS}. */
  intervalMs?: number;
  /**
   * Hold the first flush until one interval after the throttle was made: a stream that ends sooner
   * (a fast LLM) never shows a partial message. Default false (the first value flushes at once).
   */
  delayFirst?: boolean;
  /** The clock, in ms (tests). */
  now?: () => number;
}

/**
 * Calls `flush` with the latest value pushed, at most once per interval: later values are merged
 * (only the latest counts) and flushed when the interval since the previous flush has passed.
 * `stop()` drops what is pending.
 */
export class Throttle<T> {
  private last: number;
  private timer: NodeJS.Timeout | undefined;
  private pending: { value: T } | undefined;
  private readonly intervalMs: number;
  private readonly now: () => number;

  /** @param flush receives the latest value; its errors are ignored (a failed display never breaks a run) */
  constructor(
    private readonly flush: (value: T) => void,
    options: ThrottleOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? STREAM_EDIT_INTERVAL_MS;
    this.now = options.now ?? Date.now;
    this.last = options.delayFirst ? this.now() : -Infinity;
  }

  /** Offers a newer value. */
  push(value: T): void {
    this.pending = { value };
    if (this.timer) return;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => this.fire(), wait);
  }

  /** How long until a flush would be allowed, in ms (0: now). For a last update that must keep the pace. */
  waitMs(): number {
    return Math.max(0, this.last + this.intervalMs - this.now());
  }

  /** Drops the pending value and any scheduled flush. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    this.last = this.now();
    try {
      this.flush(pending.value);
    } catch {
      /* a failed display never breaks the run */
    }
  }
}

/**
 * The last lines of `code` that fit in `maxChars` (whole lines; the very last line cut if it alone is
 * too long), for showing code still being written in a message of bounded size.
 * @returns the lines and how many lines before them were left out
 */
export function codeTail(code: string, maxChars: number): { text: string; omittedLines: number } {
  const lines = code.split('\n');
  let size = 0;
  let first = lines.length;
  while (first > 0 && size + lines[first - 1]!.length + 1 <= maxChars) {
    size += lines[first - 1]!.length + 1;
    first--;
  }
  if (first === lines.length) return { text: cutCharsEnd(lines.at(-1)!, maxChars), omittedLines: lines.length - 1 };
  return { text: lines.slice(first).join('\n'), omittedLines: first };
}
