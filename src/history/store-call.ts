/**
 * One store operation within its deadline: a failure (an error, no answer in time) becomes a
 * {@link HistoryError} naming the store and the operation, in the driver's own words, and the
 * store's failure listener is told; a full memory's, schedules' or program's refusal passes through
 * when asked.
 */
import { HistoryError } from './types.js';
import { MemoryFullError } from './memory.js';
import { ScheduleFullError } from './schedules.js';
import { ProgramRefusedError } from './programs.js';

/** The store an operation runs on, as `callWithin` needs it. */
export interface StoreCallContext {
  /** How the store is named in messages. */
  label: string;
  /** The operation's deadline, in ms. */
  timeoutMs: number;
  /** Told of a failed operation by its name (`save a run`); its own error is ignored. */
  onFailure?: (operation: string) => void;
}

/**
 * Runs `fn` within `at.timeoutMs`.
 * @param what the operation, in words (`save a run`): named in the error and told to `onFailure`
 * @param passRefusals rethrow `MemoryFullError`, `ScheduleFullError` and `ProgramRefusedError` as they are
 * @throws {HistoryError} naming the store and the operation when `fn` fails or does not answer in time
 */
export async function callWithin<T>(at: StoreCallContext, what: string, fn: () => Promise<T>, passRefusals = false): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HistoryError(`${at.label}: cannot ${what}: no answer within ${at.timeoutMs / 1000} s`)),
      at.timeoutMs,
    );
  });
  try {
    return await Promise.race([fn(), deadline]);
  } catch (err) {
    if (passRefusals && (err instanceof MemoryFullError || err instanceof ScheduleFullError || err instanceof ProgramRefusedError)) throw err;
    try {
      at.onFailure?.(what);
    } catch {
      /* a listener's error must not change the operation's */
    }
    if (err instanceof HistoryError) throw err;
    throw new HistoryError(`${at.label}: cannot ${what}: ${inWords(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/** A driver's error in words: node-redis's connection errors carry their reason in `code` or `errors`. */
function inWords(err: unknown): string {
  const e = err as { message?: string; code?: string; errors?: unknown[] };
  const inner = Array.isArray(e.errors) && e.errors.length > 0 ? inWords(e.errors[0]) : undefined;
  const message = e.message || inner || e.code || String(err);
  return e.code && !message.includes(e.code) ? `${message} (${e.code})` : message;
}
