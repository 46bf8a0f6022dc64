/**
 * Cutting text on character boundaries. JavaScript strings are UTF-16: a plain `slice` can split
 * a surrogate pair (an emoji, a CJK extension character) and leave a lone surrogate, which is
 * not well-formed text (U+FFFD on the wire, or a refused request). Every cut here keeps whole
 * code points. Lengths are in UTF-16 code units (`string.length`), the unit Slack and Discord count.
 */

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The first at most `max` characters of `text`, never ending in half a surrogate pair.
 * @param max characters (UTF-16 code units), ≥ 0
 */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  if (end > 0 && isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end))) end--;
  return text.slice(0, end);
}

/**
 * The last at most `max` characters of `text`, never starting with half a surrogate pair.
 * @param max characters (UTF-16 code units), ≥ 0
 */
export function cutCharsEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  let start = text.length - Math.max(0, Math.floor(max));
  if (start < text.length && isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1))) start++;
  return text.slice(start);
}

/**
 * One short line of at most `max` characters: runs of whitespace become one space, and a cut line
 * ends with `…`. For titles and list entries (a thread's name, a memory entry).
 * @param max characters, including the `…`; ≥ 1
 */
export function shortLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${cutChars(line, max - 1)}…` : line;
}

/**
 * One line of at most `max` characters: runs of whitespace become one space, and a cut line ends
 * with `… (N more characters)`. For summaries, errors and status lines built from untrusted text.
 * @param max characters, including the marker; at least 40 is sensible
 */
export function boundLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const marker = (n: number) => `… (${n} more characters)`;
  const kept = cutChars(line, Math.max(0, max - marker(line.length).length));
  return kept + marker(line.length - kept.length);
}

/**
 * At most `max` characters of a multi-line text, keeping its head and its tail (where a traceback
 * ends) around a marker line that says how much was left out.
 * @param max characters, including the marker
 * @param headShare the part of `max` given to the head, 0…1 (default 0.25)
 */
export function boundMiddle(text: string, max: number, headShare = 0.25): string {
  if (text.length <= max) return text;
  const marker = (n: number) => `\n… (${n} characters left out) …\n`;
  const room = Math.max(0, max - marker(text.length).length);
  const head = cutChars(text, Math.floor(room * headShare));
  const tail = cutCharsEnd(text, room - head.length);
  return head + marker(text.length - head.length - tail.length) + tail;
}
