/**
 * The incoming port: the one way into the chat pipeline for every platform (Slack, Discord,
 * Matrix…). A platform's transport turns its traffic — slash commands, mentions, thread messages,
 * buttons, modal submits, reactions — into one neutral {@link IncomingRequest} and hands it, with a
 * {@link Requester} (how to answer that requester privately), to the pipeline's single entry
 * ({@link ChatIngress.receive}, src/chat/ingress.ts). Everything after that is written once, in
 * src/chat: admission (access → the request's checks → dedupe → budgets → limits), the queue (in
 * memory or Redis, chosen once in src/app/chat-service.ts), the job, `/history`, `/show`, and the
 * worker-stopped notice and its correction.
 *
 * What a platform writes, and nothing else (docs/architecture.md, "How to add a platform"):
 * - its transport: receive traffic, build {@link IncomingRequest}s, give each a {@link Requester};
 * - its {@link IncomingPort}: its access lists, how its commands are spelled, and its
 *   {@link AnswerMarkup} (plain text, `/history` and `/show` answers in its markup);
 * - its outgoing port (src/chat/port.ts: {@link OutgoingPort}, {@link ThreadMarkup}): open or find
 *   a run's thread, post and edit there, download the request's files.
 *
 * Every type here is JSON-safe where it travels: an {@link IncomingRequest} is the payload of the
 * queued job (src/chat/job-queue.ts), read back by a worker in another process.
 *
 * Stability: names and shapes here only grow (new optional fields, new request kinds); a new kind
 * fails the type check at every exhaustive switch over {@link RequestKind} until it is handled.
 */
import type { Run } from '../history/types.js';
import type { WorkspaceManifest } from '../history/workspace.js';
import type { SeenIn } from './deliveries.js';
import type { Refusal } from './job-limits.js';
import type { MemoryReply } from '../memory/commands.js';

/**
 * What a request asks for. One name per idea, on every platform and in the job queue:
 * - `run` — a new run: write the code and run it (`/run …`, a mention, a direct message);
 * - `generate` — a new run whose code is written, not run (`/generate …`);
 * - `reply` — a message in a run's thread: improve the run with its text (and files) as feedback;
 * - `improve` — the Improve button (or reaction) of a run, with the feedback typed for it;
 * - `rerun` — the Re-run button (or reaction): the run's latest code run again, without the LLM;
 * - `history` — the conversation's newest runs (`text`: an optional count);
 * - `show` — one run's workspace and latest code (`text`: `[run id | thread] [remove <file name>]`);
 * - `settle` — a person's choice on a finished run (a candidate button, "Neither", 👍 or 👎; `text`:
 *   the choice id of src/chat/settle-view.ts, e.g. `settle:2`, `approve:up`): no LLM call, but a job,
 *   so that its answer is posted in the run's thread by the job side in either mode;
 * - `remember` — a definition for the channel's memory (`text`: the sentence; src/memory/commands.ts);
 * - `memory` — the channel's memory listed, or an entry forgotten (`text`: empty, or `forget <id>`);
 * - `schedule` — a team program scheduled in the channel (`text`: `<program> <when> [only when …]`);
 * - `schedules` — the channel's schedules listed (`text`: empty), or one resumed (`resume <id>`);
 * - `unschedule` — a schedule removed (`text`: its id);
 * - `tick` — one tick of a schedule (made by the scheduler, never by a platform: `scheduled` says
 *   which): its program run, posted in a new thread when its gates let it (src/schedules).
 * - `programs` — the channel's team programs listed (src/programs);
 * - `program` — a team program command as typed (`text`: `<name> [param=value …]`, `<name> show`,
 *   `<name> remove`, or `save <name>` in a run's thread): the entry answers `show` and `remove` at
 *   once and turns a run or a save into one of the two kinds below;
 * - `program_run` — a job: a team program run in a new thread of the channel, no LLM call (`text`:
 *   `<name> [param=value …]`; files given with it are its input files). What a schedule enqueues;
 * - `program_save` — a job: a finished run (`runId`, else the thread's) saved as a team program
 *   (`text`: the name), its parameters read in the sandbox; the "Save as team program" button's
 *   answer, a `save program <name>` reply, `!program save <name>`.
 *
 * Other work adds kinds here (`usage`); each new kind is one more case at the switches in
 * src/chat/ingress.ts and src/chat/request-jobs.ts.
 */
export type RequestKind =
  | 'run'
  | 'generate'
  | 'reply'
  | 'improve'
  | 'rerun'
  | 'settle'
  | 'history'
  | 'show'
  | 'remember'
  | 'memory'
  | 'programs'
  | 'program'
  | 'program_run'
  | 'program_save'
  | 'schedule'
  | 'schedules'
  | 'unschedule'
  | 'tick';

/** The kinds that become a job on the queue (a turn of the agent on a run). */
export type JobRequestKind = Extract<RequestKind, 'run' | 'generate' | 'reply' | 'improve' | 'rerun' | 'settle' | 'program_run' | 'program_save' | 'tick'>;

/** The kinds answered at once from the history, without a job. */
export type QueryRequestKind = Exclude<RequestKind, JobRequestKind>;

/** Every request kind, in the order above (for tests and help texts). */
export const REQUEST_KINDS: readonly RequestKind[] = ['run', 'generate', 'reply', 'improve', 'rerun', 'settle', 'history', 'show', 'remember', 'memory', 'programs', 'program', 'program_run', 'program_save', 'schedule', 'schedules', 'unschedule', 'tick'];

/** Whether a kind becomes a job. */
export function isJobKind(kind: RequestKind): kind is JobRequestKind {
  switch (kind) {
    case 'run':
    case 'generate':
    case 'reply':
    case 'improve':
    case 'rerun':
    case 'settle':
    case 'tick':
    case 'program_run':
    case 'program_save':
      return true;
    case 'history':
    case 'show':
    case 'remember':
    case 'memory':
    case 'schedule':
    case 'schedules':
    case 'unschedule':
    case 'programs':
    case 'program':
      return false;
    default:
      return unknownKind(kind);
  }
}

/** Whether a kind starts a new run in a new thread (its text is the requirement, or the program command). */
export function startsRun(kind: RequestKind): kind is 'run' | 'generate' | 'program_run' {
  return kind === 'run' || kind === 'generate' || kind === 'program_run';
}

/** Compile-time proof that a switch over {@link RequestKind} has every case. */
export function unknownKind(kind: never): never {
  throw new Error(`unknown request kind: ${JSON.stringify(kind)}`);
}

/** Who asks (platform ids, as strings). */
export interface Who {
  /** The platform's user id (Slack `U…`, Discord snowflake, Matrix `@user:server`). */
  userId: string;
  /** A display name, when the platform gives one with the request (shown, never used to ping). */
  userName?: string;
  /** The user's role ids where the platform has roles (Discord); used by the platform's access lists. */
  roleIds?: string[];
  /**
   * The key the user is counted under (one job at a time, usage, daily budgets), when the platform
   * scopes user ids (Slack: `slack:<team>:<user>`). Default `<platform>:user:<userId>`.
   */
  key?: string;
}

/** Where the request was made. */
export interface Where {
  /**
   * The conversation its history lives in (DESIGN "Words"): `slack:<team>:<channel>`,
   * `discord:<guild>:<channel>` (a thread counts for its parent channel), `matrix:<room>`. Also the
   * key of the per-channel job limit.
   */
  conversation: string;
  /** The platform's channel (Slack channel, Discord channel or thread, Matrix room) the request came from. */
  channel: string;
  /** The thread it was made in, when it was made in one: the key the store links threads to runs by (`linkThread`). */
  thread?: string;
  /**
   * What the platform says of that thread, so that a reply in a thread the app started a moment ago
   * waits for its link to the run (src/chat/thread-link.ts). Absent: the thread is looked up once.
   */
  threadStart?: { byApp: boolean; at: number | undefined };
}

/**
 * A file given with a request, as the platform names it; downloaded later, in the job, by the
 * platform's outgoing port with its credentials (only from its own file hosts).
 */
export interface IncomingFile {
  name: string;
  /** Where the platform serves it (Slack `url_private_download`, Discord CDN URL, Matrix `mxc://…`). */
  url: string;
  /** Its size as the platform declares it, in bytes (undefined: not declared). */
  bytes?: number;
}

/**
 * The platform's own part of a request, as JSON: what its outgoing port needs to answer it later,
 * maybe from a worker in another process (Slack's `response_url`, Discord's interaction token and
 * place, Matrix's event id). The pipeline never reads it.
 */
export type RequestOrigin = { [key: string]: JsonValue };

/** A JSON value (what a queued job may carry). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * One request, whatever the platform (see the module comment). JSON: it is the payload of the job
 * it becomes.
 */
export interface IncomingRequest<O extends RequestOrigin = RequestOrigin> {
  /** The platform's name, e.g. `slack`, `discord`, `matrix` (the job is run by that platform's outgoing port). */
  platform: string;
  kind: RequestKind;
  /**
   * The delivery's id, unique per platform (e.g. `slack:command:<trigger_id>`,
   * `discord:interaction:<id>`, `matrix:event:<event id>`): a delivery seen before is dropped
   * (platforms retry). Undefined: not deduplicated.
   */
  deliveryId: string | undefined;
  who: Who;
  where: Where;
  /**
   * The text, already turned into plain text by the platform (its escapes and mentions undone,
   * quotes in code straightened: src/chat/smart-quotes.ts): the requirement (`run`, `generate`),
   * the feedback (`reply`, `improve`), the arguments (`history`, `show`); empty for `rerun`.
   */
  text: string;
  /** Files given with it (become input files in the run's workspace). */
  files: IncomingFile[];
  /** The run a `reply`, `improve`, `rerun` or `settle` is on, when the platform knows it (a button's value); else found from `where.thread`. */
  runId?: string;
  /** When the platform delivered it, ms since the epoch (e.g. the age of an interaction token counts from there). */
  receivedAt: number;
  origin: O;
  /**
   * Set on a `tick` only: the schedule and the tick's time (ms since the epoch), and how many ticks
   * were missed while no scheduler ran (this one runs for them). No person asked and no interaction
   * waits for an answer: the outgoing port opens its thread in `where.channel` on its own.
   */
  scheduled?: ScheduledTick;
}

/** The tick a `tick` request runs. */
export interface ScheduledTick {
  /** The schedule's id (`s3`). */
  id: string;
  /** When the tick was due, ms since the epoch. */
  tickAt: number;
  /** Ticks missed while no scheduler ran (embedded mode's catch-up at start). */
  missed?: number;
  /** The try of this tick, from 2 on: its first try's worker stopped (src/schedules/admit-tick.ts). */
  retry?: number;
}

/**
 * How the pipeline answers the requester of one delivery, privately where the platform can (Slack:
 * the command's ack or an ephemeral message; Discord: an ephemeral reply, or the deferred
 * response; Matrix: a reply only they are mentioned in). Made by the transport per delivery.
 * `A` is the platform's answer type (from its {@link AnswerMarkup}).
 */
export interface Requester<A> {
  /** Answers the requester (a refusal, the queue position, a `/history` answer…). Never throws. */
  answer(msg: A): Promise<void>;
  /**
   * The request was admitted and its job is about to be queued; `ahead` jobs start before it. A
   * platform that must acknowledge within a deadline before work is seen does it here (Discord
   * defers the interaction). A throw refuses the job: it is not queued and the requester is told.
   */
  accepted?(ahead: number): Promise<void>;
  /** A slow answer is being prepared (`history`, `show`): e.g. Discord defers the interaction. Never throws. */
  working?(): Promise<void>;
  /**
   * The same delivery came again (`seenIn`: recognised in this process's memory or in the store),
   * for a platform that must answer every delivery (Discord). Default: nothing is said. Never throws.
   */
  repeated?(seenIn: SeenIn): Promise<void>;
}

/** How a platform spells its chat commands in what it tells people, e.g. `/run` (Slack's may be renamed), `!run` (Matrix). */
export interface CommandNames {
  run: string;
  generate: string;
  history: string;
  show: string;
  remember: string;
  memory: string;
  schedule: string;
  schedules: string;
  unschedule: string;
  /** `/programs` (Matrix `!programs`). */
  programs: string;
  /** `/program` (Matrix `!program`). */
  program: string;
}

/** `/show`'s answer: the run, and its workspace as it is now. */
export interface ShowView {
  run: Run;
  workspace: WorkspaceManifest;
}

/** `/history`'s answer: the conversation's newest runs, newest first (never empty: an empty history is answered as text). */
export interface HistoryView {
  runs: Run[];
}

/** How a platform formats the pipeline's answers to a requester. Pure functions. */
export interface AnswerMarkup<A> {
  /** Plain text (a refusal, the queue position, a usage hint, `/show … remove`'s answer): escaped for the platform. */
  text(plain: string): A;
  history(view: HistoryView, names: CommandNames): A;
  show(view: ShowView, names: CommandNames): A;
  /** `/remember`'s and `/memory`'s answer: a title (our words) and lines (the team's text, untrusted: shown in a code block). */
  memory(reply: MemoryReply): A;
}

/** What a platform gives the pipeline's entry (one per process). */
export interface IncomingPort<A> {
  /** The platform's name (the `platform` of its requests). */
  platform: string;
  names: CommandNames;
  /**
   * Step 1 of admission, from the platform's access lists (channels, rooms, users, roles): undefined
   * when the requester may ask there, else the refusal to show them. Cheap; costs no LLM call.
   */
  access(request: IncomingRequest): string | undefined;
  markup: AnswerMarkup<A>;
  /**
   * A run named in `/show`'s text by something other than its id (Slack: a thread's permalink or
   * ts): that thread's key; undefined when `arg` names no thread.
   */
  threadNamed?(arg: string): string | undefined;
  /** `/history` without a count lists this many runs. */
  historyLimit: number;
}

/** How admission ended; `text` is plain, for the requester. */
export type AdmissionResult =
  | { outcome: 'refused'; step: 'access' | 'request' | 'budget'; text: string }
  | { outcome: 'duplicate'; seenIn: SeenIn }
  | { outcome: 'busy'; reason: Refusal; text: string }
  | { outcome: 'unavailable'; text: string }
  | { outcome: 'queued'; ahead: number; text: string | undefined };

/** What became of a request at the entry. */
export type ReceiveOutcome =
  /** A job request went through admission (queued, refused, busy, a repeat, or the queue was down). */
  | AdmissionResult
  /** A query (`history`, `show`, `remember`, `memory`) or a usage hint was answered. */
  | { outcome: 'answered' }
  /** Nothing to do: a message in a thread that is no run's. */
  | { outcome: 'ignored' };

/** The pipeline's single entry for a platform's requests (implemented by src/chat/ingress.ts). */
export interface ChatIngress<A> {
  /**
   * Takes one request: admits and queues a job (`run`, `generate`, `reply`, `improve`, `rerun`) or
   * answers at once (`history`, `show`), telling the requester what it must know. Never throws.
   */
  receive(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome>;
}
