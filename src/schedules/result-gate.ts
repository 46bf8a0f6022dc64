/**
 * The result gate of a schedule (docs/schedules.md, "Gates"): post every tick, only when the answer
 * changed, or only when a condition on a value the program printed holds. The condition is read
 * ONCE, when the schedule is made, into a small predicate ({@link ResultGate} `condition`) that is
 * shown to the person who schedules; every tick checks it on the program's stdout with no LLM call.
 *
 * Forms (after `only when`): `it changed`, `the answer changed`; `refunds > 5 %`,
 * `total < 1000`, `errors >= 1`, `refund rate is above 5%`, `total is at most 1,000`,
 * `> 100` (no label: the only number printed).
 *
 * How a value is found in stdout: the first line that holds the label (case, spaces, `_` and `-`
 * ignored), and on it the first number after the label (`Refunds: 6.2 %` → 6.2; thousands
 * separators and a trailing `%` are read as `answer-values.ts` reads them). A percent condition
 * compares the number as printed (`6.2%` and `6.2` are both 6.2; a fraction like 0.062 is not
 * turned into a percent). Without a label the output must hold exactly one number.
 */
import { createHash } from 'node:crypto';
import type { ResultGate } from '../history/programs.js';
import { placedNumbers } from '../text/answer-values.js';

/** A condition that cannot be read; `message` says what was understood and gives an example. */
export class ConditionError extends Error {
  override name = 'ConditionError';
}

type Op = Extract<ResultGate, { kind: 'condition' }>['op'];

/** Words people use for each comparison, longest first (so `at least` wins over `least`). */
const OP_WORDS: Array<[RegExp, Op]> = [
  [/^(?:>=|≥|=>|is at least|at least|is not less than|is no less than)$/, '>='],
  [/^(?:<=|≤|=<|is at most|at most|is not more than|is no more than)$/, '<='],
  [/^(?:!=|≠|<>|is not|isn't|differs from)$/, '!='],
  [/^(?:>|is above|above|is over|over|is more than|more than|is greater than|greater than|exceeds|is higher than)$/, '>'],
  [/^(?:<|is below|below|is under|under|is less than|less than|is lower than|drops below|falls below)$/, '<'],
  [/^(?:==|=|is|equals|is equal to)$/, '=='],
];
/** Symbols first: a label may hold a word such as "over" ("hours over budget > 3"). */
const OP_SYMBOLS = />=|≥|=>|<=|≤|=<|!=|≠|<>|==|=|>|</;
const OP_PATTERN =
  /\b(?:is at least|at least|is not less than|is no less than|is at most|at most|is not more than|is no more than|is not|isn't|differs from|is above|above|is over|over|is more than|more than|is greater than|greater than|exceeds|is higher than|is below|below|is under|under|is less than|less than|is lower than|drops below|falls below|is equal to|equals|is)\b/;

const EXAMPLE = 'only when it changed · only when refunds > 5 % · only when total < 1000';

function refuse(text: string, understood: string): never {
  throw new ConditionError(`Could not read the condition "${text.trim()}": ${understood}. Say it like: ${EXAMPLE}.`);
}

/** `5`, `5.2`, `1,000`, `-3`, `5 %`, `5%` → the number and whether it is a percent; undefined otherwise. */
function readNumber(text: string): { value: number; percent: boolean } | undefined {
  const m = /^([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+)\s*(%|percent)?$/.exec(text.trim());
  if (!m) return undefined;
  const value = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(value) ? { value, percent: Boolean(m[2]) } : undefined;
}

/**
 * Reads what follows `only when` (empty: post every tick).
 * @throws {ConditionError} saying what was understood and giving an example
 */
export function readResultGate(text: string): ResultGate {
  const t = text.trim().replace(/\s+/g, ' ').replace(/[.!]$/, '');
  if (!t) return { kind: 'always' };
  if (/^(?:it|the (?:answer|result|output)s?|(?:answer|result|output)s?)? ?(?:has )?(?:changed|changes)(?: since the last (?:post|run))?$/i.test(t)) return { kind: 'changed' };
  const op = OP_SYMBOLS.exec(t) ?? OP_PATTERN.exec(t.toLowerCase());
  if (!op) refuse(t, 'no comparison (>, <, >=, <=, =, "is above", "is below"…) nor "it changed"');
  const label = t.slice(0, op.index).trim().replace(/^(?:the )/i, '').trim();
  const rest = t.slice(op.index + op[0].length).trim();
  const number = readNumber(rest);
  if (!number) refuse(t, `${label ? `the value "${label}" ` : 'a value '}${op[0]} something, but "${rest}" is not a number`);
  const mapped = OP_WORDS.find(([re]) => re.test(op[0].toLowerCase()))?.[1];
  if (!mapped) refuse(t, `"${op[0]}" is not a comparison`);
  if (label && !/^[\p{L}\p{N}_][\p{L}\p{N}_ \-/().]*$/u.test(label)) refuse(t, `"${label}" is not a label the output can print (letters, digits, spaces, _ and -)`);
  if (label.length > 60) refuse(t, 'the label is longer than 60 characters');
  const shown = `${label ? `the number after "${label}"` : 'the only number'} in the output ${mapped} ${number.value}${number.percent ? ' (percent, as printed)' : ''}`;
  return { kind: 'condition', ...(label ? { label } : {}), op: mapped, value: number.value, ...(number.percent ? { percent: true } : {}), text: shown };
}

/** What the result gate made of one tick's output. */
export type GateVerdict =
  /** Post it; `value` is the number the condition read, when it had one. */
  | { post: true; value?: number; why: string }
  /** Post nothing. */
  | { post: false; why: string }
  /** The condition could not be checked on this output (its value is missing): a failed tick. */
  | { unreadable: string };

/** Lower-case, with spaces, `_` and `-` removed: how labels are matched. */
const squash = (s: string) => s.toLowerCase().replace(/[\s_\-]+/g, '');

/**
 * The value a condition reads in `stdout` (see the module comment).
 * @returns the number, or a sentence saying why there is none
 */
export function readLabelledValue(stdout: string, label: string | undefined): number | string {
  if (!label) {
    const nums = placedNumbers(stdout);
    if (nums.length === 1) return (nums[0]!.token as { value: number }).value;
    return nums.length === 0 ? 'the output holds no number' : `the output holds ${nums.length} numbers, and the condition names no label to pick one`;
  }
  const want = squash(label);
  for (const line of stdout.split('\n')) {
    const flat = squash(line);
    const at = flat.indexOf(want);
    if (at < 0) continue;
    // the position in `line` just past the label: walk the original line until as many squashed characters were seen
    let seen = 0;
    let i = 0;
    for (; i < line.length && seen < at + want.length; i++) if (!/[\s_\-]/.test(line[i]!)) seen++;
    const after = placedNumbers(line.slice(i));
    if (after.length > 0) return (after[0]!.token as { value: number }).value;
  }
  return `no line of the output holds "${label}" followed by a number`;
}

function compare(a: number, op: Op, b: number): boolean {
  switch (op) {
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '==':
      return a === b;
    case '!=':
      return a !== b;
  }
}

/** The fingerprint of an answer, for the gate `changed`: stdout with trailing spaces cut, and each file's name and hash. */
export function answerFingerprint(stdout: string, files: ReadonlyArray<{ name: string; sha256: string }>): string {
  const h = createHash('sha256');
  h.update(stdout.replace(/[ \t]+$/gm, '').trimEnd());
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) h.update(`\0${f.name}\0${f.sha256}`);
  return h.digest('hex');
}

/**
 * Checks the gate on one tick's answer (no LLM call).
 * @param answer the fingerprint of this answer ({@link answerFingerprint})
 * @param lastAnswer the fingerprint of the last posted answer (undefined: none posted yet)
 */
export function checkResultGate(gate: ResultGate, stdout: string, answer: string, lastAnswer: string | undefined): GateVerdict {
  switch (gate.kind) {
    case 'always':
      return { post: true, why: 'every tick is posted' };
    case 'changed':
      return lastAnswer === undefined || answer !== lastAnswer
        ? { post: true, why: lastAnswer === undefined ? 'the first answer' : 'the answer changed' }
        : { post: false, why: 'the answer did not change' };
    case 'condition': {
      const value = readLabelledValue(stdout, gate.label);
      if (typeof value === 'string') return { unreadable: `the condition (${gate.text}) could not be checked: ${value}` };
      return compare(value, gate.op, gate.value)
        ? { post: true, value, why: `${value} ${gate.op} ${gate.value}` }
        : { post: false, why: `${value} is not ${gate.op} ${gate.value}` };
    }
  }
}

/** How a gate reads back to the person who schedules. */
export function gateText(gate: ResultGate): string {
  switch (gate.kind) {
    case 'always':
      return 'every run is posted';
    case 'changed':
      return 'posted only when the answer changed (its output and files)';
    case 'condition':
      return `posted only when ${gate.text}`;
  }
}
