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
 *   values must appear in the same order.
 *
 * Between the attempt and an independent program ({@link answerAgrees}) the attempt must carry the
 * independent program's values, not the other way round: an attempt that printed 8 of the first 20
 * primes, or one country's count where every country's was asked, is not confirmed by a program
 * that printed all of them. Only an attempt that printed no number at all (a name, a word) may be
 * carried by the independent program's output instead ("NO" agrees with "NO 99").
 */
import type { TokenUsage } from '../llm/types.js';
export type { RunAgreement } from '../history/run-parts.js';

/** Temperature of an independent program: another sample, off the greedy path of the first. */
export const AGREEMENT_TEMPERATURE = 0.7;
/** Independent programs made at most per confirmation (the second, then a third to break a tie). */
export const MAX_INDEPENDENT = 2;
/** Most values compared per output. */
const MAX_VALUES = 2000;

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


type Token = { kind: 'num'; value: number; decimals: number } | { kind: 'word'; value: string };

/** A number standing alone (not part of a word such as `4xx` or `utf8`), with thousands separators, a sign, a fraction, an exponent. */
const NUMBER = /(?<![\p{L}\d_.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?(?<=\d)%?(?![\p{L}\d_])/gu;
const FILLER = new Set(
  'a an the is are was were of in on for to and or with by at from as be it its this that there these those total result results answer value values count number'.split(' '),
);

function numbers(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const raw = m[0].replace(/,/g, '').replace(/%$/, '');
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    const decimals = /e/i.test(raw) ? 15 : (raw.split('.')[1]?.length ?? 0);
    out.push({ kind: 'num', value, decimals });
    if (out.length === MAX_VALUES) break;
  }
  return out;
}

function words(text: string, ignore: Set<string>): Token[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])
    .filter((w) => !FILLER.has(w) && !ignore.has(w))
    .slice(0, MAX_VALUES)
    .map((value) => ({ kind: 'word' as const, value }));
}

function equal(a: Token, b: Token): boolean {
  if (a.kind === 'word' || b.kind === 'word') return a.kind === b.kind && a.value === b.value;
  const shown = 0.5 * 10 ** -Math.min(a.decimals, b.decimals);
  return Math.abs(a.value - b.value) <= Math.max(shown, 1e-9 * Math.max(Math.abs(a.value), Math.abs(b.value)));
}

/** True when the request asks for an order (then the order of values is compared). */
export function asksForOrder(request: string): boolean {
  return /\b(?:sort(?:ed)?|order(?:ed)?|rank(?:ed|ing)?|top|ascending|descending|(?:biggest|largest|highest|smallest|lowest|most|least|newest|oldest) first|in sequence)\b/i.test(request);
}

/**
 * Whether `answer` (the first program's output) carries every value of `reference` (an independent
 * program's output); rules in the module doc. An empty reference proves nothing: false.
 * @param request the request (its words are labels, not values; it says whether order counts)
 */
export function sameAnswer(answer: string, reference: string, request: string): boolean {
  const refNumbers = numbers(reference);
  const ignore = new Set(request.toLowerCase().match(/[\p{L}_]+/gu) ?? []);
  const ref = refNumbers.length > 0 ? refNumbers : words(reference, ignore);
  if (ref.length === 0) return false;
  const pool = refNumbers.length > 0 ? numbers(answer) : words(answer, new Set());
  if (asksForOrder(request)) {
    let at = 0;
    for (const r of ref) {
      while (at < pool.length && !equal(pool[at]!, r)) at++;
      if (at === pool.length) return false;
      at++;
    }
    return true;
  }
  const left = [...pool];
  for (const r of ref) {
    const i = left.findIndex((p) => equal(p, r));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/**
 * Whether an independent program's output (`reference`) confirms the attempt's (`answer`): the
 * attempt carries every value of the reference ({@link sameAnswer}); or the attempt printed no
 * number and the reference carries its words. Rules in the module doc.
 */
export function answerAgrees(answer: string, reference: string, request: string): boolean {
  if (sameAnswer(answer, reference, request)) return true;
  return numbers(answer).length === 0 && sameAnswer(reference, answer, request);
}

/** Two outputs that agree either way round (between two independent programs, peers of each other). */
export function agreeEitherWay(a: string, b: string, request: string): boolean {
  return sameAnswer(a, b, request) || sameAnswer(b, a, request);
}
