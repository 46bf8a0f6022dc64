/**
 * The message a run's thread hangs from (Slack's channel message, Discord's header, a schedule's
 * tick on Matrix), composed once for every platform: who asked and what, the run's status in one
 * wording (working, being run again, its status line when it ended, why it failed), a note, and
 * where its results are. Discord's answer to a Re-run or an Improve is {@link againView}.
 */
import type { Run } from '../../history/types.js';
import { boundLine, shortLine } from '../../text/cut.js';
import type { IncomingRequest } from '../incoming-port.js';
import { chatOf, newRunChat } from '../run-chat.js';
import type { Inline, Line, View } from './blocks.js';
import { statusLineOf } from './final-view.js';

/** Characters of the request a root message quotes (one line, marked when cut). */
const REQUIREMENT_MAX = 1000;
/** Characters of a failure's reason, of a note and of an Improve's feedback. */
const REASON_MAX = 300;

/** What a root message says between who asked and what, per kind of request. */
const VERBS = { run: ' asked: ', generate: ' asked for code: ', scheduled: ' scheduled: ' } as const;

/** A person as a root message names them: their name when known, and their id on the platform. */
export interface Person {
  id: string;
  name?: string;
}

/** Where a run stands, as its root message says. */
export type RootState =
  | { state: 'working' }
  /** Someone asked to run it again (`rerun`) or to improve it (`improve`), and it works. */
  | { state: 'again'; action: 'rerun' | 'improve'; who: Person }
  | { state: 'ended'; run: Run }
  /** It ended with no run to show (the reason is the model's or the system's text). */
  | { state: 'failed'; reason: string };

/** What a root message shows. */
export interface RootSpec {
  /** What started the run: a `/run`, a `/generate`, or a schedule's tick. */
  kind: 'run' | 'generate' | 'scheduled';
  /** The request as the person wrote it (team text). */
  requirement: string;
  who: Person;
  state: RootState;
  /** Where the run's messages are: in the thread under this message (true) or below it in the channel. */
  inThread: boolean;
  /** A sentence under the status (e.g. why the run answers in place). */
  note?: string;
}

/** The root spec of a stored run in `state`: its request, who asked it, and where its messages are. */
export function runRootSpec(run: Pick<Run, 'requirement' | 'requestedBy' | 'chat' | 'meta'>, state: RootState): RootSpec {
  const chat = chatOf(run);
  const who: Person = { id: run.requestedBy ?? 'someone', ...(chat?.userName ? { name: chat.userName } : {}) };
  return { kind: chat?.kind ?? 'run', requirement: run.requirement, who, state, inThread: !chat?.inPlace };
}

/**
 * The root spec of a request that starts a run, before the run exists (or when it never came to
 * be): its text, who asked (by name when the platform gave one), and whether its messages are in
 * the thread under the root (`inThread`, default true).
 */
export function requestRootSpec(request: IncomingRequest, state: RootState, inThread = true): RootSpec {
  return { ...runRootSpec({ requirement: request.text.trim(), requestedBy: request.who.userId, chat: newRunChat(request) }, state), inThread };
}

/** Where a run stands once a turn ended: its status line, or (no run: the call threw before one was made) that it failed, and why. */
export function endedState(run: Run | undefined, failure: string | undefined): RootState {
  return run ? { state: 'ended', run } : { state: 'failed', reason: failure ?? 'failed' };
}

/**
 * What a run's root shows once a turn ended: the run's status line; with no run, that `request`
 * (the one the root was posted for, when given) failed, and why; else undefined (the root stays).
 */
export function endedRootSpec(run: Run | undefined, failure: string | undefined, request?: IncomingRequest): RootSpec | undefined {
  if (run) return runRootSpec(run, endedState(run, failure));
  return request && requestRootSpec(request, endedState(undefined, failure));
}

/**
 * A thread's title (Discord's thread name, Slack's DM pane title) from its request: one line of at
 * most `max` characters, `…` when cut; `fallback` when the request has no text (files alone).
 */
export function threadTitle(requirement: string, max: number, fallback = 'code-agent run'): string {
  return shortLine(requirement, max) || fallback;
}

/** The first line of a root message: `<who> asked: <request>` (also a notification's text). */
export function rootHeadline(spec: Pick<RootSpec, 'kind' | 'requirement' | 'who'>): Line {
  return [personPiece(spec.who), VERBS[spec.kind], boundLine(spec.requirement, REQUIREMENT_MAX)];
}

/** A person as an inline piece. */
export const personPiece = (who: Person): Inline => ({ person: boundLine(who.name ?? who.id, 80), id: who.id });

/** The status a root message shows for `state`. */
export function rootStatus(state: RootState): Line {
  switch (state.state) {
    case 'working':
      return ['⏳ Working…'];
    case 'again':
      return state.action === 'rerun' ? ['🔁 Running again for ', personPiece(state.who), '…'] : ['💬 Improving, as ', personPiece(state.who), ' asked…'];
    case 'ended':
      return statusLineOf(state.run);
    case 'failed':
      return [`❌ Failed: ${boundLine(state.reason, REASON_MAX)}`];
  }
}

/**
 * A run's root message: `<who> asked: <request>`, `Status: <status>`, the note, and (in a thread)
 * where to reply. Its one text block fits one message on every platform.
 */
export function rootView(spec: RootSpec): View {
  const text: Line = [...rootHeadline(spec), '\n', { strong: 'Status:' }, ' ', ...rootStatus(spec.state)];
  if (spec.note) text.push('\n', boundLine(spec.note, REASON_MAX));
  if (spec.inThread) text.push('\n', { emphasis: 'Results are in the thread; reply there to improve.' });
  return { blocks: [{ kind: 'text', text }] };
}

/** What {@link againView} shows: the action, on which run, by whom, and (once it ended) how it ended. */
export interface AgainSpec {
  action: 'rerun' | 'improve';
  runId: string;
  who: Person;
  /** An Improve's feedback (team text). */
  feedback?: string;
  /** How it ended: the run, or no run (it failed before one was made). Absent while it works. */
  ended?: { run: Run | undefined };
}

/**
 * The answer to a Re-run or an Improve (Discord's interaction reply): `🔁 Re-run of run r-1 by
 * <who>`, then its status once it ended, and the feedback quoted.
 */
export function againView(spec: AgainSpec): View {
  const what = spec.action === 'rerun' ? '🔁 Re-run' : '💬 Improve';
  const text: Line = [{ strong: what }, ' of run ', { code: spec.runId }, ' by ', personPiece(spec.who)];
  if (spec.ended) text.push(': ', ...(spec.ended.run ? statusLineOf(spec.ended.run) : ['❌ Failed']));
  if (spec.feedback) text.push('\n', { emphasis: boundLine(spec.feedback, REASON_MAX) });
  return { blocks: [{ kind: 'text', text }] };
}
