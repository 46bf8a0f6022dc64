/**
 * One line for an error a platform's API or the network gave (logged, or shown in a notice): the
 * HTTP status and the API's code where the error carries them, then the first line of its message,
 * at most 300 characters.
 */

/** Most characters of the line. */
const MAX_CHARS = 300;

/**
 * The error as one line, e.g. `404 10008 Unknown Message` (discord.js) or
 * `M_FORBIDDEN: not in room` (matrix-bot-sdk).
 * @param err anything thrown; `status` and `code` are read when present
 */
export function errorLine(err: unknown): string {
  const e = (err ?? {}) as { message?: unknown; status?: unknown; code?: unknown };
  const message = String(typeof e.message === 'string' ? e.message : err).split('\n')[0]!;
  const parts = [e.status, e.code].filter((x) => (typeof x === 'number' || typeof x === 'string') && x !== '' && !message.includes(String(x)));
  return [...parts, message].join(' ').slice(0, MAX_CHARS);
}
