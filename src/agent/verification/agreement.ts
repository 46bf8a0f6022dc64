/**
 * Agreement: when checks cannot pin an answer (a run on input files: a check cannot know values
 * that depend on data it never read), an independent program computes it too and the printed
 * results are compared. The independent program is a fresh sample: a new LLM call given only the
 * request and the input profile, never the first program, at {@link AGREEMENT_TEMPERATURE}.
 * Agreement is evidence (the run is confirmed); on disagreement a third program breaks the tie
 * (the majority wins), else the run ends `unverified` with both values shown.
 *
 * What "the same answer" means ({@link sameAnswer}): the values of the independent program's
 * output must all appear in the first program's output (which may say more, e.g. labels or totals):
 * - when the independent output holds numbers, only numbers are compared, each equal at the
 *   precision of the less precise of the two (`3.14` = `3.14159`, `5` = `5.0`, `1,204` = `1204`);
 * - otherwise its words are compared, case-insensitive, without the request's own words and a few
 *   filler words (labels and phrasing may differ, the values may not);
 * - order does not count unless the request asks for one (sorted, ranked, top, order…): then the
 *   values must appear in the same order;
 * - neither may leave out part of the other ({@link leftOutBy}): "DE 14" is not "DE 14 FR 9 IT 1",
 *   the primes below 20 are not the first 20 primes, whichever printed which; labels, totals and the
 *   request's own numbers are not parts ("DE: 14 … Total: 24", "The first 20 primes: …").
 *
 * Only an attempt that printed no number at all (a name, a word) may be carried by the independent
 * program's output ("NO" agrees with "NO 99").
 *
 * The same values in another form agree: whitespace, labels and wrappers do not count (`[255, 511]`
 * and `ff: 255 777: 511` for "convert ff and 777": a number of the request before `:` is a key, not a
 * value), and two answers that both say there is none (`@outliers[[]]`, `[]`) agree. The checks'
 * comparisons use the same rules (`value-compare.ts`).
 */
import { equalTokens, onlyMissingValues, placedNumbers, placedWords, requestWords, saysNoValues, type Placed, type Token } from '../../text/answer-values.js';
export type { RunAgreement } from '../../history/run-parts.js';

/** Temperature of an independent program: another sample, off the greedy path of the first. */
export const AGREEMENT_TEMPERATURE = 0.7;
/** Independent programs made at most per confirmation (the second, then a third to break a tie). */
export const MAX_INDEPENDENT = 2;

/** The instruction that follows the request (and the input profile) for an independent program. */
export const INDEPENDENT_INSTRUCTION =
  'Write a program that computes this from scratch. Print only the answer: the requested values, one per line, no sentences.';

/**
 * Added before {@link INDEPENDENT_INSTRUCTION} on runs with input files: an independent program
 * that parses the records into fields does not share a first program's pattern search over raw
 * text (a status regex that also matches the size column) nor its guess of what a count counts.
 */
export const FROM_FIELDS_INSTRUCTION =
  'Work from the fields, not the raw text: read every record into its named fields with the read call the profile ' +
  'above gives (JSON records at the path it gives, logs into a table of their fields, tables as it says), select ' +
  'records by those fields, and count things by a quantity field when there is one.';


const num = (value: number): Token => ({ kind: 'num', value, decimals: 15 });

/** True when the request asks for an order (then the order of values is compared). */
export function asksForOrder(request: string): boolean {
  return /\b(?:sort(?:ed)?|order(?:ed)?|rank(?:ed|ing)?|top|ascending|descending|(?:biggest|largest|highest|smallest|lowest|most|least|newest|oldest) first|in sequence)\b/i.test(request);
}

/** How to read the two texts compared: `exact` for a side that is a Python value's text (a check's literal), whose numbers are exact, not rounded for print. */
export interface CompareOptions {
  exactAnswer?: boolean;
  exactReference?: boolean;
}

const exactly = (p: Placed): Placed => (p.token.kind === 'num' ? { ...p, token: { ...p.token, decimals: 15 } } : p);

/**
 * A number of the reference that is a key echoing the request (`777: 511` for "convert ff and 777
 * to decimal"): a label of the value after it, not a value of the answer. Only when the reference
 * has values besides its labels.
 */
function echoLabels(ref: Placed[], request: string): Placed[] {
  const asked = placedNumbers(request).map((p) => p.token);
  const isLabel = (p: Placed) => p.token.kind === 'num' && /^[:=]$/.test(p.after ?? '') && asked.some((a) => equalTokens(a, p.token));
  const values = ref.filter((p) => !isLabel(p));
  return values.length > 0 && values.length < ref.length ? values : ref;
}

/** How `answer` holds `reference`'s values: the answer's values matched to them, and the rest (its extras); undefined when some value of the reference is missing. */
function matchValues(answer: string, reference: string, request: string, options: CompareOptions = {}): { pool: Placed[]; ref: Placed[]; matched: Set<number> } | undefined {
  const refNumbers = placedNumbers(reference).map((p) => (options.exactReference ? exactly(p) : p));
  const ref = refNumbers.length > 0 ? echoLabels(refNumbers, request) : placedWords(reference, requestWords(request));
  if (ref.length === 0) return undefined;
  const pool = refNumbers.length > 0 ? placedNumbers(answer).map((p) => (options.exactAnswer ? exactly(p) : p)) : placedWords(answer, new Set());
  const matched = new Set<number>();
  if (asksForOrder(request)) {
    let at = 0;
    for (const r of ref) {
      while (at < pool.length && !equalTokens(pool[at]!.token, r.token)) at++;
      if (at === pool.length) return undefined;
      matched.add(at++);
    }
    return { pool, ref, matched };
  }
  for (const r of ref) {
    const i = pool.findIndex((p, j) => !matched.has(j) && equalTokens(p.token, r.token));
    if (i < 0) return undefined;
    matched.add(i);
  }
  return { pool, ref, matched };
}

/** True when `answer` carries every value of `reference` (it may say more). An empty reference proves nothing: false. */
export function carries(answer: string, reference: string, request: string, options: CompareOptions = {}): boolean {
  return matchValues(answer, reference, request, options) !== undefined;
}

/**
 * The values of `answer` that `reference` leaves out, when `answer` carries all of `reference`'s:
 * the extras that look like more items of the same answer, not labels or totals. An extra value is
 * a label or total (not counted) when it equals a value both print, is a number of the request
 * ("the first 20 primes"), is the sum or the count of the reference's numbers (when it has several), or stands in another
 * place than the values both print (after another kind of thing on its line, see `beforeClass`:
 * "Average: 3.2 (from 500 rows)"). A word counts only when it stands alone on its line, as the
 * shared words do (a list of names, not a sentence around one). Empty when nothing is left out;
 * undefined when `answer` does not carry `reference` at all.
 */
export function leftOutBy(answer: string, reference: string, request: string, options: CompareOptions = {}): string[] | undefined {
  const m = matchValues(answer, reference, request, options);
  if (!m) return undefined;
  const shared = m.pool.filter((_, i) => m.matched.has(i));
  const extras = m.pool.filter((_, i) => !m.matched.has(i));
  if (extras.length === 0) return [];
  const isNum = m.ref[0]!.token.kind === 'num';
  const allowed: Token[] = isNum
    ? [...placedNumbers(request).map((p) => p.token), ...(m.ref.length > 1 ? [num(m.ref.reduce((s, r) => s + (r.token as { value: number }).value, 0)), num(m.ref.length)] : [])]
    : [];
  const sharedPlaces = new Set(shared.map((p) => p.before));
  const aloneOnLine = (p: Placed, all: Placed[]) => all.filter((q) => q.line === p.line).length === 1;
  return extras
    .filter((e) => {
      if (m.ref.some((r) => equalTokens(r.token, e.token)) || allowed.some((a) => equalTokens(a, e.token))) return false;
      if (isNum) return sharedPlaces.has(e.before);
      return aloneOnLine(e, m.pool) && shared.every((s) => aloneOnLine(s, m.pool));
    })
    .map((e) => e.text);
}

/**
 * Whether `answer` (the first program's output) gives the same answer as `reference` (an independent
 * program's output); rules in the module doc: it carries every value of the reference, and the
 * reference leaves out no part of it ({@link leftOutBy}). An empty reference, or either output
 * printing only missing values (NaN, see `onlyMissingValues`), proves nothing: false. Two outputs
 * that both say there are no values (`@outliers[[]]` and `[]`, see `saysNoValues`) agree.
 * @param request the request (its words are labels, not values; it says whether order counts)
 * @param options which side's numbers are exact (see {@link CompareOptions})
 */
export function sameAnswer(answer: string, reference: string, request: string, options: CompareOptions = {}): boolean {
  if (onlyMissingValues(answer) || onlyMissingValues(reference)) return false; // NaN is no value two programs can agree on
  // the same text is the same answer, whatever it is made of (1,800 backticks hold no value to read: case B2)
  if (sameText(answer, reference)) return answer.trim() !== '';
  if (saysNoValues(answer, request) && saysNoValues(reference, request)) return true;
  return leftOutBy(answer, reference, request, options)?.length === 0;
}

/** Two outputs that are the same text but for spaces at line ends and blank lines around it. */
function sameText(a: string, b: string): boolean {
  const norm = (t: string) => t.replace(/[ \t]+$/gm, '').trim();
  return norm(a) === norm(b);
}

/**
 * When one of two outputs carries the other's values and more of the same kind (a partial answer:
 * "DE 14" beside "DE 14 FR 9 IT 1"), which one is partial and what it leaves out (up to 8 values); else undefined.
 */
export function partialAnswer(a: string, b: string, request: string): { partial: 'a' | 'b'; leftOut: string[] } | undefined {
  const fromB = leftOutBy(a, b, request);
  if (fromB && fromB.length > 0) return { partial: 'b', leftOut: fromB.slice(0, 8) };
  const fromA = leftOutBy(b, a, request);
  if (fromA && fromA.length > 0) return { partial: 'a', leftOut: fromA.slice(0, 8) };
  return undefined;
}

/**
 * Whether an independent program's output (`reference`) confirms the attempt's (`answer`): the
 * same answer ({@link sameAnswer}); or the attempt printed no number and the reference carries its
 * words. Rules in the module doc.
 */
export function answerAgrees(answer: string, reference: string, request: string): boolean {
  if (sameAnswer(answer, reference, request)) return true;
  return placedNumbers(answer).length === 0 && !onlyMissingValues(answer) && carries(reference, answer, request);
}

/** Two outputs that give the same answer, whichever is taken as the reference (between peers: two independent programs, or two candidates). */
export function agreeEitherWay(a: string, b: string, request: string): boolean {
  return sameAnswer(a, b, request) || sameAnswer(b, a, request);
}
