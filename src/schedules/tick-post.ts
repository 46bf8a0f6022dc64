/**
 * What a tick posts in its channel, through the platform's outgoing port: a new thread opened
 * without an interaction (a scheduled request: `IncomingRequest.scheduled`), with the run's result
 * and files and its last message; a failure (once per streak); the pause after three failures.
 * Every text here is plain: the platform's markup escapes it.
 */
import type { Run } from '../history/types.js';
import type { Schedule } from '../history/programs.js';
import type { ChatThread, OutgoingPort } from '../chat/port.js';
import type { IncomingRequest } from '../chat/incoming-port.js';
import type { ThreadRef } from '../chat/thread-ref.js';
import { tickText } from './when.js';
import { gateText } from './result-gate.js';

/** The request of one tick of a schedule (the job's payload; no person asked, no interaction to answer). */
export function tickRequest(schedule: Schedule, tickAt: number, missed?: number): IncomingRequest {
  return {
    platform: schedule.platform,
    kind: 'tick',
    deliveryId: tickDeliveryId(schedule.id, tickAt),
    who: { userId: schedule.createdBy, ...(schedule.createdByName ? { userName: schedule.createdByName } : {}), ...(schedule.createdByKey ? { key: schedule.createdByKey } : {}) },
    where: { conversation: schedule.conversationId, channel: schedule.channel },
    text: `⏰ ${schedule.id}: team program \`${schedule.program}\`, ${schedule.when} (${schedule.timezone})`,
    files: [],
    receivedAt: tickAt,
    scheduled: { id: schedule.id, tickAt, ...(missed ? { missed } : {}) },
    origin: {},
  };
}

/** `schedule:<id>:<tick time ISO>`: the delivery id that makes a tick run once. */
export function tickDeliveryId(id: string, tickAt: number): string {
  return `schedule:${id}:${new Date(tickAt).toISOString()}`;
}

/** A thread opened for a tick, and where it is (kept in the schedule's state until the tick ends). */
export interface TickThread<M, R> {
  thread: ChatThread<M, R>;
  ref: ThreadRef;
}

/**
 * Opens a new thread in the schedule's channel, or reopens the one an earlier try of this tick opened.
 * @returns undefined when the platform refused (not in the channel…): nothing could be posted
 */
export async function tickThread<M, R>(port: OutgoingPort<M, R>, request: IncomingRequest, open: ThreadRef | undefined): Promise<TickThread<M, R> | undefined> {
  if (open) return { thread: await port.reopenThread(request, open), ref: open };
  const opened = await port.openThread(request);
  if (!opened) return undefined;
  return { thread: opened.thread, ref: { ...opened.thread.ref } };
}

/** Lines saying why this tick was posted (its time, the catch-up at start, the gate). */
export function postedLines(schedule: Schedule, tickAt: number, missed: number | undefined, why: string, recovered: number): string[] {
  const lines = [`⏰ Scheduled run of \`${schedule.program}\` (${schedule.id}, ${schedule.when}), due ${tickText(new Date(tickAt), schedule.timezone)}.`];
  if (missed) lines.push(`No scheduler was running when ${missed === 1 ? 'this run was due' : `${missed} runs were due`}: it ran once when one started.`);
  if (schedule.resultGate.kind !== 'always') lines.push(`Result gate: ${gateText(schedule.resultGate)} — ${why}.`);
  if (recovered) lines.push(`It works again after ${recovered} failed run${recovered > 1 ? 's' : ''}.`);
  return lines;
}

/** Posts a run's result, files and last message in a tick's thread; links the thread to the run (replies improve it). Never throws. */
export async function postRun<M, R>(t: TickThread<M, R>, run: Run, lines: string[], workspace: string | undefined, warn: (what: string, err: unknown) => void): Promise<void> {
  const { thread } = t;
  const post = async (msg: M) => {
    await thread.output.post(msg).catch((err: unknown) => warn('posting a scheduled run', err));
  };
  await post(thread.markup.note(lines.join('\n')));
  const last = run.attempts.at(-1);
  if (last?.result) for (const msg of thread.markup.result({ view: 'result', attempt: last.index, lastAttempt: last.index, result: last.result })) await post(msg);
  await post(thread.markup.final(run, workspace));
  await thread.ended(run, undefined).catch((err: unknown) => warn('updating the outside view of a scheduled run', err));
}

/** Posts a tick's failure (the first of a streak) in its thread. Never throws. */
export async function postFailure<M, R>(t: TickThread<M, R>, schedule: Schedule, tickAt: number, reason: string, run: Run | undefined, warn: (what: string, err: unknown) => void): Promise<void> {
  const { thread } = t;
  const note = `⏰ Scheduled run of \`${schedule.program}\` (${schedule.id}, ${schedule.when}), due ${tickText(new Date(tickAt), schedule.timezone)}, failed. Further failures in a row are not posted; after three in a row the schedule pauses.`;
  await thread.output.post(thread.markup.note(note)).catch((err: unknown) => warn('posting a scheduled failure', err));
  const last = run?.attempts.at(-1);
  if (last?.result) for (const msg of thread.markup.result({ view: 'result', attempt: last.index, lastAttempt: last.index, result: last.result })) await thread.output.post(msg).catch(() => undefined);
  await thread.output.post(thread.markup.failure(reason)).catch((err: unknown) => warn('posting a scheduled failure', err));
  await thread.ended(run, reason).catch(() => undefined);
}

/** Posts that a schedule paused after three failures in a row. Never throws. */
export async function postPaused<M, R>(t: TickThread<M, R>, schedule: Schedule, reason: string, resume: string, warn: (what: string, err: unknown) => void): Promise<void> {
  const text = `⏸ Schedule ${schedule.id} (\`${schedule.program}\`, ${schedule.when}) is paused: its last three runs failed (the last: ${reason}). It runs again once resumed: ${resume}.`;
  await t.thread.output.post(t.thread.markup.failure(text)).catch((err: unknown) => warn('posting a paused schedule', err));
  await t.thread.ended(undefined, `schedule ${schedule.id} paused after three failures`).catch(() => undefined);
}
