/**
 * What the agent is given (`AgentOptions`: the LLM, the sandbox, the store, and the bounds and
 * services of its runs), with the defaults the config leaves unsaid.
 */
import type { Executor } from '../../sandbox/types.js';
import type { LlmProvider } from '../../llm/types.js';
import type { HistoryStore } from '../../history/types.js';
import type { VerifyMode } from '../run/index.js';
import type { AgentTools } from '../../tools/types.js';
import type { WorkspaceLimits } from '../../history/workspace.js';
import type { WorkspaceCache } from '../../history/workspace-cache.js';
import type { UsageRecorder } from '../../usage/recorder.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { ChannelMemoryOptions } from '../../memory/channel-memory.js';
import type { ProgramLimits } from '../../history/programs.js';

/** What the agent needs. */
export interface AgentOptions {
  llm: LlmProvider;
  executor: Executor;
  store: HistoryStore;
  /** Host folder where artifacts are kept: `<artifactRoot>/<conversation>/<runId>/<attempt>/`. */
  artifactRoot: string;
  /** Automatic improvement attempts after a failure. Default 3. */
  maxRetries?: number;
  /** Longest accepted requirement or feedback, in characters. Default 8000. */
  maxRequirementChars?: number;
  /** The operator's log: details of failures users see only in plain words (LLM errors). Default: stderr. */
  log?: (message: string) => void;
  /** How results are verified beyond the exit code. Default `checks`. */
  verify?: VerifyMode;
  /** Two against one: adopt the independent programs' agreed answer with one more attempt (`../run/step-options.ts`). */
  adoptTwoAgainstOne?: boolean;
  /** Two against one: their answer is the run's answer, unconfirmed, with no other attempt (`../run/step-options.ts`; default on). */
  twoAgainstOneAnswer?: boolean;
  /** The longest a call (run, improve, execute) may take, in ms; 0: no deadline. Default {@link DEFAULT_RUN_TIMEOUT_MS}. */
  runTimeoutMs?: number;
  /** Bounds of the runs' workspaces (`workspace.*` in the config). Default {@link DEFAULT_WORKSPACE_LIMITS}. */
  workspaceLimits?: WorkspaceLimits;
  /**
   * The longest a call waits for another turn of the same run to end, in ms. Default: the run
   * deadline plus {@link TURN_LEASE_MS} (an hour without a deadline).
   */
  turnWaitMs?: number;
  /** The tools programs may call, per conversation (src/tools). Default: none. */
  tools?: AgentTools;
  /**
   * This machine's cache of workspace contents (`history/workspace-cache.ts`): a turn restores from
   * the store only what it lacks. Default: none (every restore reads the store).
   */
  workspaceCache?: WorkspaceCache;
  /** Charges what runs spend and stops a run whose budget is spent (src/usage). Default: none. */
  usage?: UsageRecorder;
  /** Counts runs' outcomes and durations (src/metrics). Default: none. */
  metrics?: Metrics;
  /**
   * Channel memory (src/memory): its bounds and prompt budget, or `false` to give runs none.
   * Default: on with the default bounds, when the store keeps memory.
   */
  memory?: ChannelMemoryOptions | false;
  /** Bounds of each conversation's team programs. Default `DEFAULT_PROGRAM_LIMITS`. */
  programLimits?: ProgramLimits;
}

/** A call's deadline when the config does not say (`agent.run_timeout_s`: 300 s). */
export const DEFAULT_RUN_TIMEOUT_MS = 300_000;
