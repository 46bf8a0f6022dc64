/**
 * The guess step of a run: which of its checks compare with a constant the request does not state
 * (`guesses.ts`), and whether an attempt's only disagreement is such a guess. A guess that fails is
 * one opinion against another (the check writer's, worked out in its head, against the program's):
 * an independent program decides between them (`by-agreement.ts`), and two attempts that print the
 * same answer need no third (`verdict.ts`). A check set aside is named in the thread with the reason.
 */
import type { Attempt, Run } from '../../history/types.js';
import type { CheckReport } from '../../history/execution.js';
import { assertLiterals } from './check-literals.js';
import { guessedChecks, onlyGuessesFailed, type GuessedCheck } from './guesses.js';
import { withValueComparisons } from './value-compare.js';

/**
 * An execution's check report as the agent judges it: a failed comparison of the same values in
 * another form counts as passed (`value-compare.ts`), and when a check still failed, the run's
 * checks are read for guesses ({@link classifyGuesses}).
 * @param request the request so far (says whether a form is asked for)
 * @param checksRequest what the checks were derived from (what counts as stated)
 */
export async function readCheckReport(run: Run, report: CheckReport, request: string, checksRequest: string): Promise<CheckReport> {
  const judged = withValueComparisons(report, request);
  if (judged.results.some((r) => !r.passed)) await classifyGuesses(run, checksRequest);
  return judged;
}

/**
 * Reads which of the run's checks are guesses (once per set of checks: kept on `run.checks.guesses`).
 * Checks that cannot be read (no parser here, not valid Python) count as evidence, as before.
 * @param request what the checks were derived from (`checksRequest`)
 */
export async function classifyGuesses(run: Run, request: string): Promise<void> {
  const checks = run.checks;
  if (!checks?.code || checks.guesses !== undefined) return;
  const literals = await assertLiterals(checks.code);
  checks.guesses = literals ? guessedChecks(literals, request) : [];
}

/**
 * The guesses that are an attempt's only disagreement: it ran, some checks failed, every failed
 * check is a guess whose comparison came out different, and nothing else keeps it from being
 * confirmed. Undefined otherwise (a check that is evidence failed, a check raised, no checks).
 * @param confirmedWithout whether the attempt is confirmed once those checks are set aside (the verdict's other conditions: a file asked for, an answer printed)
 */
export function guessOnlyShortfall(run: Pick<Run, 'checks'>, attempt: Attempt, confirmedWithout: (setAside: string[]) => boolean): GuessedCheck[] | undefined {
  const result = attempt.result;
  if (!result?.success || attempt.setAside) return undefined;
  const guesses = onlyGuessesFailed(result.checks, run.checks?.guesses);
  if (!guesses) return undefined;
  return confirmedWithout(guesses.map((g) => g.check)) ? guesses : undefined;
}

/** A report in which the checks set aside no longer count against the attempt (their failures are taken as passed). */
export function withoutSetAside(report: CheckReport, setAside: readonly string[] | undefined): CheckReport {
  if (!setAside?.length || report.error) return report;
  const aside = new Set(setAside);
  return { ...report, results: report.results.map((r) => (r.passed || !aside.has(r.check) ? r : { ...r, passed: true })) };
}
