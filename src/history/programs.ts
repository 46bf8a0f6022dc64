/**
 * Team programs and schedules as the history store keeps them (DESIGN "What the team approved runs
 * again"). Types only, low in the layers: the store keeps them, `src/programs` saves, runs,
 * matches and schedules them.
 *
 * A team program is a named, versioned program of one conversation (never shared across
 * conversations): each version is the final program of a run a person saved, with its inputs (the
 * files by name and structure, the tools it reaches) and its parameters (named values with
 * defaults the program reads). A removed program keeps who removed it and when.
 *
 * A schedule runs one team program of its conversation on a recurrence, in a time zone, with a
 * work gate (skip a tick whose inputs did not change) and a result gate (post only when a
 * condition on the printed values holds, or when the answer changed).
 */
import type { FieldProfile } from './run-parts.js';
import { DEFAULT_PROGRAM_LIMITS as PROGRAM_LIMITS_DEFAULTS } from '../config/defaults.js';
import { InputError } from '../config/errors.js';

/** One named value a program reads, with its default (extracted once when a version is saved). */
export interface ProgramParameter {
  /** The name as the program spells it (a module-level variable, e.g. `REGION`, `period_days`). */
  name: string;
  /** Its kind, from the default's literal. */
  type: 'str' | 'int' | 'float' | 'bool';
  /** The default, as a JSON value of `type`. */
  default: string | number | boolean;
  /**
   * Where the default's literal is in the version's code (Python's `ast` positions turned into
   * 1-based lines and 0-based UTF-16 columns, end exclusive): running with `name=value` replaces
   * exactly this text. Absent only in records that were not extracted by `src/programs`.
   */
  span?: ProgramSpan;
}

/** A range of a program's code: 1-based lines, 0-based UTF-16 columns (JavaScript string indices within the line), end exclusive. */
export interface ProgramSpan {
  line: number;
  col: number;
  endLine: number;
  endCol: number;
}

/** One input file a version was saved with: its name and the structure its run's profile saw. */
export interface ProgramInputFile {
  name: string;
  /** The profile's one-line summary when it was saved. */
  summary?: string;
  /** Columns (or record keys) with their types, for tables and JSON records. */
  fields?: FieldProfile[];
  /** Workbooks: the sheet names. */
  sheets?: string[];
}

/** What a version reads: files by name and structure, and the tools it reaches. */
export interface ProgramInputs {
  files: ProgramInputFile[];
  /** SQL sources the program names (`sql("shop", …)`). */
  sources: string[];
  /** HTTP hosts the program reaches. */
  hosts: string[];
}

/** One version of a team program. */
export interface ProgramVersion {
  /** 1-based. */
  version: number;
  code: string;
  /** The requirement of the run it was saved from. */
  request: string;
  inputs: ProgramInputs;
  parameters: ProgramParameter[];
  /** The run it came from. */
  runId: string;
  /** Who approved (saved) this version: a platform user id (`terminal` in the CLI). */
  approvedBy: string;
  /** Their display name, when the platform gave one. */
  approvedByName?: string;
  /** ISO 8601. */
  approvedAt: string;
}

/** A team program of one conversation. */
export interface TeamProgram {
  /** Lower-case `[a-z0-9][a-z0-9-]{0,47}`, unique among the conversation's live programs. */
  name: string;
  conversationId: string;
  /** Oldest first; the last is the current version. */
  versions: ProgramVersion[];
  /** Set once removed (it is no longer listed nor runnable; kept for the audit). */
  removedBy?: string;
  /** ISO 8601. */
  removedAt?: string;
}

/**
 * The mark of a run that ran a team program (no LLM call): which program and version, who approved
 * that version and when, the parameter values it ran with, and the attempt that ran the stored code
 * (a later improve of the run is the agent's, and is marked as such).
 */
export interface RunProgram {
  name: string;
  version: number;
  approvedBy: string;
  approvedByName?: string;
  /** ISO 8601. */
  approvedAt: string;
  /** The values given for parameters (by name); the others ran with their defaults. */
  params: Record<string, string | number | boolean>;
  /** The attempt whose code is the stored program (parameters applied). */
  attempt: number;
  /** Set when the run stopped before running because its files did not fit the saved inputs: what did not fit, one line each. */
  misfits?: string[];
  /**
   * Set when a request in other words was found to ask what this program answers (src/programs/match.ts)
   * and it ran at once: the run's requirement is that request; "Write a new program" takes the normal path.
   */
  matched?: true;
}

/** A version to save (the store numbers it). */
export type NewProgramVersion = Omit<ProgramVersion, 'version'>;

/** Bounds of one conversation's team programs (defaults: `DEFAULT_PROGRAM_LIMITS` in src/config/defaults.ts). */
export interface ProgramLimits {
  /** Most live programs per conversation: a new one past it is refused. */
  maxPrograms: number;
  /** Most versions kept per program: the oldest is dropped when a new one passes it. */
  maxVersions: number;
  /** Largest code of one version, in bytes (UTF-8): a larger one is refused. */
  maxCodeBytes: number;
  /** Removed programs kept per conversation for the audit (older ones are dropped). */
  maxRemoved: number;
}

/** The defaults (50 programs, 20 versions each, 64 KiB of code, 100 removed kept). */
export const DEFAULT_PROGRAM_LIMITS: ProgramLimits = { ...PROGRAM_LIMITS_DEFAULTS };

/** The form of a program's name: lower-case letters, digits and dashes, 1 to 48, starting with a letter or digit. */
export const PROGRAM_NAME = /^[a-z0-9][a-z0-9-]{0,47}$/;

/**
 * A save or remove the store refused (a bound, a bad name): nothing was written. `message` says
 * what and what to do; it is the caller's to tell, not a failure of the store.
 */
export class ProgramRefusedError extends InputError {
  override name = 'ProgramRefusedError';
}

/**
 * The team programs kept by a backend, per conversation (never shared across conversations).
 * Every write is atomic across processes sharing the store: two saves at once both land, as two
 * versions.
 */
export interface ProgramBackend {
  /**
   * Saves a version: creates the program at v1 when the conversation has no live program of that
   * name (a removed one stays removed), else appends v(n+1), dropping the oldest versions past
   * `limits.maxVersions`.
   * @returns the program as stored, its new version last
   * @throws {ProgramRefusedError} for a bad name, code past `maxCodeBytes`, or a new program past `maxPrograms`
   */
  save(conversationId: string, name: string, version: NewProgramVersion, limits?: ProgramLimits): Promise<TeamProgram>;
  /** @returns the live program of that name, or undefined. */
  get(conversationId: string, name: string): Promise<TeamProgram | undefined>;
  /** @returns the conversation's live programs by name; removed ones too (newest removal last) when `withRemoved`. */
  list(conversationId: string, withRemoved?: boolean): Promise<TeamProgram[]>;
  /**
   * Removes a live program: it is no longer listed nor runnable, and is kept with who removed it
   * and when (the name may be saved again, as a new program).
   * @returns the program as removed, or undefined when there is no live program of that name
   */
  remove(conversationId: string, name: string, by: string, at: string): Promise<TeamProgram | undefined>;
}

/** Result gate of a schedule: post every tick, only when the answer changed, or only when a condition holds. */
export type ResultGate =
  | { kind: 'always' }
  | { kind: 'changed' }
  /**
   * A condition on a value the program printed, e.g. `refunds > 5 %`: the value labelled `label`
   * (or the only number printed, when `label` is absent) compared with `value`.
   */
  | { kind: 'condition'; label?: string; op: '>' | '>=' | '<' | '<=' | '==' | '!='; value: number; percent?: boolean; text: string };

/** A program's recurrence in a conversation. */
export interface Schedule {
  /** Short and unique in the store (e.g. `s3`): what `/unschedule <id>` takes. */
  id: string;
  conversationId: string;
  /** The platform whose outgoing port posts its runs, and the channel they are posted in. */
  platform: string;
  channel: string;
  program: string;
  /** Parameter values given when it was scheduled (the program's defaults otherwise). */
  params: Record<string, string | number | boolean>;
  /** What the person typed (`every Monday at 9`). */
  when: string;
  /** The cron line it was read as (five fields), in `timezone`. */
  cron: string;
  /** IANA time zone, e.g. `Europe/Berlin`. */
  timezone: string;
  resultGate: ResultGate;
  /** Skip a tick whose inputs did not change since the last posted run (default true). */
  workGate: boolean;
  createdBy: string;
  createdByName?: string;
  /** The key its creator is counted under (budgets, usage; `IncomingRequest.who.key`), when the platform scopes user ids. */
  createdByKey?: string;
  /** ISO 8601. */
  createdAt: string;
  /** Set when three ticks in a row failed (or a person paused it): why, and when. */
  paused?: { reason: string; at: string };
  /** What the last ticks did. */
  state: ScheduleState;
}

/** What a schedule's ticks did so far (updated after every tick). */
export interface ScheduleState {
  /** ISO 8601 of the last tick handled. */
  lastTickAt?: string;
  /** The fingerprint of the inputs of the last posted run (work gate). */
  lastInputs?: string;
  /** The fingerprint of the answer of the last posted run (result gate `changed`). */
  lastAnswer?: string;
  /** Failed ticks in a row (three pause the schedule). */
  failures: number;
  /** Whether the failure of the current streak was posted already (a failure is posted once). */
  failurePosted?: boolean;
  /**
   * A tick whose thread was opened but whose post did not end (its worker stopped): a retry of that
   * tick posts in this thread instead of opening another. Cleared when the tick ends.
   */
  open?: { tickAt: string; runId: string; thread: { channel: string; thread?: string } };
  /** The times (ISO 8601) of the newest ticks handled (at most 50): a retried tick found here does nothing. */
  handled?: string[];
  /** Ticks handled so far, and those posted (a new thread each). */
  ticks?: number;
  posted?: number;
}
