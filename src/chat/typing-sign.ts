/**
 * A typing indicator as a thread's sign of work (port.ts: ThreadSigns), once for every platform
 * that has one (Discord's `POST /channels/{id}/typing`, Matrix's `m.typing`): shown when the turn
 * starts working, renewed before the platform lets it lapse, and stopped at the turn's end. It goes
 * along with the progress message (never replaces it). The platform gives only its calls.
 */
import type { ThreadSigns } from './port.js';

/** A platform's typing calls. Each never throws (a refusal is the platform's to log). */
export interface TypingCalls {
  /** Shows (or renews) the indicator. */
  show(): Promise<void>;
  /** Stops showing it at the turn's end; none: it lapses by itself. */
  hide?(): Promise<void>;
  /** Done once, when the turn starts working (Matrix: the read receipt of the message it took). */
  started?(): Promise<void>;
  /** How often `show` is called again while the turn works, in ms. */
  renewMs: number;
}

/** The signs of one turn: the typing indicator of {@link TypingCalls}. Never throws. */
export function typingSign<M>(calls: TypingCalls): ThreadSigns<M> {
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  return {
    async working(line) {
      if (!line) {
        if (timer === undefined) return false;
        clearInterval(timer);
        timer = undefined;
        await calls.hide?.();
        return false;
      }
      if (!started) {
        started = true;
        await calls.started?.();
      }
      if (timer === undefined) {
        timer = setInterval(() => void calls.show(), calls.renewMs);
        timer.unref();
        await calls.show();
      }
      return false;
    },
  };
}
