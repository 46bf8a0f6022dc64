/**
 * Two against one, adopted: when the run's two independent programs agree with each other and not
 * with its attempt, their answer becomes the run's answer, unconfirmed (⚠️), without another
 * attempt: a copy of the leading candidate (`adoptedFrom`, nothing executed), the attempt's answer
 * shown as the other candidate. Measured on the stored bench results (docs/settle.md): where two
 * independent programs agreed against the attempt, their answer was right 10 times in 12, the
 * attempt's 2.
 */
import type { Run } from '../../history/types.js';
import type { Candidate } from '../../history/candidates.js';
import { newAttempt } from '../run/index.js';

/** What the run's error adds when the independent programs' answer is adopted. */
export function adoptedNote(leader: Candidate, run: Pick<Run, 'candidates'>): string {
  const own = run.candidates?.find((c) => c.from === 'attempt');
  return `two against one: their answer is the run's answer, unconfirmed${own ? ` (the attempt's is candidate ${own.n})` : ''}`;
}

/** The leading candidate of a run whose two independent programs agree against its attempt, if it has one. */
export function leadingCandidate(run: Pick<Run, 'candidates'>): Candidate | undefined {
  return run.candidates?.find((c) => c.leads && c.from === 'independent');
}

/**
 * Makes `leader` ({@link leadingCandidate}: two independent programs against the attempt) the run's
 * answer: appends an attempt that copies its code, output and files (`adoptedFrom`).
 */
export function adoptLeader(run: Run, leader: Candidate): void {
  const last = run.attempts.at(-1);
  run.attempts.push({
    ...newAttempt(run, 'rerun', leader.code, undefined, last?.workspace),
    adoptedFrom: leader.n,
    result: { success: true, stdout: leader.output, stderr: '', exitCode: 0, signal: null, timedOut: false, limitHit: null, durationMs: 0, artifacts: leader.artifacts },
  });
}
