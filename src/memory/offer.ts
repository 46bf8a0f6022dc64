/**
 * The offer after a correction: when a reply corrected how a run read its request (the run had
 * answered, the reply's improve turn then succeeded), the thread offers to remember the reply as a
 * definition of the channel: "Remember for this channel: <sentence>? [Remember] [Just this time]".
 * The sentence is the reply itself, on one line, when it fits a definition; the offer and its
 * button read it from the run (the button carries only the run's id), so both say the same.
 */
import type { Run } from '../history/types.js';
import { withoutFilesNote } from '../text/files-note.js';
import { placedNumbers, placedWords } from '../text/answer-values.js';

/** An offer to show in a run's thread. */
export interface MemoryOffer {
  runId: string;
  /** What would be remembered (the team's words: untrusted text). */
  sentence: string;
}

/** The feedback of the run's latest feedback attempt (a reply or the Improve button's text), without the note naming files. */
export function lastFeedback(run: Pick<Run, 'attempts'>): string | undefined {
  const attempt = [...run.attempts].reverse().find((a) => a.trigger === 'feedback' && a.feedback);
  return attempt?.feedback ? withoutFilesNote(attempt.feedback) || undefined : undefined;
}

/**
 * What starts a correction without being part of what it states ("no,", "wrong:", "that's not
 * right —", "actually"), one or more of them.
 */
const CORRECTION_OPENER = /^(?:(?:no|nope|wrong|incorrect|not quite|not right|actually|that(?:'|’)?s (?:wrong|incorrect|not (?:right|it|correct))|this is (?:wrong|incorrect|not (?:right|it|correct)))(?![\w'’])[\s,:;.!—–-]*)+/i;

/**
 * The feedback as a definition: one line without the words that only said the answer was wrong
 * ("wrong: revenue = units × unit_price" → "revenue = units × unit_price"), when it has at most
 * `maxChars` characters; else undefined (also when nothing is left).
 */
export function correctionSentence(feedback: string | undefined, maxChars: number): string | undefined {
  const line = feedback?.replace(/\s+/g, ' ').trim().replace(CORRECTION_OPENER, '').trim();
  if (!line || [...line].length > maxChars) return undefined;
  return line;
}

/** What the offer reads of a run before its improve turn: its status and the answer it had printed. */
export interface RunBefore {
  status: Run['status'];
  /** The stdout of its newest attempt that ran ({@link printedAnswer}); absent: not known. */
  answer?: string;
}

/** The run's status and printed answer, as an improve turn found them (read before the turn: the agent changes the run in place). */
export function runBefore(run: Pick<Run, 'status' | 'attempts'>): RunBefore {
  return { status: run.status, answer: printedAnswer(run) };
}

/** The stdout of the run's newest attempt that was executed, '' when none was. */
export function printedAnswer(run: Pick<Run, 'attempts'>): string {
  return [...run.attempts].reverse().find((a) => a.result)?.result?.stdout ?? '';
}

/**
 * What opens a reply that asks for more rather than for another reading ("also print how many",
 * "additionally…", "and also a chart").
 */
const ADDITION_OPENER = /^(?:and\s+)?(?:also|additionally|in addition|as well|furthermore|moreover)(?![\w'’])/i;

/**
 * Whether the new answer keeps every value the earlier one printed (its numbers when it printed
 * any, else its words), so that the reply added to the answer and changed none of it. An earlier
 * answer with no value at all is never "kept".
 */
export function keepsAnswer(earlier: string, later: string): boolean {
  const numbers = placedNumbers(earlier);
  const tokens = (text: string, asNumbers: boolean) => (asNumbers ? placedNumbers(text).map((p) => String(p.token.value)) : placedWords(text, new Set()).map((p) => String(p.token.value)));
  const before = tokens(earlier, numbers.length > 0);
  if (before.length === 0) return false;
  const left = new Map<string, number>();
  for (const t of tokens(later, numbers.length > 0)) left.set(t, (left.get(t) ?? 0) + 1);
  for (const t of before) {
    const n = left.get(t) ?? 0;
    if (n === 0) return false;
    left.set(t, n - 1);
  }
  return true;
}

/**
 * Whether a finished improve turn corrected a reading: before it the run had answered (`success`
 * or `unverified`: it ran), the turn had feedback that does not only ask for more ("also print…"),
 * the turn ended `success`, and its answer changed what the run had printed (an answer that keeps
 * every earlier value and adds to it was extended, not read another way).
 */
export function correctedReading(before: RunBefore | undefined, after: Run | undefined, feedback: string | undefined): boolean {
  const text = feedback?.trim();
  if (!text || ADDITION_OPENER.test(text.replace(CORRECTION_OPENER, '').trim())) return false;
  if (!(before?.status === 'success' || before?.status === 'unverified') || after?.status !== 'success') return false;
  return before.answer === undefined || !keepsAnswer(before.answer, printedAnswer(after));
}

/**
 * The offer after an improve turn, or undefined when it corrected no reading ({@link correctedReading})
 * or its feedback is no sentence to keep.
 */
export function offerAfter(before: RunBefore | undefined, after: Run | undefined, feedback: string | undefined, maxChars: number): MemoryOffer | undefined {
  if (!after || !correctedReading(before, after, feedback)) return undefined;
  const sentence = correctionSentence(lastFeedback(after), maxChars);
  return sentence ? { runId: after.id, sentence } : undefined;
}
