/**
 * A run's outcome as the terminal shows it (docs/architecture.md): the history keeps a
 * cancelled run as `failed` with the error `cancelled`; here it is `cancelled`.
 */
import type { Run } from '../../src/history/types.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';

/** The error the agent records on a run stopped by its signal (Ctrl-C). */
export const CANCELLED = 'cancelled';

/** The outcomes shown in the terminal and in `--json`. */
export type Outcome = 'success' | 'unverified' | 'failed' | 'cancelled' | 'generated' | 'running';

/**
 * The outcome of a run. `running` only for a run still going in a live process (e.g. another
 * terminal): the store ends runs of stopped processes as failed ("interrupted") when they are read.
 * A run returned by `code-agent run` is always finished, so `--json` never says `running`.
 */
export function runOutcome(run: Run): Outcome {
  if (run.status === 'failed' && run.error === CANCELLED) return 'cancelled';
  return run.status;
}

/** Icon of each outcome in the terminal. */
export const OUTCOME_ICON: Readonly<Record<Outcome, string>> = {
  success: '✅',
  unverified: '⚠️',
  failed: '❌',
  cancelled: '⏹️',
  generated: '📝',
  running: '⏳',
};

/**
 * The execution result of the run's answer: the last attempt's, or, when the last program repeated
 * an earlier attempt's (not executed again), that attempt's. Undefined when nothing was executed.
 */
export function answerResult(run: Run): ExecutionResult | undefined {
  const last = run.attempts.at(-1);
  return last?.result ?? (last?.repeatOf !== undefined ? run.attempts[last.repeatOf - 1]?.result : undefined);
}
