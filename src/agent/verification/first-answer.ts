/**
 * When an attempt's answer is shown before its verdict: the first execution of a call that ran with
 * exit 0 and showed something, whose verdict is not settled at once (see `AnswerEvent`).
 */
import type { Attempt, Run } from '../../history/types.js';
import type { VerifyMode } from '../run/index.js';
import { needsAgreement } from './agreement-step.js';
import type { Verdict } from './verdict.js';

/** True when an execution showed an answer: exit 0, and it printed something or wrote a file. */
export function showsAnswer(attempt: Attempt): boolean {
  const result = attempt.result;
  return !!result?.success && (result.stdout.trim() !== '' || result.artifacts.length > 0);
}

/**
 * True when the attempt showed an answer whose verdict is still to come: its checks (or a missing
 * file) left it unconfirmed and the run goes on, or it was confirmed but an independent program or
 * a review is still to judge it. False when the verdict is known at once (confirmed with nothing
 * more to ask, or a failure).
 * @param verdict the attempt's verdict by its checks alone (`judgeAttempt`)
 */
export function answerPending(run: Run, attempt: Attempt, verdict: Verdict, verify: VerifyMode): boolean {
  if (!showsAnswer(attempt) || verdict.kind === 'failed') return false;
  if (verdict.kind === 'ran') return true;
  if (verify === 'review' || verify === 'both') return true;
  return verify === 'checks' && needsAgreement(run, attempt, 'confirmed', false);
}
