/** Reading answers out of a program's stdout, tolerant of layout, strict about values. */

/** The text with thousands separators removed from numbers (`13,694.52` → `13694.52`). */
export function plainNumbers(text: string): string {
  let out = text;
  for (let prev = ''; prev !== out; ) {
    prev = out;
    out = out.replace(/(\d),(\d{3})(?!\d)/g, '$1$2');
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `expected` (e.g. `71.68`, `233168`) appears as a whole number in the text: not inside a
 * longer number, so `71.68` is not found in `71.677` nor `4.3` in `24.3`. An integer may be
 * written `47.0`.
 */
export function hasNumber(text: string, expected: string): boolean {
  const tail = expected.includes('.') ? '(?![\\d])' : '(?!\\d|\\.\\d*[1-9])';
  return new RegExp(`(?<![\\d.])-?${escape(expected)}${tail}`).test(plainNumbers(text));
}

/** The numbers of a line, in order (thousands separators removed, a leading minus kept). */
export function numbersIn(line: string): number[] {
  return (plainNumbers(line).match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
}

/** ISO dates (`YYYY-MM-DD`, also the date of `2024-03-04T00:00:00Z`) in the text, in order of appearance. */
export function isoDates(text: string): string[] {
  return text.match(/(?<![\d\w])\d{4}-\d{2}-\d{2}(?!\d)/g) ?? [];
}

/** The line with dates (`2024-06-03`) and times (`08:15:02`) removed, so only other numbers remain. */
export function withoutDates(line: string): string {
  return line.replace(/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b/g, ' ');
}

/** Non-empty lines, trimmed. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Index of the first line matching `re` (-1 when none). */
export function lineIndex(lines: readonly string[], re: RegExp): number {
  return lines.findIndex((l) => re.test(l));
}

/** A regexp matching `word` as a whole word, case-insensitive. */
export function wordRe(word: string): RegExp {
  return new RegExp(`(?<![A-Za-z])${escape(word)}(?![A-Za-z])`, 'i');
}

/** Whether the numbers are the same as the expected ones within `tol` each. */
export function sameNumbers(actual: readonly number[], expected: readonly number[], tol = 1e-9): boolean {
  return actual.length === expected.length && actual.every((a, i) => Math.abs(a - expected[i]!) <= tol);
}

/**
 * (hour, count) pairs from lines like `08:00 - 2`, `Hour 8: 2 errors`, `2024-06-03 08:00:00    2`,
 * `08:00-09:00: 2` or `03/Jun/2024:08  2` (an access log's time cut to its hour): the first number
 * on the line (dates dropped, times cut to their hour) is the hour, the last one the count; lines
 * with fewer than two numbers are skipped.
 */
export function hourCounts(stdout: string): [number, number][] {
  const pairs: [number, number][] = [];
  for (const line of linesOf(stdout)) {
    const plain = line
      .replace(/\b\d{1,2}\/[A-Za-z]{3}\/\d{4}:(\d{2})(?::\d{2}){0,2}/g, ' $1 ')
      .replace(/\b\d{4}-\d{2}-\d{2}[T ](\d{1,2}):\d{2}(?::\d{2})?/g, ' $1 ')
      .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ')
      .replace(/\b(\d{1,2}):\d{2}(?::\d{2})?/g, '$1')
      .replace(/-/g, ' ');
    const nums = numbersIn(plain);
    if (nums.length >= 2) pairs.push([nums[0]!, nums.at(-1)!]);
  }
  return pairs;
}

/**
 * (date, count) pairs from lines holding one ISO date and a count (`2024-03-05: 23`,
 * `2024-03-05    23`): the last number on the line once dates and times are removed.
 */
export function dayCounts(stdout: string): [string, number][] {
  const pairs: [string, number][] = [];
  for (const line of linesOf(stdout)) {
    const dates = isoDates(line);
    const nums = numbersIn(withoutDates(line).replace(/[+-]\d{2}:\d{2}\b/g, ' '));
    if (dates.length === 1 && nums.length) pairs.push([dates[0]!, nums.at(-1)!]);
  }
  return pairs;
}

/** The text with German-format amounts (`1.234,56`, `987,10`) written plainly (`1234.56`, `987.10`). */
export function plainGermanAmounts(text: string): string {
  return text.replace(/(?<![\d.,])(\d{1,3}(?:\.\d{3})+|\d+),(\d{2})(?![\d,])/g, (_, whole: string, cents: string) => `${whole.replace(/\./g, '')}.${cents}`);
}
