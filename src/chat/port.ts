/**
 * The chat port: what a platform implements so that the one run lifecycle (run-job.ts) and the one
 * thread renderer (thread-renderer.ts) serve it. A platform keeps only its ingress (its traffic
 * turned into typed requests, see admission.ts) and what is below:
 *
 * - open a thread for a new run, or find the thread of an existing run, as a {@link ChatThread}
 *   whose {@link ThreadRef} is plain JSON (it travels on the queue and survives a worker's death);
 * - post and edit messages there ({@link ThreadOutput}; uploads travel inside the platform's message
 *   type `M`, the platform decides whether a file rides on a message or is uploaded after it);
 * - show each message of a thread ({@link ThreadMarkup}, made by src/chat/view/thread-markup.ts from
 *   the platform's renderer: its limits, escaping, code blocks, buttons);
 * - download the request's attachments with its credentials (`inputs`);
 * - say how a turn ended outside the thread (Slack's channel message, Discord's header: `ended`),
 *   and answer the requester privately where no thread could be opened (inside `openThread`).
 *
 * Every method here is best effort and never throws: a failed post never breaks a run.
 */
import type { Run, RunChat, TurnKind } from '../history/types.js';
import type { InputFile } from '../history/execution.js';
import type { EventView } from './event-view.js';
import type { Notice } from './verification.js';
import type { ThreadRef } from './thread-ref.js';
import type { IncomingRequest } from './incoming-port.js';
import type { MemoryOffer } from '../memory/offer.js';

/** Posting into one thread. `R` is the platform's reference to a posted message (Slack: a ts). */
export interface ThreadOutput<M, R> {
  /** Posts a message (and its files). @returns its reference, or undefined when it could not be posted. */
  post(msg: M): Promise<R | undefined>;
  /** Replaces a posted message (its files, if any, are posted after it). */
  edit(ref: R, msg: M): Promise<void>;
  /** The platform's own signs of work, where it has them (see {@link ThreadSigns}); none: today's messages only. */
  signs?: ThreadSigns<M>;
}

/** A task of a streamed attempt as the platform shows it (Slack: a `task_update` chunk). */
export type TaskState = 'in_progress' | 'complete' | 'error';

/**
 * A platform's own signs of work in a thread (docs/architecture.md, "How to add a platform" and "Where each concern lives"): Slack's thread status and
 * streamed messages, Discord's typing indicator, Matrix's typing notification. Best effort and
 * never throws; the renderer falls back to today's posted and edited messages wherever a sign is
 * refused.
 */
export interface ThreadSigns<M> {
  /**
   * Shows that the turn works, at the step of `line` (undefined: the turn ended, stop showing it).
   * @returns true when the sign replaces the progress message (Slack's thread status): then none
   *   is posted; false when it goes along with it (typing) or was refused.
   */
  working(line: ProgressLine | undefined): Promise<boolean>;
  /**
   * Opens one attempt's streamed message (code, result, notices and task updates in one message).
   * @returns undefined when the platform cannot stream here (the renderer posts and edits instead)
   */
  stream?(attempt: number, lastAttempt: number): Promise<AttemptStream<M> | undefined>;
}

/**
 * One attempt's streamed message. Each call returns false when the stream was refused or cut (the
 * renderer then posts what it had to show as a message of its own); `stop` is called exactly once.
 */
export interface AttemptStream<M> {
  /** Appends code being written (`delta`: the new text only); `done`: the attempt's code is complete. */
  code(delta: string, done: boolean): Promise<boolean>;
  /** Appends a message's text (its files are uploaded into the thread after it). */
  append(msg: M): Promise<boolean>;
  /** Shows a task (an attempt, the checks) as in progress, complete or failed. */
  task(id: string, title: string, state: TaskState): Promise<boolean>;
  /** Closes the stream, with `last` (e.g. the turn's final message, its buttons) at its end. */
  stop(last?: M): Promise<boolean>;
}

/** What the progress line says: a step of the agent, the start of a turn, or how the call ended. */
export type ProgressLine =
  | Extract<EventView, { view: 'progress' }>
  | { step: 'start'; turn: TurnKind; userId: string }
  | { step: 'finished'; run: Run; failed: boolean; seconds: number }
  | { step: 'stopped' };

/** The kinds of turns a chat job makes on a run (a `reply` is an `improve` turn). */
export type { TurnKind } from '../history/types.js';

/** An attempt's final code (`lastAttempt`: the highest attempt this call may reach). */
export type CodeShown = Extract<EventView, { view: 'code' }> & { lastAttempt: number };

/**
 * How a platform shows each message of a thread, under its limits and escaping: composed once as
 * views (src/chat/view/thread.ts) and rendered by its renderer (src/chat/view/thread-markup.ts). Pure functions.
 */
export interface ThreadMarkup<M> {
  /** The progress line (one message, edited in place); undefined: nothing to show for it. */
  progress(line: ProgressLine): M | undefined;
  /** Code still being written (edited at most once per STREAM_EDIT_INTERVAL_MS). */
  partialCode(attempt: number, lastAttempt: number, code: string): M;
  /**
   * An attempt's final code. `edit` replaces the message that showed the code while it was
   * written (when there was one), `post` follows it; with no streamed message, `edit` is posted.
   */
  code(shown: CodeShown, streamed: boolean): { edit: M; post?: M };
  /** An execution result, its cut streams and artifacts, as one or more messages. */
  result(view: Extract<EventView, { view: 'result' }>): M[];
  notice(notice: Notice): M;
  improving(view: Extract<EventView, { view: 'improving' }>): M;
  /** The thread's last message of a turn: the outcome, the line naming the workspace (plain), buttons. */
  final(run: Run, workspace: string | undefined): M;
  /** The last message of a turn whose call threw (`reason` is safe to show: src/chat/agent-call.ts). */
  failure(reason: string): M;
  /** A note after the last message (plain text, e.g. the history could not record the end). */
  note(text: string): M;
  /**
   * After a turn whose reply corrected the run's reading: the offer to remember the reply for the
   * channel, with [Remember] and [Just this time] (src/memory/offer.ts). A platform without buttons
   * leaves it out: the thread then shows the sentence as a notice naming the `remember` command.
   */
  memoryOffer?(offer: MemoryOffer): M;
  /**
   * What replaces a notice that turned out false (plain `correction`): the worker-stopped notice of
   * a run whose worker was only paused and went on to its end. Shown struck through where the
   * markup can, followed by the correction.
   */
  withdrawn(notice: string, correction: string): M;
}

/** A thread a job renders in. */
export interface ChatThread<M, R> {
  /** Where it is, as plain JSON. */
  ref: ThreadRef;
  /**
   * The key of the store's thread index (`linkThread`) that replies are matched by; undefined when
   * replies cannot reach the run there (a run answered in place, outside a thread).
   */
  key: string | undefined;
  output: ThreadOutput<M, R>;
  markup: ThreadMarkup<M>;
  /** Downloads the request's files with the platform's credentials; says in the thread which were not used. Never throws. */
  inputs(): Promise<InputFile[]>;
  /** Says how the turn ended outside the thread (undefined run: the call threw before it existed). Never throws. */
  ended(run: Run | undefined, failure: string | undefined): Promise<void>;
}

/** A posted message, as plain JSON (it is kept in the queue's store to be corrected later). */
export interface MessageId {
  /** The channel (or room, or thread) it is in. */
  channel: string;
  /** The platform's id of the message (Slack ts, Discord snowflake, Matrix event id). */
  id: string;
}

/** A new run's thread, and where the run lives in chat (stored with the run for its later turns). */
export interface OpenedThread<M, R> {
  thread: ChatThread<M, R>;
  chat: RunChat;
}

/**
 * The job side of a platform: what the pipeline's job runner (src/chat/request-jobs.ts) asks of it,
 * in the app's own process or in a queue worker. `M` is its message type, `R` its reference to a
 * posted message. Built from the config alone (a worker has no gateway connection).
 */
export interface OutgoingPort<M, R> {
  /** The platform's name (the `platform` of the requests it serves). */
  platform: string;
  /**
   * Opens a new run's thread for a `run` or `generate` request. When the platform refuses, the
   * requester is told privately (e.g. "invite me to this channel") and undefined is returned:
   * nothing runs. Never throws.
   */
  openThread(request: IncomingRequest): Promise<OpenedThread<M, R> | undefined>;
  /**
   * The thread of an existing run for a `reply`, `improve` or `rerun` request (`run`: the run as
   * stored, when it could be read). May show there, or outside it, that the turn started. Never throws.
   */
  runThread(request: IncomingRequest, run: Run | undefined): Promise<ChatThread<M, R>>;
  /**
   * The thread a job rendered in, rebuilt from its reference in another process (to say that the
   * job's worker stopped). Never throws.
   */
  reopenThread(request: IncomingRequest, ref: ThreadRef): Promise<ChatThread<M, R>>;
  /** Tells the requester something only they see, from a job (plain text). Never throws. */
  tell(request: IncomingRequest, text: string): Promise<void>;
  /** The JSON id of a posted message (undefined when it has none). */
  messageId(ref: R): MessageId | undefined;
  /** Replaces a message posted earlier, maybe by another process. Never throws. */
  editMessage(id: MessageId, msg: M): Promise<void>;
  /** Releases what the port holds (a REST-only client of a worker). */
  close?(): Promise<void>;
}
