/**
 * No answer at all is the last resort: when a run's time is up (its time budget cannot fit another
 * attempt, or its deadline passed) and no attempt ran to the end with exit 0, an attempt that
 * printed something of a plausible form before it failed is shown, ⚠️ unconfirmed, with what
 * happened, rather than ❌ with nothing.
 */
import type { Attempt, Run } from '../../history/types.js';
import { onlyMissingValues } from '../../text/answer-values.js';
import { formFault } from '../requirements/index.js';
import { summarizeFailure } from '../failures/index.js';
import { requestSoFar } from './verdict.js';

/**
 * Whether what a failed attempt printed could be an answer: something besides a traceback, not
 * only missing values (NaN), and not a pandas/NumPy object where a count, a value or a list was
 * asked.
 */
export function plausibleOutput(stdout: string, request: string): boolean {
  const text = stdout.trim();
  if (text === '' || /^Traceback \(most recent call last\)/.test(text)) return false;
  if (!/[\p{L}\p{N}]/u.test(text) || onlyMissingValues(text)) return false;
  return formFault(text, request) === undefined;
}

/** The latest executed attempt that failed after printing a plausible answer, if any (a run whose attempts all failed). */
export function lastResortAttempt(run: Run): Attempt | undefined {
  const request = requestSoFar(run);
  return [...run.attempts].reverse().find((a) => a.repeatOf === undefined && a.result !== undefined && !a.result.success && plausibleOutput(a.result.stdout, request));
}

/** What the run's error says when it ends with a last-resort answer. */
export function lastResortReason(stop: string, attempt: Attempt): string {
  return `${stop}; no attempt ran to the end, and attempt ${attempt.index} printed this before it failed (${summarizeFailure(attempt.result!)}): shown as the only answer, unconfirmed`;
}
