/**
 * What a check may assert as evidence: a value the request states (its numbers, its examples, its
 * format words) or a property its code computes. A literal the check made up (the count of vowels
 * of a sentence "== 10", the largest palindrome "== 999", "only one line of output" where a table
 * was asked) is a guess: the check writer's own answer, worked out in its head, which a small model
 * gets wrong as often as the program. A failing guess is a disagreement between two opinions, not
 * proof: the agent sets it aside when the answer is otherwise supported (see `guess-step.ts`).
 *
 * The literals are read by Python's parser (`check-literals.ts`); this module decides which of them
 * the request states.
 */
import type { CheckReport } from '../../history/execution.js';
import type { AssertLiterals, CheckLiteral, LiteralAtom } from './check-literals.js';

import type { GuessedCheck } from '../../history/run-parts.js';
export type { GuessedCheck } from '../../history/run-parts.js';

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
  hundred: 100, thousand: 1000, million: 1_000_000, dozen: 12, single: 1, once: 1, twice: 2, first: 1,
  second: 2, third: 3, fourth: 4, fifth: 5, tenth: 10, half: 0.5, quarter: 0.25, pair: 2, both: 2,
};

/** Words that name a separator or a piece of form, for the one-character strings a check looks for. */
const FORM_WORDS: Record<string, RegExp> = {
  ',': /comma|csv/i,
  ';': /semicolon/i,
  ':': /colon/i,
  '\t': /\btab|tsv/i,
  ' ': /\bspaces?\b|space-separated/i,
  '\n': /\blines?\b|newline|\brows?\b/i,
  '|': /\bpipe/i,
  '-': /\bdash|hyphen/i,
  '.': /\bdots?\b|\bperiod\b|decimal/i,
  '$': /dollar|\bUSD\b/i,
  '%': /percent/i,
  '#': /\bhash|number sign/i,
};

/** The numbers a request states: digits (with thousands separators, signs, fractions), number words, and a percentage as a fraction too. */
export function statedNumbers(request: string): number[] {
  const out: number[] = [];
  for (const m of request.matchAll(/(\d[\d,]*(?:\.\d+)?|\.\d+)(\s*%)?/g)) {
    const raw = m[1]!.replace(/,(?=\d{3}\b)/g, '');
    const value = Number(raw.replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    out.push(value);
    if (m[2]) out.push(value / 100);
  }
  for (const m of request.toLowerCase().matchAll(/[a-z]+/g)) {
    const value = NUMBER_WORDS[m[0]];
    if (value !== undefined) out.push(value);
  }
  return out;
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** True when `value` (or its magnitude) is a number the request states. */
function numberStated(value: number, numbers: readonly number[]): boolean {
  return numbers.some((n) => near(n, value) || near(n, Math.abs(value)));
}

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
const FILLER = new Set('a an the is are was were of in on for to and or with by at from as be it its this that total result answer value'.split(' '));

/** True when the string literal `text` is something the request states: its text, a number it gives, its format words, or its words and numbers. */
function stringStated(text: string, request: string, numbers: readonly number[]): boolean {
  const s = squash(text);
  if (s === '' && text.length === 0) return true; // '' is a form of "printed something", not a value
  if (/^[-+]?\d[\d,]*(?:\.\d+)?%?$/.test(s)) return numberStated(Number(s.replace(/[,%]/g, '')), numbers);
  if (s !== '' && squash(request).includes(s)) return true;
  if (/^[^\p{L}\p{N}]+$/u.test(text)) {
    // separators and whitespace: stated by the character itself or by the word that names it
    return [...new Set(text)].every((c) => (c.trim() !== '' && request.includes(c)) || (FORM_WORDS[c]?.test(request) ?? false));
  }
  const words = new Set(request.toLowerCase().match(/[\p{L}_]+/gu) ?? []);
  const parts = text.toLowerCase().match(/[\p{L}_]+|\d[\d,]*(?:\.\d+)?/gu) ?? [];
  return parts.length > 0 && parts.every((p) => (/^\d/.test(p) ? numberStated(Number(p.replace(/,/g, '')), numbers) : words.has(p) || FILLER.has(p)));
}

/** True when a count of lines `n` compared with the output's lines is a form the request asks for. */
function lineFormStated(n: number, request: string, numbers: readonly number[]): boolean {
  const words = Object.entries(NUMBER_WORDS).filter(([, v]) => v === n).map(([w]) => w);
  const said = new RegExp(`\\b(?:${[String(n), ...words].join('|')})\\s+(?:\\w+\\s+)?(?:lines?|rows?)\\b`, 'i');
  if (said.test(request)) return true;
  return n > 1 && numberStated(n, numbers);
}

function atomStated(atom: LiteralAtom, literal: CheckLiteral, request: string, numbers: readonly number[]): boolean {
  if (atom.k === 'flag') return true; // True / False / None: a property, not a computed value
  if (atom.k === 'other') return false;
  if (atom.k === 'num') return literal.form ? lineFormStated(atom.v, request, numbers) : numberStated(atom.v, numbers);
  return stringStated(atom.v, request, numbers);
}

/** True when every value of a literal is stated by the request; an empty container (`[]`: "there are none") is a claim it must state too. */
export function literalStated(literal: CheckLiteral, request: string, numbers: readonly number[] = statedNumbers(request)): boolean {
  if (literal.atoms.length === 0) return /\b(?:no|none|empty|nothing)\b/i.test(request);
  return literal.atoms.every((a) => atomStated(a, literal, request, numbers));
}

/**
 * The asserts that compare with a literal the request does not state (the first such literal of
 * each): guesses. An assert with no literal (it compares with values its code computes) or whose
 * literals the request states is evidence and is not listed.
 * @param request what the checks were derived from (request, feedback, definitions, profile)
 */
export function guessedChecks(asserts: readonly AssertLiterals[], request: string): GuessedCheck[] {
  const numbers = statedNumbers(request);
  const out: GuessedCheck[] = [];
  for (const a of asserts) {
    const guess = a.literals.find((l) => !literalStated(l, request, numbers));
    if (guess) out.push({ check: a.check, constant: guess.text });
  }
  return out;
}

/**
 * When an execution's checks failed only on guesses, those checks (each with its made-up
 * constant); else undefined: nothing failed, the checks could not run, a check raised an error (a
 * crash in the program's function is the program's failure), or a check that is evidence failed.
 */
export function onlyGuessesFailed(report: CheckReport | undefined, guesses: readonly GuessedCheck[] | undefined): GuessedCheck[] | undefined {
  if (!report || report.error || !guesses?.length) return undefined;
  const failed = report.results.filter((r) => !r.passed);
  if (failed.length === 0) return undefined;
  const out: GuessedCheck[] = [];
  for (const r of failed) {
    const guess = guesses.find((g) => g.check === r.check);
    // only a comparison that came out different ("got 12, expected == 10", "was false") is a disagreement; an exception is not
    if (!guess || !/^(?:got |was false)/.test(r.detail ?? 'was false')) return undefined;
    out.push(guess);
  }
  return out;
}

/** The words that say why a check was set aside, e.g. `` `assert count == 10` compares with 10, which the request does not state (a guess) ``. */
export function guessText(guesses: readonly GuessedCheck[]): string {
  return guesses
    .map((g) => `\`${g.check.split('\n')[0]}\` compares with ${g.constant}, which the request does not state (a guess)`)
    .join('; ');
}
