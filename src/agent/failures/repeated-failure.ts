/**
 * A failure that repeats changes something or ends the run. Attempts are compared by what went
 * wrong (the exception and its message, a limit hit, a reply the model could not finish), not by
 * their code: the second time the same failure comes back, the next prompt says so (with what the
 * input profile knows of the names in the error) and the next attempt samples differently; the
 * third time, the run ends with the reason instead of spending its remaining attempts. A reply cut
 * at the length limit even with twice the room, or a second reply that degenerated, ends it at once.
 */
import type { Attempt, Run } from '../../history/types.js';
import { summarizeFailure } from './failure.js';
import { errorNames } from '../../data/error-names.js';
import { nameFacts } from '../../data/name-facts.js';
import { boundLine } from '../../text/cut.js';

/** Times the same failure may occur in a stretch of attempts; the next time ends the run. */
export const SAME_FAILURE_LIMIT = 3;

/** The attempts that count for repeats: since the last user feedback, without kept or re-executed copies. */
export function stretch(run: Pick<Run, 'attempts'>, upTo: Attempt): Attempt[] {
  const until = run.attempts.indexOf(upTo);
  const made = run.attempts.slice(0, until + 1);
  const start = made.map((a) => a.trigger).lastIndexOf('feedback');
  return made.slice(Math.max(0, start)).filter((a) => a.trigger !== 'rerun');
}

/**
 * What went wrong in an attempt, as a key equal for the same failure: the exception line or limit
 * (memory addresses and line numbers left out), a reply fault; a repeated program carries the key of
 * the program it repeats. Undefined for an attempt that ran with exit 0, or whose failure is not the
 * program's (a stream cut by the connection).
 */
export function failureKey(run: Pick<Run, 'attempts'>, attempt: Attempt): string | undefined {
  if (attempt.repeatOf !== undefined) {
    const original = run.attempts[attempt.repeatOf - 1];
    return original && original.repeatOf === undefined ? failureKey(run, original) : undefined;
  }
  if (attempt.replyFault === 'length' || attempt.replyFault === 'runaway') return `reply:${attempt.replyFault}`;
  const result = attempt.result;
  if (!result || result.success) return undefined;
  return `run:${summarizeFailure(result).replace(/0x[0-9a-f]+/gi, '0x…').replace(/\bline \d+/g, 'line …')}`;
}

/** The earlier attempts of the stretch (see the module doc) that failed the way `attempt` did, oldest first. */
export function sameFailuresBefore(run: Pick<Run, 'attempts'>, attempt: Attempt): Attempt[] {
  const key = failureKey(run, attempt);
  if (key === undefined) return [];
  const earlier = stretch(run, attempt).slice(0, -1);
  return earlier.filter((a) => failureKey(run, a) === key);
}

/** The execution an attempt's failure came from (a repeat's original), if it ran. */
function executedOf(run: Pick<Run, 'attempts'>, attempt: Attempt): Attempt {
  return attempt.repeatOf !== undefined ? (run.attempts[attempt.repeatOf - 1] ?? attempt) : attempt;
}

/**
 * What the profile knows about the names in an attempt's error (see `name-facts.ts`), or undefined.
 */
export function factsOfFailure(run: Pick<Run, 'attempts' | 'inputProfile'>, attempt: Attempt): string | undefined {
  const ran = executedOf(run, attempt);
  if (!ran.result || ran.result.success) return undefined;
  return nameFacts(run.inputProfile, errorNames(ran.result.stderr, ran.code), ran.code);
}

const list = (indexes: number[]) => (indexes.length <= 1 ? String(indexes[0]) : `${indexes.slice(0, -1).join(', ')} and ${indexes.at(-1)}`);

/**
 * The note for the next prompt when an attempt failed the way an earlier one did: which attempt,
 * and that the approach must change. Undefined when the failure is new.
 */
export function sameFailureNote(run: Pick<Run, 'attempts'>, attempt: Attempt): string | undefined {
  const before = sameFailuresBefore(run, attempt);
  if (before.length === 0) return undefined;
  return (
    `This is the same error as attempt ${list(before.map((a) => a.index))}: the approach does not work on this data. ` +
    'Do not patch the same lines again: use what is known about the data (above) and take another approach.'
  );
}

/**
 * Why the run ends here because of a repeated failure, if it does: the reply was cut at the length
 * limit with twice the room, a second reply degenerated, or the same failure came back
 * {@link SAME_FAILURE_LIMIT} times (the reason names the attempts, the error and what the profile
 * knows of its names). Undefined while another attempt may help.
 */
export function repeatedFailureStop(run: Pick<Run, 'attempts' | 'inputProfile'>, attempt: Attempt): string | undefined {
  if (attempt.repeatOf === undefined && attempt.replyFault === 'length') {
    return `the reply was cut at the LLM's length limit even with twice the room: the program the model writes for this request does not end (${attempt.error ?? 'cut off'})`;
  }
  const before = sameFailuresBefore(run, attempt);
  if (attempt.replyFault === 'runaway' && attempt.repeatOf === undefined && before.length > 0) {
    return `the reply degenerated again (as in attempt ${list(before.map((a) => a.index))}): ${attempt.error ?? 'it ran away'}`;
  }
  if (before.length + 1 < SAME_FAILURE_LIMIT) return undefined;
  const ran = executedOf(run, attempt);
  const error = ran.result ? summarizeFailure(ran.result) : (ran.error ?? 'failed');
  const facts = factsOfFailure(run, attempt);
  const known = facts ? `; ${facts.split('\n').slice(1).map((l) => l.replace(/^- /, '')).join('; ')}` : '';
  return boundLine(`the same error ${before.length + 1} times (attempts ${list([...before, attempt].map((a) => a.index))}): ${error}${known}`, 1000);
}
