/**
 * A run's overall deadline (config `agent.run_timeout_s`): however many attempts, LLM calls and
 * executions a run makes, it ends by then. The deadline aborts a signal derived from the caller's
 * (the LLM call or the execution in progress stops), and the run ends `unverified` (an attempt ran
 * with exit 0) or `failed`, with an error that names the setting.
 */

/** A run's deadline while it runs. */
export interface RunDeadline {
  /** Aborted when the caller's signal aborts or the deadline passes. */
  readonly signal: AbortSignal;
  /** True once the deadline (not the caller) aborted {@link signal}. */
  readonly expired: boolean;
  /** What the run's error says when the deadline ended it. */
  readonly message: string;
  /** Stops the timer (always call it when the run ends). */
  dispose(): void;
}

/**
 * Starts the deadline of one call of the agent.
 * @param timeoutMs the longest the call may take, in ms; 0 or undefined: no deadline
 * @param outer the caller's signal (Ctrl-C, a cancel button), followed as is
 */
export function startDeadline(timeoutMs: number | undefined, outer: AbortSignal | undefined): RunDeadline {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  let expired = false;
  const seconds = Math.round((timeoutMs ?? 0) / 1000);
  const timer =
    timeoutMs && timeoutMs > 0
      ? setTimeout(() => {
          expired = !controller.signal.aborted;
          controller.abort(new Error('the run reached its deadline'));
        }, timeoutMs)
      : undefined;
  timer?.unref();
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    message: `the run took longer than ${seconds} s (agent.run_timeout_s) and was stopped`,
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}
