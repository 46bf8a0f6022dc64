/**
 * Typed events the agent emits while it works; adapters render them. The agent never prints.
 */
import type { ToolCallRecord } from '../../tools/types.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import type { AttemptTrigger, Run } from '../../history/types.js';
import type { WorkspaceOrigin } from '../../history/workspace.js';
import type { MemoryUsed } from '../../memory/used-text.js';
import type { HelperUse } from '../../memory/helper-text.js';

/**
 * Emitted before an LLM call. `attempt` is the 1-based index of the attempt being made inside the
 * run: numbers continue across the turns of a run (an improve after one attempt starts at 2).
 */
export interface GeneratingEvent {
  type: 'generating';
  runId: string;
  attempt: number;
  trigger: AttemptTrigger;
  /** The highest attempt index this call may reach (its first attempt + its auto-fixes): "Attempt attempt/lastAttempt". */
  lastAttempt: number;
}
/**
 * Emitted while an attempt's reply streams in (providers that stream, e.g. the local model and the
 * OpenAI API): the code written so far, read from the reply's first code block. `code` grows with
 * each event; its last line may be unfinished. The final code is in the `generated` event, which
 * may differ (it is extracted from the whole reply). Addition to the events, for progress display.
 */
export interface CodeDeltaEvent {
  type: 'code_delta';
  runId: string;
  attempt: number;
  /** The code so far. */
  code: string;
  /** What `code` gained since the previous event of this attempt. */
  delta: string;
}
/** Emitted when code was extracted from the reply (or `error` says why none could be). */
export interface GeneratedEvent {
  type: 'generated';
  runId: string;
  attempt: number;
  code: string;
  error?: string;
}
/** Emitted before the sandbox runs an attempt's code. */
export interface ExecutingEvent {
  type: 'executing';
  runId: string;
  attempt: number;
}
/** Emitted with each execution result. */
export interface ExecutedEvent {
  type: 'executed';
  runId: string;
  attempt: number;
  result: ExecutionResult;
}
/**
 * Emitted after an execution whose program called tools (before `executed`): one record per call,
 * each with a one-line `summary` to show as `🔧 <summary>` (records.ts `toolCallLine`).
 */
export interface ToolCallsEvent {
  type: 'tool_calls';
  runId: string;
  attempt: number;
  /**
   * Set when the calls were made by the n-th independent program that computed the attempt's answer
   * again (the agreement step): those programs call the same tools, and every call is shown.
   */
  independent?: number;
  calls: ToolCallRecord[];
}
/** Emitted when a failure is fed back to the LLM. `retry` counts from 1 to `maxRetries` within one call. */
export interface ImprovingEvent {
  type: 'improving';
  runId: string;
  retry: number;
  maxRetries: number;
  /** The index of the attempt about to be made, in the run (continues across turns). */
  attempt: number;
  /** The highest attempt index this call may reach. */
  lastAttempt: number;
  /** One line naming the failure (e.g. `NameError: name 'x' is not defined`). */
  reason: string;
}
/** Emitted when the LLM is asked for checks (a call that takes as long as writing code on a local model). */
export interface CheckingEvent {
  type: 'deriving_checks';
  runId: string;
}
/** Emitted when checks were derived from the requirement (before the execution they apply to). */
export interface ChecksEvent {
  type: 'checks';
  runId: string;
  /** The assert lines (empty: nothing could be checked for certain). */
  asserts: string[];
  /** Asserts of the previous checks that are gone (after user feedback); reported, never silent. */
  dropped: string[];
  /** The whole checks' source: the asserts and the lines they need (e.g. `values = …` read from OUTPUT). */
  code?: string;
}
/**
 * Emitted once per call whose workspace has files not profiled before in the run (the first turn's
 * inputs, a file given or written since), before the first LLM call: what the agent saw in each.
 */
export interface ProfiledEvent {
  type: 'profiled';
  runId: string;
  /** One entry per new file: its sandbox name and a one-line summary (e.g. `CSV: 1,000 data rows, columns: a, b`). */
  files: { name: string; summary: string }[];
}
/**
 * Emitted after independent programs computed the answer again (checks could not pin it):
 * `agreed`/`majority` confirm the attempt; `disagreed` leaves it unverified with both values.
 */
export interface AgreementEvent {
  type: 'agreement';
  runId: string;
  attempt: number;
  outcome: 'agreed' | 'majority' | 'disagreed' | 'inconclusive';
  /** The attempt's output and each independent program's (bounded one-line renderings). */
  answer: string;
  others: string[];
  /**
   * Checks set aside by this agreement: each compared with a constant the request does not state
   * (a guess, e.g. `assert count == 10`), and an independent program printed the attempt's answer.
   */
  setAside?: { check: string; constant: string }[];
}
/**
 * Emitted at most once per call, right after the first execution that ran with exit 0 and showed an
 * answer (printed something or wrote a file) when its verdict is still to come: an independent
 * program computes it again, a review reads it, or its checks failed and another attempt follows.
 * The answer is shown as not yet confirmed; the call's `done`/`failed` event settles it (the run
 * says which attempt is its answer and whether it was confirmed).
 */
export interface AnswerEvent {
  type: 'answer';
  runId: string;
  attempt: number;
}
/** Emitted when the LLM reviewed a successful execution. */
export interface ReviewedEvent {
  type: 'reviewed';
  runId: string;
  attempt: number;
  ok: boolean;
  defect?: string;
}
/** Emitted when the LLM returned the code of an earlier attempt, which is not executed again. */
export interface RepeatedEvent {
  type: 'repeated';
  runId: string;
  attempt: number;
  /** The earlier attempt with the same code. */
  repeatOf: number;
}
/** One file of a run's workspace, as events show it. */
export interface WorkspaceEntry {
  name: string;
  /** Size in bytes. */
  bytes: number;
  origin: WorkspaceOrigin;
}
/**
 * Emitted at the start of a turn whose workspace has files: every file the program will find in
 * its work dir (given in this or an earlier turn, or written by an earlier attempt), in arrival order.
 */
export interface WorkspaceEvent {
  type: 'workspace';
  runId: string;
  files: WorkspaceEntry[];
}
/** Emitted when a file given or written replaced a workspace file of the same name with other content. */
export interface WorkspaceReplacedEvent {
  type: 'workspace_replaced';
  runId: string;
  /** The new file. */
  file: WorkspaceEntry;
  /** The file it replaced. */
  previous: WorkspaceEntry;
}
/**
 * Emitted when files an attempt wrote could not be kept in the workspace (a bound would be passed):
 * they are still returned with the execution result, but later turns will not find them.
 */
export interface WorkspaceRefusedEvent {
  type: 'workspace_refused';
  runId: string;
  attempt: number;
  /** The files not kept. */
  names: string[];
  /** Why, in words (names the bound and its config key). */
  reason: string;
}
/**
 * Emitted when another turn of the same run is going (another reply, another worker): this call
 * waits for it to end (at most `waitMs` ms) instead of running at the same time on the workspace.
 */
export interface QueuedEvent {
  type: 'queued';
  runId: string;
  /** The longest this call waits, in ms. */
  waitMs: number;
}
/**
 * Emitted once at the start of a run given part of its channel's memory (before its first LLM
 * call): the definitions and the approved examples in its prompt, for the thread to say
 * "📌 used: revenue = units × unit_price; example from run r-1234".
 */
export interface MemoryUsedEvent extends MemoryUsed {
  type: 'memory_used';
  runId: string;
}
/**
 * Emitted when a run was given a definition as code (`memory.definition_helpers`): the helper it
 * wrote and checked now (`written`: shown in the thread; kept with the definition once a person
 * approves the run with 👍), or the approved one its channel keeps; or, with `note` and no
 * `helper`, why none could be written (the run reads the sentence alone).
 */
export interface DefinitionHelperEvent extends HelperUse {
  type: 'definition_helper';
  runId: string;
}
/**
 * Emitted once at the start of a run of a team program (no LLM call): which program and version,
 * who approved it and when, and each parameter's value (given, or its default).
 */
export interface ProgramEvent {
  type: 'program';
  runId: string;
  name: string;
  version: number;
  approvedBy: string;
  approvedByName?: string;
  /** ISO 8601. */
  approvedAt: string;
  /** Each parameter as the program runs with it: `REGION="EU"` (a Python literal), and whether it was given. */
  params: { name: string; value: string; given: boolean }[];
  /** Set when the program was found for a request in other words (it ran at once, instead of a new program). */
  matched?: true;
}
/**
 * Emitted when the files a team program was given do not fit what it was saved with (before
 * anything runs): what does not fit, one plain line each. The run then ends as failed; a reply in
 * its thread adapts the program (an improve turn, whose result is a new version only once saved).
 */
export interface ProgramMisfitEvent {
  type: 'program_misfit';
  runId: string;
  name: string;
  version: number;
  misfits: string[];
}
/**
 * Emitted once when a run ends well (or, for `generate`, when code exists), including an
 * `unverified` run: it ran, but `run.error` says what could not be confirmed.
 */
export interface DoneEvent {
  type: 'done';
  run: Run;
}
/** Emitted once when a run ends in failure; `reason` is one line. */
export interface FailedEvent {
  type: 'failed';
  run: Run;
  reason: string;
}

export type AgentEvent =
  | GeneratingEvent
  | CodeDeltaEvent
  | GeneratedEvent
  | ExecutingEvent
  | ExecutedEvent
  | ToolCallsEvent
  | ImprovingEvent
  | CheckingEvent
  | ChecksEvent
  | ReviewedEvent
  | AnswerEvent
  | ProfiledEvent
  | AgreementEvent
  | RepeatedEvent
  | WorkspaceEvent
  | WorkspaceReplacedEvent
  | WorkspaceRefusedEvent
  | QueuedEvent
  | MemoryUsedEvent
  | DefinitionHelperEvent
  | ProgramEvent
  | ProgramMisfitEvent
  | DoneEvent
  | FailedEvent;

/** Receives agent events. Must not throw; if it does, the error is ignored. */
export type AgentEventListener = (event: AgentEvent) => void;
