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
import type { ThreadPlace } from './types.js';

/** One named value a program reads, with its default (extracted once when a version is saved). */
export interface ProgramParameter {
  /** The name as the program spells it (a module-level variable, e.g. `REGION`, `period_days`). */
  name: string;
  /** Its kind, from the default's literal. */
  type: 'str' | 'int' | 'float' | 'bool';
  /** The default, as a JSON value of `type`. */
  default: string | number | boolean;
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
  open?: { tickAt: string; runId: string; thread: ThreadPlace };
  /** The times (ISO 8601) of the newest ticks handled (at most 50): a retried tick found here does nothing. */
  handled?: string[];
  /** Ticks handled so far, and those posted (a new thread each). */
  ticks?: number;
  posted?: number;
}
