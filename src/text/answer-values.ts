/**
 * The values of a printed answer, as agreement compares them (`src/agent/verification/agreement.ts`): numbers when the
 * text holds any, else words; each with where it stands (its line, and what comes just before it
 * on that line), so that a value another answer lacks can be told apart from a label or a total.
 */

/** Most values read per output. */
export const MAX_VALUES = 2000;

/** One value of an answer. */
export type Token = { kind: 'num'; value: number; decimals: number } | { kind: 'word'; value: string };

/** A value with its place: `line` (0-based) and `before`, what precedes it on its line (see {@link beforeClass}). */
export interface Placed {
  token: Token;
  /** The text as printed (for messages). */
  text: string;
  line: number;
  before: string;
  /** What follows it on its line, spaces skipped: `end`, `word` or the punctuation character (`:` after a key such as `777: 511`). */
  after?: string;
}

/** A number standing alone (not part of a word such as `4xx` or `utf8`), with thousands separators, a sign, a fraction, an exponent. */
const NUMBER = /(?<![\p{L}\d_.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?(?<=\d)%?(?![\p{L}\d_])/gu;
const WORD = /[\p{L}\p{N}_]+/gu;
const FILLER = new Set(
  'a an the is are was were of in on for to and or with by at from as be it its this that there these those total result results answer value values count number'.split(' '),
);

/**
 * What stands before position `at` of `text` on the same line, spaces skipped: `start` (nothing),
 * `word` (a letter or digit) or the punctuation character itself (`:`, `,`, `[`…). Values printed
 * as items of one list share it ("DE 14 FR 9": `word`; "[2, 3, 5]": `,`); a label's figure
 * usually does not ("Average: 3.2 (from 500 rows)": `:` and `word`).
 */
export function beforeClass(text: string, at: number): string {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  if (i < 0 || text[i] === '\n' || text[i] === '\r') return 'start';
  return /[\p{L}\p{N}_]/u.test(text[i]!) ? 'word' : text[i]!;
}

/** What stands after position `at` of `text` on the same line, spaces skipped: `end`, `word` or the punctuation character. */
export function afterClass(text: string, at: number): string {
  let i = at;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (i >= text.length || text[i] === '\n' || text[i] === '\r') return 'end';
  return /[\p{L}\p{N}_]/u.test(text[i]!) ? 'word' : text[i]!;
}

function lineAt(text: string, at: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The numbers of `text`, in order, with their places. */
export function placedNumbers(text: string): Placed[] {
  const out: Placed[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const raw = m[0].replace(/,/g, '').replace(/%$/, '');
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    const decimals = /e/i.test(raw) ? 15 : (raw.split('.')[1]?.length ?? 0);
    out.push({ token: { kind: 'num', value, decimals }, text: m[0], line: lineAt(text, m.index), before: beforeClass(text, m.index), after: afterClass(text, m.index + m[0].length) });
    if (out.length === MAX_VALUES) break;
  }
  return out;
}

/** The words of `text` (lower-cased), without filler and without those in `ignore`, with their places. */
export function placedWords(text: string, ignore: ReadonlySet<string>): Placed[] {
  const out: Placed[] = [];
  for (const m of text.matchAll(WORD)) {
    const value = m[0].toLowerCase();
    if (FILLER.has(value) || ignore.has(value)) continue;
    out.push({ token: { kind: 'word', value }, text: m[0], line: lineAt(text, m.index), before: beforeClass(text, m.index), after: afterClass(text, m.index + m[0].length) });
    if (out.length === MAX_VALUES) break;
  }
  return out;
}

/** The request's own words (labels in an answer, not values). */
export function requestWords(request: string): Set<string> {
  return new Set(request.toLowerCase().match(/[\p{L}_]+/gu) ?? []);
}

/** Equal values: words exactly; numbers at the precision of the less precise of the two (`3.14` = `3.14159`). */
export function equalTokens(a: Token, b: Token): boolean {
  if (a.kind === 'word' || b.kind === 'word') return a.kind === b.kind && a.value === b.value;
  const shown = 0.5 * 10 ** -Math.min(a.decimals, b.decimals);
  return Math.abs(a.value - b.value) <= Math.max(shown, 1e-9 * Math.max(Math.abs(a.value), Math.abs(b.value)));
}

/** Words that say an answer has no values ("no outliers", `None`, an empty list). */
const NONE_WORDS = new Set(['none', 'no', 'empty', 'nothing', 'null', 'nil']);

/**
 * True when `text` prints an answer with no values: it holds no number, its only words (without
 * the request's own words and filler) say so (`none`, `no`, `empty`…; a word before `:`, `=` or a bracket is a label), and it holds an empty container
 * (`[]`, `{}`, `()`, `set()`) or a word other than `no` (a country code, too): `@outliers[[]]`, `[]`, `None`, `No outliers: none`.
 */
export function saysNoValues(text: string, request: string): boolean {
  text = withoutObjectWrappers(text);
  if (text.trim() === '' || placedNumbers(text).length > 0) return false;
  // a word before `:`, `=` or an opening bracket is a label of the (empty) value that follows it
  const placed = placedWords(text, requestWords(request)).filter((p) => !/^[:=[{(]$/.test(p.after ?? ''));
  const words = placed.map((p) => (p.token as { value: string }).value);
  if (words.some((w) => !NONE_WORDS.has(w))) return false;
  return /\[\s*\]|\{\s*\}|\(\s*\)/.test(text) || words.some((w) => NONE_WORDS.has(w) && w !== 'no');
}

/**
 * The text without the wrappers pandas and NumPy print around values (`Series([], Name: x, dtype:
 * float64)` → `[]`, `array([])` → `[]`): the type names and labels of the object, not its values.
 */
export function withoutObjectWrappers(text: string): string {
  return text.replace(/,?\s*\b(?:Name|dtype|Length)(?:: |=)[^,)\n]*/g, ' ').replace(/\b(?:Series|array|Index|Int64Index|Float64Index)\((?=\[)/g, '(');
}

/** A value printed as missing: pandas' and numpy's `NaN`/`nan`, `NaT`, `<NA>`. */
const MISSING = /(?<![\p{L}\d_<])(?:nan|nat|<na>)(?![\p{L}\d_>])/giu;

/**
 * True when every value `text` prints is missing: at least one line ends its values with `NaN`,
 * `NaT` or `<NA>` and none ends them with a number (the last value of a line is its answer: "Garden
 * NaN", "Total revenue: nan"; a line of words only, such as a header, does not count). Such an
 * output computed its values from no data (a column that is not there, a join that matched
 * nothing), whatever agrees with it.
 */
export function onlyMissingValues(text: string): boolean {
  let missing = 0;
  for (const line of text.split('\n')) {
    const lastNumber = lastIndex(line, NUMBER);
    const lastMissing = lastIndex(line, MISSING);
    if (lastNumber > lastMissing) return false;
    if (lastMissing >= 0) missing++;
  }
  return missing > 0;
}

/** Where the last match of a global pattern starts in `line`, or -1. */
function lastIndex(line: string, pattern: RegExp): number {
  let at = -1;
  for (const m of line.matchAll(pattern)) at = m.index;
  return at;
}
