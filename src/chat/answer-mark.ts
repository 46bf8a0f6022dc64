/**
 * The mark on a run's first answer while it is checked, and what it becomes once the run's verdict
 * is in: one line of our own words, shown under the answer (in a thread: one message edited in
 * place; in the terminal: a line when the answer is shown and one with the verdict).
 */
import type { Run } from '../history/types.js';
import type { Notice } from './verification.js';

/** Where a marked answer stands: being checked, or how the run ended for it. */
export type AnswerState =
  | { state: 'checking' }
  /** The run's answer, confirmed. */
  | { state: 'confirmed' }
  /** The run's answer, not confirmed (the run is `unverified`; its reason follows). */
  | { state: 'kept' }
  /** Another attempt's answer is the run's (`by`). */
  | { state: 'replaced'; by: number }
  /** Two independent programs agreed on another answer, which is the run's (the candidate `n`), unconfirmed. */
  | { state: 'adopted'; candidate: number }
  /** The run ended without an answer it keeps (failed, cancelled or stopped). */
  | { state: 'ended' };

/** The attempt whose answer a finished run gives (a kept earlier answer counts as that attempt). */
function answerOf(run: Run): number | undefined {
  const last = run.attempts.at(-1);
  if (!last || (run.status !== 'success' && run.status !== 'unverified')) return undefined;
  return last.keptFrom ?? last.index;
}

/**
 * How the run's end settles the answer of `attempt` (undefined run: the call ended without one).
 */
export function settledAnswer(attempt: number, run: Run | undefined): AnswerState {
  const answer = run ? answerOf(run) : undefined;
  if (answer === undefined) return { state: 'ended' };
  const adopted = run!.attempts.at(-1)?.adoptedFrom;
  if (adopted !== undefined) return { state: 'adopted', candidate: adopted };
  if (answer !== attempt) return { state: 'replaced', by: answer };
  return run!.status === 'success' ? { state: 'confirmed' } : { state: 'kept' };
}

/** The mark's words (a title without lines: it holds no program text). */
export function answerMarkText(attempt: number, mark: AnswerState): string {
  const whose = `Attempt ${attempt}'s answer (above)`;
  switch (mark.state) {
    case 'checking':
      return `⏳ ${whose} is not yet confirmed: it is being checked.`;
    case 'confirmed':
      return `✅ ${whose} is confirmed.`;
    case 'kept':
      return `⚠️ ${whose} is the run's answer, but it could not be confirmed (why below).`;
    case 'replaced':
      return `↪️ ${whose} was not confirmed: the run's answer is attempt ${mark.by}'s (below).`;
    case 'adopted':
      return `↪️ ${whose} was not confirmed: two independent programs agreed on another answer, which is the run's, unconfirmed (candidate ${mark.candidate}, below).`;
    case 'ended':
      return `⏹️ ${whose} was not confirmed: the run ended without an answer it could keep.`;
    default:
      return unknownMark(mark);
  }
}

/** The mark as a notice (each platform shows a notice without lines as its title alone). */
export function answerMarkNotice(attempt: number, mark: AnswerState): Notice {
  return { title: answerMarkText(attempt, mark), lines: [] };
}

/** Compile-time proof that every state of the mark has its words. */
function unknownMark(mark: never): never {
  throw new Error(`answer mark without words: ${JSON.stringify(mark)}`);
}
