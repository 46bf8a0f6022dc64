/**
 * What the steps of a run work with: the agent's parts and settings, a call's options as its turn
 * completes them, and the shape of a new attempt (see `../loop/steps.ts`, `../loop/fix-loop.ts`).
 */
import type { Executor } from '../../sandbox/types.js';
import type { LlmProvider } from '../../llm/types.js';
import type { Attempt, AttemptTrigger, HistoryStore, Run } from '../../history/types.js';
import type { CallOptions, VerifyMode } from './call-options.js';
import type { AgentTools } from '../../tools/types.js';
import type { PythonEnvironment } from '../../sandbox/environment.js';
import type { TurnWorkspace } from './workspace-turn.js';
import type { TimeBudget } from './time-budget.js';
import type { WorkspaceCache } from '../../history/workspace-cache.js';
import type { WorkspaceLimits } from '../../history/workspace.js';
import type { UsageRecorder } from '../../usage/recorder.js';

/** A call's options as the agent completes them for its turn. */
export interface TurnOptions extends CallOptions {
  /** The run's workspace during this turn; `inputFiles` is its files. */
  workspace?: TurnWorkspace;
  /** The highest attempt index this call may reach (see `GeneratingEvent.lastAttempt`). */
  lastAttempt?: number;
  /** The call's time budget: work that cannot finish in what is left is not started. */
  budget?: TimeBudget;
  /**
   * Set when a daily token budget refused the checks' LLM call of the current attempt
   * (src/usage/reservations.ts): the attempt is executed without new checks, then the run stops with this reason.
   */
  budgetStop?: string;
  /**
   * What the independent programs of this turn printed when they cross-checked an answer whose only
   * disagreement was a guessed constant (`../verification/by-agreement.ts`): a later attempt that prints the same is
   * confirmed without a new program.
   */
  independentAnswers?: string[];
}

/** Longest `run.error`, in characters: it is shown in chat status lines and stored with the run. */
export const ERROR_MAX_CHARS = 1000;

/** Temperature of the attempt that follows a repeated program or a repeated failure: enough to leave the greedy path. */
export const REPEAT_TEMPERATURE = 0.8;

/** What the steps work with (see `AgentOptions`). */
export interface StepsOptions {
  llm: LlmProvider;
  executor: Executor;
  store: HistoryStore;
  /** Host folder where artifacts are kept: `<artifactRoot>/<conversation>/<runId>/<attempt>/`. */
  artifactRoot: string;
  /** Improvement attempts of a call that does not say. */
  maxRetries: number;
  verify: VerifyMode;
  /** What the sandbox offers (probed once by the executor), or undefined when it cannot say. */
  environment(): Promise<PythonEnvironment | undefined>;
  /** Bounds of the runs' workspaces (default `DEFAULT_WORKSPACE_LIMITS`). */
  workspaceLimits?: WorkspaceLimits;
  /** The operator's log. */
  log?: (message: string) => void;
  /** The tools programs may call, per conversation. */
  tools?: AgentTools;
  /** This machine's cache of workspace contents (files a program wrote are put in it). */
  workspaceCache?: WorkspaceCache;
  /** Charges usage and says when a budget stops a run (src/usage). Default: none. */
  usage?: UsageRecorder;
  /** Two against one: adopt the independent programs' answer through one more attempt (see `../loop/fix-loop.ts`). Default {@link ADOPT_TWO_AGAINST_ONE}. */
  adoptTwoAgainstOne?: boolean;
  /** Two against one: their answer is the run's answer, without another attempt (`../verification/two-against-one.ts`). Default {@link TWO_AGAINST_ONE_ANSWER}. */
  twoAgainstOneAnswer?: boolean;
}

/**
 * Whether a run whose two independent programs agree with each other and not with its attempt
 * makes one more attempt told their answer (to print it in the requested form), confirmed when it
 * prints it. Decided by the bench (docs/settle.md, "Two against one").
 */
export const ADOPT_TWO_AGAINST_ONE = false;

/**
 * Whether a run whose two independent programs agree with each other and not with its attempt ends
 * with their answer as its answer (⚠️, unconfirmed, the attempt's answer the other candidate),
 * without another attempt. Measured on the stored bench results (docs/settle.md, "Two against
 * one"): their answer was right 10 times in 12, the attempt's 2. {@link ADOPT_TWO_AGAINST_ONE},
 * when set, goes first (another attempt told their answer).
 */
export const TWO_AGAINST_ONE_ANSWER = true;

/**
 * A new attempt of a run (not yet in `run.attempts`).
 * @param workspace the fingerprint of the workspace its program is given (see `Attempt.workspace`)
 */
export function newAttempt(run: Run, trigger: AttemptTrigger, code: string, feedback?: string, workspace?: string): Attempt {
  return {
    index: run.attempts.length + 1,
    trigger,
    ...(feedback !== undefined ? { feedback } : {}),
    ...(workspace !== undefined ? { workspace } : {}),
    code,
    usage: { promptTokens: 0, completionTokens: 0 },
    createdAt: new Date().toISOString(),
  };
}


