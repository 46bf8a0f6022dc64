/**
 * A run keeps its time budget (`agent.run_timeout_s`): the deadline stops whatever runs when it
 * passes (`../loop/deadline.ts`), and before that, work that cannot finish in what is left is not started:
 * another attempt, or an independent program to cross-check an answer, once the time left is less
 * than what an attempt has taken in this call so far. The run then ends with its best answer and
 * the reason.
 */

/** The budget of one call (a turn): when it started and how long it may take. */
export interface TimeBudget {
  /** `Date.now()` at the start of the call, in ms. */
  readonly startedAt: number;
  /** The longest the call may take, in ms; 0: no budget. */
  readonly timeoutMs: number;
}

/**
 * Why `what` is not started, if it is not: the time left is less than the mean time an attempt of
 * this call has taken (everything it did so far, divided by the attempts it made).
 * @param attempts attempts made in this call so far (none: nothing to estimate from, go on)
 * @param what the work about to start, in words (`another attempt`, `a cross-check`)
 * @param now the current time, in ms (for tests)
 */
export function budgetStop(budget: TimeBudget | undefined, attempts: number, what: string, now = Date.now()): string | undefined {
  if (!budget || budget.timeoutMs <= 0 || attempts <= 0) return undefined;
  const spent = now - budget.startedAt;
  const perAttempt = spent / attempts;
  const left = budget.timeoutMs - spent;
  if (left >= perAttempt) return undefined;
  const s = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;
  return `the run's time budget (${s(budget.timeoutMs)}, agent.run_timeout_s) has ${s(left)} left, less than ${what} takes here (about ${s(perAttempt)}), so it ends with the best answer so far`;
}
