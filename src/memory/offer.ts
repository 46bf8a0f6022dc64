/**
 * The offer after a correction: when a reply corrected how a run read its request (the run had
 * answered, the reply's improve turn then succeeded), the thread offers to remember the reply as a
 * definition of the channel: "Remember for this channel: <sentence>? [Remember] [Just this time]".
 * The sentence is the reply itself, on one line, when it fits a definition; the offer and its
 * button read it from the run (the button carries only the run's id), so both say the same.
 */
import type { Run } from '../history/types.js';
import { withoutFilesNote } from '../text/files-note.js';

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

/**
 * Whether a finished improve turn corrected a reading: before it the run had answered (`success`
 * or `unverified`: it ran), the turn had feedback, and the turn ended `success`.
 */
export function correctedReading(before: Pick<Run, 'status'> | undefined, after: Pick<Run, 'status'> | undefined, feedback: string | undefined): boolean {
  return !!feedback?.trim() && (before?.status === 'success' || before?.status === 'unverified') && after?.status === 'success';
}

/**
 * The offer after an improve turn, or undefined when it corrected no reading or its feedback is no
 * sentence to keep.
 */
export function offerAfter(before: Pick<Run, 'status'> | undefined, after: Run | undefined, feedback: string | undefined, maxChars: number): MemoryOffer | undefined {
  if (!after || !correctedReading(before, after, feedback)) return undefined;
  const sentence = correctionSentence(lastFeedback(after), maxChars);
  return sentence ? { runId: after.id, sentence } : undefined;
}
