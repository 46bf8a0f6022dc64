/**
 * What an attempt proved: confirmed (ran, and every check made agreed), ran without confirmation
 * (exit 0, but a check failed or could not run), or failed (crashed, hit a limit, no usable code,
 * a repeat that was not executed). A crash is never confirmed, whatever its checks would say:
 * checks only run after a program that exited 0.
 */
import type { Attempt, Run } from '../../history/types.js';
import { checkCounts, checksShortfall } from './checks.js';
import { summarizeFailure, missingModule, unfixableFailure, factsOfFailure, repeatedFailureStop } from '../failures/index.js';
import { missingChart, missingOutputs, missingOutputsReason, NO_CHART_REASON } from '../requirements/index.js';
import { onlyMissingValues } from '../../text/answer-values.js';
import { withoutSetAside } from './guess-step.js';
import { sameAnswerStop } from './same-answer.js';

/** The verdict on one attempt. `reason` is one line; `defect` is a reviewer's, when it made one. */
export type Verdict =
  | { kind: 'confirmed' }
  | { kind: 'ran'; reason: string; defect?: string }
  | { kind: 'failed'; reason: string };

/**
 * Judges an executed attempt against the run's checks (without any — verify off, or nothing
 * checkable — exit 0 is confirmed). An attempt that ran but showed no answer ({@link answeredNothing})
 * or did not write a file the request asks for (`../requirements/requested-files.ts`) is never confirmed. A repeated
 * program is judged as a failure that carries the verdict of the attempt it repeats.
 */
export function judgeAttempt(attempt: Attempt, run: Pick<Run, 'attempts' | 'checks' | 'inputProfile' | 'requirement'>): Verdict {
  return judgeSettingAside(attempt, run, attempt.setAside?.checks);
}

/**
 * {@link judgeAttempt} with the failed checks in `setAside` not counted (checks set aside as
 * guesses, see `guess-step.ts`): what the verdict would be without them.
 */
export function judgeSettingAside(attempt: Attempt, run: Pick<Run, 'attempts' | 'checks' | 'inputProfile' | 'requirement'>, setAside: readonly string[] | undefined): Verdict {
  if (attempt.repeatOf !== undefined) {
    const original = run.attempts[attempt.repeatOf - 1];
    const verdict = original && original.repeatOf === undefined ? judgeAttempt(original, run) : undefined;
    const outcome =
      verdict && verdict.kind !== 'confirmed' ? `, which ${verdict.kind === 'ran' ? `ran, but ${verdict.reason}` : `failed: ${verdict.reason}`}` : '';
    return { kind: 'failed', reason: `the same program as attempt ${attempt.repeatOf}${outcome}` };
  }
  const checks = run.checks;
  if (attempt.error) return { kind: 'failed', reason: attempt.error };
  const result = attempt.result;
  if (!result) return { kind: 'failed', reason: 'not executed' };
  if (!result.success) return { kind: 'failed', reason: summarizeFailure(result) };
  if (answeredNothing(attempt, run)) return { kind: 'ran', reason: run.inputProfile?.files.length ? PRINTED_NOTHING : PRINTED_NOTHING_AT_ALL };
  if (answeredOnlyMissing(attempt, run)) return { kind: 'ran', reason: PRINTED_ONLY_MISSING };
  // a stated method ignored, an answer not in the form asked: never confirmed, whatever the checks say
  if (attempt.unmet?.length) return { kind: 'ran', reason: attempt.unmet.join('; ') };
  const missing = missingOutputs(attempt, run, requestSoFar(run));
  if (missing.length > 0) return { kind: 'ran', reason: missingOutputsReason(missing) };
  if (missingChart(attempt, requestSoFar(run))) return { kind: 'ran', reason: NO_CHART_REASON };
  if (!checks?.code) return { kind: 'confirmed' };
  const report = withoutSetAside(result.checks ?? { results: [], error: 'the checks did not run' }, setAside);
  const shortfall = checksShortfall(report);
  return shortfall === undefined ? { kind: 'confirmed' } : { kind: 'ran', reason: shortfall };
}

/** Why an attempt on input files that printed nothing is not an answer. */
export const PRINTED_NOTHING = 'the program printed nothing, and the request asks for values from its input files';
/** Why an attempt that printed nothing and wrote no file is not an answer (a run without input files, checks on). */
export const PRINTED_NOTHING_AT_ALL = 'the program printed nothing and wrote no file: there is no answer to show';

/**
 * True when an attempt ran with exit 0 but printed nothing and wrote no file, and so showed no
 * answer: on a run with input files (the question about the data got none, whatever the checks
 * say), or with checks on when no assert judged it (none could be derived, or all were ignored; a
 * request for a function its checks call is judged by them). It is never confirmed, and the next
 * attempt is told so. With verify `off` and no input files, exit 0 stays the answer.
 */
export function answeredNothing(attempt: Attempt, run: Pick<Run, 'inputProfile' | 'checks'>): boolean {
  const result = attempt.result;
  if (!result?.success || result.stdout.trim() !== '' || result.artifacts.length > 0) return false;
  if (run.inputProfile?.files.length) return true;
  return run.checks !== undefined && (result.checks?.results.length ?? 0) === 0;
}

/** Why an attempt on input files whose every printed value is missing (NaN) is not an answer. */
export const PRINTED_ONLY_MISSING = 'every value the program printed is missing (NaN): it computed them from no data of its input files';

/**
 * True when an attempt on input files ran with exit 0 and every value it printed is missing
 * (`NaN`, `NaT`, `<NA>`; see {@link onlyMissingValues}): a column that is not there, a join that
 * matched nothing. It is never confirmed (two programs that read the same wrong column agree on
 * NaN), and the next attempt is told so.
 */
export function answeredOnlyMissing(attempt: Attempt, run: Pick<Run, 'inputProfile'>): boolean {
  const result = attempt.result;
  return !!result?.success && !!run.inputProfile?.files.length && onlyMissingValues(result.stdout);
}

/** Score of an attempt that ran: checks passed (−1 when they could not run), then one that followed what the request states, a failed review last. */
function score(attempt: Attempt): number {
  const report = attempt.result?.checks;
  const passed = report ? (report.error ? -1 : checkCounts(report).passed) : 0;
  return passed * 4 + (attempt.unmet?.length ? 0 : 2) + (attempt.review && !attempt.review.ok ? 0 : 1);
}

/**
 * The attempt to keep as a run's answer when none was confirmed: among the attempts whose program
 * ran with exit 0, the one with the best {@link score}, the earliest on a tie (a later attempt must
 * do better to replace an earlier one). An attempt that showed no answer ({@link answeredNothing},
 * {@link answeredOnlyMissing}) is kept only when no other ran: the run is then `unverified` (it ran with exit 0; the user sees
 * its code and why it is no answer), not `failed`. Undefined when no attempt ran.
 */
export function keptAttempt(run: Run): Attempt | undefined {
  let best: Attempt | undefined;
  let empty: Attempt | undefined;
  for (const attempt of run.attempts) {
    if (attempt.trigger === 'rerun' && (attempt.keptFrom !== undefined || attempt.adoptedFrom !== undefined)) continue;
    if (attempt.repeatOf !== undefined || !attempt.result?.success) continue;
    if (answeredNothing(attempt, run) || answeredOnlyMissing(attempt, run)) empty ??= attempt;
    else if (!best || score(attempt) > score(best)) best = attempt;
  }
  return best ?? empty;
}

/** Code compared for repeats: trailing spaces and blank lines do not count. */
function normalised(code: string): string {
  return code
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .join('\n');
}

/**
 * The index of an earlier attempt of the run that is the same program as `attempt`: the same code
 * given the same workspace (a file that arrived since makes it another program), if any.
 */
export function sameCodeAs(run: Run, attempt: Attempt): number | undefined {
  const code = normalised(attempt.code);
  const earlier = run.attempts.find(
    (a) =>
      a !== attempt && a.index < attempt.index && a.code && a.trigger !== 'rerun' && a.workspace === attempt.workspace && normalised(a.code) === code,
  );
  return earlier?.index;
}

/** The user feedback given so far in a run, oldest first. */
function feedbackOf(run: Pick<Run, 'attempts'>): string[] {
  return run.attempts.filter((a) => a.trigger === 'feedback' && a.feedback).map((a) => a.feedback!);
}

/**
 * What the user asked for so far: the requirement, then each piece of feedback. Checks are derived
 * from it, the reviewer reads it, and a missing file or a broken check is judged against it.
 */
export function requestSoFar(run: Pick<Run, 'requirement' | 'attempts'>): string {
  const feedback = feedbackOf(run);
  if (feedback.length === 0) return run.requirement;
  return `${run.requirement}\n\nChanges asked for since:\n${feedback.map((f) => `- ${f}`).join('\n')}`;
}

/**
 * Why no further attempt can help, if so: the model repeated an earlier program twice in a row,
 * a failure came back too often or the reply could not be finished (`../failures/repeated-failure.ts`), two
 * attempts printed the same answer and failed the same checks (`same-answer.ts`), or the
 * failure is one no code can fix (see `../failures/unfixable.ts`).
 * @param inputNames cleaned names of the files the program was given
 * @param libraries what the sandbox offers, in words (told with a missing module)
 */
export function stopReason(run: Run, attempt: Attempt, verdict: Verdict, inputNames: readonly string[], libraries?: string): string | undefined {
  const before = run.attempts[run.attempts.length - 2];
  if (attempt.repeatOf !== undefined && before?.repeatOf !== undefined) {
    const last = verdict.kind === 'confirmed' ? '' : `: ${verdict.reason}`;
    const facts = factsOfFailure(run, attempt);
    const known = facts ? `; ${facts.split('\n').slice(1).map((l) => l.replace(/^- /, '')).join('; ')}` : '';
    return `the model repeated an earlier program twice and found no other fix${last}${known}`;
  }
  const repeated = repeatedFailureStop(run, attempt);
  if (repeated !== undefined) return repeated;
  const same = sameAnswerStop(run, attempt, requestSoFar(run));
  if (same?.guess) return same.reason;
  const stalled = sameShortfallAsBefore(run, attempt);
  if (stalled !== undefined) return `a new attempt failed the same checks in the same way (${stalled}): no progress`;
  if (same !== undefined) return same.reason;
  if (!attempt.result || attempt.result.success) return undefined;
  const missingBefore = run.attempts
    .slice(0, -1)
    .map((a) => (a.result ? missingModule(a.result) : undefined))
    .filter((m): m is string => m !== undefined);
  return unfixableFailure(attempt.result, {
    request: requestSoFar(run),
    inputFiles: inputNames,
    missingBefore,
    libraries,
  })?.message;
}

/** The failed checks of an attempt that ran, as one comparable text (check and detail of each). */
function failedChecksKey(attempt: Attempt | undefined): string | undefined {
  const report = attempt?.result?.success ? attempt.result.checks : undefined;
  if (!report || report.error) return undefined;
  const failed = report.results.filter((r) => !r.passed);
  return failed.length === 0 ? undefined : failed.map((r) => `${r.check}\u0000${r.detail ?? ''}`).join('\u0001');
}

/**
 * When an attempt ran and failed exactly the checks the attempt before it failed, with the same
 * values, another attempt is unlikely to help (the model cannot find the fix, or the check is
 * wrong): the first such failure, in words; else undefined.
 */
function sameShortfallAsBefore(run: Run, attempt: Attempt): string | undefined {
  const before = run.attempts[run.attempts.indexOf(attempt) - 1];
  const key = failedChecksKey(attempt);
  if (key === undefined || key !== failedChecksKey(before)) return undefined;
  const first = attempt.result!.checks!.results.find((r) => !r.passed)!;
  return `${first.check.split('\n')[0]}${first.detail ? `: ${first.detail}` : ''}`;
}

