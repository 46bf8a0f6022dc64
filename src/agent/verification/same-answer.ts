/**
 * Attempts only where they can change the outcome: when a new attempt prints the same answer as an
 * earlier one of the run (the same values, whatever their form: `agreement.ts`) and fails the same
 * checks, the model has nothing new to say against them, and another attempt would end the same
 * way. The run ends there with that answer (⚠️) and the reason; when the checks it fails compare
 * with a constant the request does not state (a guess), the reason says so and sets them aside.
 */
import type { Attempt, Run } from '../../history/types.js';
import { stretch } from '../failures/index.js';
import { agreeEitherWay } from './agreement.js';
import { onlyGuessesFailed } from './guesses.js';
import { boundLine } from '../../text/cut.js';

/** Longest answer quoted in the reason, in characters. */
const ANSWER_CHARS = 120;

/** The checks an attempt that ran failed, by their source (sorted), or undefined when none failed or they could not run. */
function failedChecks(attempt: Attempt): string[] | undefined {
  const report = attempt.result?.success ? attempt.result.checks : undefined;
  if (!report || report.error) return undefined;
  const failed = report.results.filter((r) => !r.passed && !attempt.setAside?.checks.includes(r.check)).map((r) => r.check);
  return failed.length === 0 ? undefined : [...new Set(failed)].sort();
}

/** Two printed answers that are the same: the same text, or the same values (agreement's rules). */
function sameOutput(a: string, b: string, request: string): boolean {
  if (a.trim() === '' || b.trim() === '') return false; // nothing printed: the checks' own values decide (the failed-checks rule)
  return a.trim() === b.trim() || agreeEitherWay(a, b, request);
}

/**
 * Why the run ends after `attempt`, when an earlier attempt of the stretch (since the last
 * feedback) printed the same answer and failed the same checks (`guess`: they are all guesses,
 * set aside); else undefined.
 * @param run the run (its checks' guesses say whether the failed checks are guesses)
 */
export function sameAnswerStop(run: Pick<Run, 'attempts' | 'checks' | 'requirement'>, attempt: Attempt, request: string = run.requirement): { reason: string; guess: boolean } | undefined {
  const failed = failedChecks(attempt);
  if (!failed) return undefined;
  const key = failed.join('\u0000');
  const earlier = stretch(run, attempt)
    .slice(0, -1)
    .find((a) => a.repeatOf === undefined && failedChecks(a)?.join('\u0000') === key && sameOutput(a.result!.stdout, attempt.result!.stdout, request));
  if (!earlier) return undefined;
  const answer = boundLine(attempt.result!.stdout.trim(), ANSWER_CHARS);
  const report = attempt.result!.checks!;
  const guesses = onlyGuessesFailed(report, run.checks?.guesses);
  const first = report.results.find((r) => !r.passed && failed.includes(r.check))!;
  const both = `attempts ${earlier.index} and ${attempt.index} printed the same answer («${answer}»)`;
  if (guesses) {
    const named = guesses.map((g) => `\`${g.check.split('\n')[0]}\` compares with ${g.constant}, which the request does not state`).join('; ');
    return { reason: `${both}; the only check they fail is a guess, set aside: ${named}`, guess: true };
  }
  return { reason: `${both} and failed the same check (${first.check.split('\n')[0]}${first.detail ? `: ${first.detail}` : ''}): another attempt would not change the outcome`, guess: false };
}
