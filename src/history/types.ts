/**
 * What the history keeps: per conversation (a channel or a CLI session), runs, each with every
 * attempt and its execution result. Words follow docs/architecture.md ("Words").
 */
import type { ExecutionResult } from './execution.js';
import type { InputProfile, RunAgreement, RunChecks, TokenUsage } from './run-parts.js';
import type { UsageLedger } from './usage.js';
import type { Candidate, RunApproval, RunSettlement } from './candidates.js';
import type { DefinitionHelper, MemoryBackend, MemoryExample } from './memory.js';
import type { ScheduleBackend } from './schedules.js';
import type { ProgramBackend, RunProgram } from './programs.js';
import type { NewWorkspaceFile, WorkspaceContent, WorkspaceLimits, WorkspaceManifest, WorkspacePut } from './workspace.js';

/** Why an attempt was made. */
export type AttemptTrigger =
  /** first code for the requirement */
  | 'requirement'
  /** auto-fix after a failed execution or a reply without code */
  | 'error'
  /** improve request with user feedback */
  | 'feedback'
  /** new attempt after a review found a defect in a successful run */
  | 'review'
  /** same code executed again (by the user, or an earlier attempt kept as the run's answer) */
  | 'rerun';

/** One version of the code inside a run, with its execution result. */
export interface Attempt {
  /** 1-based index inside the run. */
  index: number;
  trigger: AttemptTrigger;
  /** User feedback when `trigger` is `feedback`. */
  feedback?: string;
  /** The extracted Python code; empty when the reply had none. */
  code: string;
  /** Why no code could be used (e.g. "the reply contained no Python code"), else absent. */
  error?: string;
  /**
   * When the reply itself was at fault: `length` cut at the token limit even when asked again with
   * twice the room, `cut` cut off before it was complete otherwise (a stream that ended early, a
   * server that refused more room), `runaway` stopped while it degenerated (repeating lines,
   * runaway nesting). Such an attempt has no code and `error` says what happened. (Runs stored
   * before `length` existed say `cut` for both.)
   */
  replyFault?: 'cut' | 'length' | 'runaway';
  /** The execution result; absent when the code was generated but not executed. */
  result?: ExecutionResult;
  /** Tokens used by the LLM call that produced this attempt (zero for a rerun). */
  usage: TokenUsage;
  /** When the code is the same as an earlier attempt's: that attempt's index (it was not executed again). */
  repeatOf?: number;
  /** For an earlier attempt kept as the run's answer (its result copied, not executed again): its index. */
  keptFrom?: number;
  /** For the answer a person chose among the run's candidates (its result copied, nothing executed): the candidate's `n`. */
  settledFrom?: number;
  /**
   * Checks of this attempt set aside: each compares with a constant the request does not state (a
   * guess), and the attempt's answer was otherwise supported (`why`: an independent program printed
   * the same answer). They no longer count against it.
   */
  setAside?: { checks: string[]; why: string };
  /**
   * What the request states that this attempt did not follow, one message each (a stated method the
   * program's calls ignore, an answer not in the form asked: `src/agent/requirements/methods/requirements.ts`).
   * Such an attempt is never confirmed. Absent when it followed every one (or nothing was judged).
   */
  unmet?: string[];
  /**
   * Two against one: this attempt copies the candidate (its `n`) that two independent programs
   * agreed on against the run's attempt; it is the run's answer, unconfirmed (nothing executed).
   */
  adoptedFrom?: number;
  /** The review of this attempt's successful execution, when one was made. */
  review?: { ok: boolean; defect?: string; usage: TokenUsage };
  /**
   * The fingerprint of the run's workspace this attempt's program was given (see
   * `workspaceFingerprint`): a program is "the same" as an earlier one only with the same code and
   * the same workspace. Absent in runs stored before workspaces existed.
   */
  workspace?: string;
  /** ISO 8601 time of creation. */
  createdAt: string;
}

/**
 * Status of a run (docs/architecture.md): `success` ran and every check made agreed;
 * `unverified` ran with exit 0 but a check or the review disagreed or could not be made
 * (`error` says why); `failed` still failing, or a failure no code can fix.
 */
export type RunStatus = 'running' | 'success' | 'unverified' | 'failed' | 'generated';

/** The kinds of turns made on a run: a new run (`run`, `generate`: code not run), an improvement (`improve`: from feedback), the latest code run again (`rerun`), a team program run (`program`: a new run, no LLM call). */
export type TurnKind = 'run' | 'generate' | 'improve' | 'rerun' | 'program';

/** Where a chat message thread is: the channel posted in and, where a platform threads by message (Slack), the thread's parent message. */
export interface ThreadPlace {
  /** Slack's channel id, or Discord's thread (or channel, for a run answered in place) id. */
  channel: string;
  /** Slack: the ts of the thread's parent message. Absent on Discord (the channel is the thread). */
  thread?: string;
}

/** Where a run lives in chat, stored with it. */
export interface RunChat {
  /** Its thread. */
  thread: ThreadPlace;
  /** The run's messages went to the channel itself: no thread could be started there (Discord). */
  inPlace?: boolean;
  /** What started it: a `/run` (or a message, a team program), a `/generate`, or a schedule's tick (`scheduled`; ticks stored before it say `run`: no migration, an older reader shows them as `run`). */
  kind: 'run' | 'generate' | 'scheduled';
  /** Who asked, by the name the platform showed (when it gave one). */
  userName?: string;
  /** The message that heads the run outside its thread (Discord: the interaction's answer), edited as turns end. */
  header?: { channel: string; message: string };
}

/** One requirement and everything that followed from it. */
export interface Run {
  /** Unique id (time-sortable). */
  id: string;
  conversationId: string;
  requirement: string;
  /** Who asked (platform user id or name), if known. */
  requestedBy?: string;
  status: RunStatus;
  attempts: Attempt[];
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  /**
   * One line saying why the run failed (LLM unreachable, cancelled, still failing after retries,
   * a failure no code can fix) or why an `unverified` run could not be confirmed.
   */
  error?: string;
  /** Checks derived from the requirement (and feedback), when verification with checks is on. */
  checks?: RunChecks;
  /** The profile of the run's input files (latest call that had files), shown to the model with the requirement. */
  inputProfile?: InputProfile;
  /** The comparison with independent programs, when the checks could not pin the answer. */
  agreement?: RunAgreement;
  /**
   * While `running`: the process running it, `<hostname>/<pid>/<start ticks>` (see
   * `process-identity.ts`), so that a run left behind by a killed process can be told apart.
   */
  runningIn?: string;
  /** Where the run lives in chat (its thread, its first message), typed; absent outside chat. */
  chat?: RunChat;
  /**
   * Platform data as untyped strings, as chat runs stored before {@link Run.chat} existed carry it
   * (`channel`, `threadTs`, `threadId`, `kind`, `userName`, …); read through `src/chat/run-chat.ts`.
   */
  meta?: Record<string, string>;
  /** Turns (agent calls: run, improve, execute) the run has had so far. Absent before the first. */
  turns?: number;
  /** What the run spent so far, over all its turns. Absent in runs stored before it was kept. */
  usage?: RunUsage;
  /**
   * The distinct answers of a run that ended unconfirmed with two or more (the attempt's and the
   * independent programs'), each with how it read the request; a person may settle it by picking one.
   */
  candidates?: Candidate[];
  /** A person's choice among {@link Run.candidates} (the last one made). */
  settlement?: RunSettlement;
  /** People's 👍/👎 of the run's answer, oldest first (one per person: a new one replaces theirs). */
  approvals?: RunApproval[];
  /** The channel memory given to the run (chosen once, when it started). Absent when there was none. */
  memory?: RunMemory;
  /** Set on a run that ran a team program (src/programs): which one, approved by whom. Absent on the agent's runs. */
  program?: RunProgram;
}

/**
 * The part of its channel's memory a run was given: every definition that fit the budget (given to
 * its attempts and its independent programs) and the approved examples most similar to its request
 * and files (given to its attempts only).
 */
export interface RunMemory {
  /** `helper`: the definition's function, given from memory or written by this run (`written`). */
  definitions: { id: string; text: string; helper?: DefinitionHelper & { written?: boolean } }[];
  examples: ({ id: string } & MemoryExample)[];
}

/** What a run spent (see `usage.ts` for the ledger that adds it up per day, channel and user). */
export interface RunUsage {
  /** LLM calls (code, checks, review, agreement). */
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Time spent waiting for LLM replies, in ms. */
  llmMs: number;
  /** Programs executed in the sandbox. */
  executions: number;
  /** CPU time of the sandboxed programs, in s (0 where no cgroup measures it). */
  cpuS: number;
  /** Tool calls the programs made. */
  toolCalls: number;
}

/** Persistent per-conversation history. */
export interface HistoryStore {
  /** Inserts or replaces a run and indexes it under its conversation. */
  saveRun(run: Run): Promise<void>;
  /** @returns the run, or undefined when there is none with that id. */
  getRun(conversationId: string, runId: string): Promise<Run | undefined>;
  /** @returns the newest `limit` runs of a conversation, newest first. */
  listRuns(conversationId: string, limit?: number): Promise<Run[]>;
  /** Links a platform thread (e.g. Slack thread ts, Discord thread id) to a run. */
  linkThread(conversationId: string, threadKey: string, runId: string): Promise<void>;
  /** @returns the run linked to that thread, if any. */
  findRunByThread(conversationId: string, threadKey: string): Promise<Run | undefined>;
  /**
   * @returns the id of the run linked to that thread, whether or not the run is stored yet (a chat
   *   links a new run's thread before the agent stores the run), else undefined.
   */
  threadRunId(conversationId: string, threadKey: string): Promise<string | undefined>;
  /**
   * Records a platform event id for deduplication.
   * @param ttlMs how long the id is remembered, in ms.
   * @returns true the first time an id is seen, false for a repeat delivery.
   */
  markEventSeen(eventId: string, ttlMs: number): Promise<boolean>;
  /**
   * Deletes a run, its workspace and its files (it is no longer listed nor readable).
   * @returns false when there was no such run.
   */
  deleteRun(conversationId: string, runId: string): Promise<boolean>;
  /** @returns the run's workspace manifest (files in arrival order); empty when it has none. */
  getWorkspace(conversationId: string, runId: string): Promise<WorkspaceManifest>;
  /**
   * Adds files to a run's workspace: contents first, the manifest last, so a failure leaves the
   * workspace as it was. A file of a name already there with other content replaces it (it is in
   * `replaced`); with the same content nothing changes.
   * @param limits the bounds (default `DEFAULT_WORKSPACE_LIMITS`)
   * @throws {WorkspaceLimitError} when a bound would be passed (nothing is written)
   */
  putWorkspaceFiles(conversationId: string, runId: string, files: NewWorkspaceFile[], limits?: WorkspaceLimits): Promise<WorkspacePut>;
  /**
   * Reads the contents of a run's workspace files, those of `manifest` (default: the stored one).
   * @throws {HistoryError} when the store fails or lost a content
   */
  readWorkspace(conversationId: string, runId: string, manifest?: WorkspaceManifest): Promise<WorkspaceContent[]>;
  /** Removes one file from a run's workspace. @returns false when there was no file of that name. */
  removeWorkspaceFile(conversationId: string, runId: string, name: string): Promise<boolean>;
  /**
   * Takes (or renews) the turn lease of a run for `ttlMs` ms: one turn of a run at a time, across
   * processes sharing the store. A lease not renewed (its process was killed) expires.
   * @param owner who takes it (unique per turn)
   * @returns true when `owner` holds it now, false while another owner does.
   */
  takeTurn(runId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Ends `owner`'s turn lease on a run (a lease another owner took after it expired is left alone). */
  releaseTurn(runId: string, owner: string): Promise<void>;
  /**
   * The usage ledger in the same store (`usage.ts`): shared by every process on the store. Absent
   * in a store that keeps none (the callers then keep one in memory).
   */
  readonly usage?: UsageLedger;
  /**
   * The channel memory in the same store (`memory.ts`; what runs do with it: `src/memory`). Absent
   * in a store that keeps none.
   */
  readonly memory?: MemoryBackend;
  /**
   * The schedules of team programs in the same store (`schedules.ts`; what runs them:
   * `src/schedules`). Absent in a store that keeps none.
   */
  readonly schedules?: ScheduleBackend;
  /**
   * The team programs in the same store (`programs.ts`; saving, running and fitting them:
   * src/programs). Absent in a store that keeps none.
   */
  readonly programs?: ProgramBackend;
  /** Answers within its deadline when the store can be read (a health check). @throws {HistoryError} naming the store when not. */
  ping?(): Promise<void>;
  /** Closes connections. */
  close(): Promise<void>;
}

export { HistoryError } from './errors.js';
