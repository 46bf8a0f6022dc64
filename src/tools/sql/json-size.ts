/** The size a row takes in the JSON body, counted without writing the JSON (it is written once, at the end). */

/** Characters JSON.stringify escapes, and lone surrogates (written as `\udXXX`): for these, measure the real text. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Bytes of `JSON.stringify(row)` in UTF-8, exact.
 * @param row an encoded row (strings, numbers, booleans, null, or JSON values)
 */
export function jsonRowBytes(row: readonly unknown[]): number {
  let bytes = 1 + row.length; // "[", a "," between values, "]"
  if (row.length === 0) bytes += 1;
  for (const value of row) bytes += jsonValueBytes(value);
  return bytes;
}

function jsonValueBytes(value: unknown): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      return NEEDS_ESCAPE.test(value) ? Buffer.byteLength(JSON.stringify(value)) : Buffer.byteLength(value) + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    default:
      return Buffer.byteLength(JSON.stringify(value) ?? 'null');
  }
}
