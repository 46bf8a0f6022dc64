/**
 * One tick of a schedule, as a chat job (kind `tick`) on any worker or in the app's own process:
 *
 * 1. the schedule's lease (one tick of a schedule at a time, across processes: its state is read
 *    and written by one tick only); a schedule removed or paused meanwhile ends the tick;
 * 2. a tick already handled (a retried job: its worker stopped after the end) does nothing; a tick
 *    whose thread was opened by an earlier try posts in that thread;
 * 3. the program runs (no LLM call) as run `tickRunId` (the same id for every try of the tick);
 * 4. a failure (the program failed, could not run, or the condition could not be read) is posted
 *    once per streak; the third in a row pauses the schedule and says so;
 * 5. the work gate (inputs unchanged since the last posted run) and the result gate (`changed`, a
 *    condition) may hold a tick back: nothing is posted, the run is deleted;
 * 6. otherwise a new thread in the channel gets the result and its files.
 *
 * Exactly once: the job of one tick is made once (BullMQ job scheduler ids, the delivery id
 * `schedule:<id>:<tick>`), a try that finds the tick handled does nothing, and a retried try posts
 * in the thread the first one opened. The one window left: a worker killed between the platform
 * accepting the thread's first message and the store recording it (a few ms) makes the retry open
 * a second thread.
 */
import { createHash } from 'node:crypto';
import type { HistoryStore, Run } from '../history/types.js';
import type { Schedule, ScheduleState } from '../history/programs.js';
import type { ScheduleBackend } from '../history/schedules.js';
import type { OutgoingPort } from '../chat/port.js';
import type { IncomingRequest } from '../chat/incoming-port.js';
import type { JobHooks } from '../chat/job-queue.js';
import { takeScheduleLease } from './lease.js';
import type { TickRunner, TickExecution } from './tick-runner.js';
import { inputsFingerprint, unchangedInputs } from './work-gate.js';
import { answerFingerprint, checkResultGate } from './result-gate.js';
import { postFailure, postPaused, postRun, postedLines, tickThread, type TickThread } from './tick-post.js';

/** Failed ticks in a row that pause a schedule. */
export const PAUSE_AFTER_FAILURES = 3;

/** Tick times remembered per schedule as handled. */
export const MAX_HANDLED = 50;

const latest = (a: string | undefined, b: string) => (a !== undefined && a > b ? a : b);

/** Longest a tick waits for the previous tick of its schedule to end, in ms. */
export const TICK_WAIT_MS = 10 * 60_000;

/** What became of a tick (logged, counted, and what tests assert). */
export type TickOutcome = 'posted' | 'unchanged-inputs' | 'gated' | 'failed-posted' | 'failed-quiet' | 'paused' | 'already-handled' | 'gone' | 'not-posted';

/** What a tick uses. */
export interface TickDeps {
  store: HistoryStore;
  /** The store's schedules. */
  schedules: ScheduleBackend;
  runner: TickRunner;
  /** The line naming a run's workspace in its last message (as the thread renderer shows it), or nothing. */
  workspace?: (run: Run) => Promise<string | undefined>;
  /** How a person resumes a paused schedule on this platform (e.g. "/schedules resume s3"). */
  resumeText: (schedule: Schedule) => string;
  warn(what: string, err: unknown): void;
  /** Told of every tick's outcome (the log, the metrics). */
  onOutcome?(schedule: Schedule | undefined, tickAt: number, outcome: TickOutcome): void;
}

/** The run id of a tick: time-sortable by the tick's time, the same for every try of it. */
export function tickRunId(scheduleId: string, conversationId: string, tickAt: number): string {
  return `${tickAt.toString(36)}-${createHash('sha256').update(`${conversationId}\0${scheduleId}`).digest('hex').slice(0, 6)}`;
}

/** The failure of a tick's execution, or undefined when its program ran well. */
function failureOf(done: TickExecution): string | undefined {
  if (done.run.status !== 'failed') return undefined;
  return done.run.error ?? done.run.attempts.at(-1)?.result?.stderr.trim().split('\n').at(-1) ?? 'the program failed';
}

/**
 * Runs one tick (see the module comment). Never throws for what the program does; throws only
 * when the store fails (the job fails and its queue says so).
 */
export async function runTick<M, R>(deps: TickDeps, port: OutgoingPort<M, R>, request: IncomingRequest, job: JobHooks): Promise<TickOutcome> {
  const tick = request.scheduled;
  if (!tick) throw new Error(`a tick job without its schedule (${request.deliveryId ?? 'no delivery id'})`);
  const conversation = request.where.conversation;
  const lease = await takeScheduleLease(deps.store, `schedule:${conversation}:${tick.id}`, TICK_WAIT_MS, (m) => deps.warn(m, undefined));
  let schedule: Schedule | undefined;
  try {
    schedule = await deps.schedules.get(conversation, tick.id);
    const outcome = await underLease(deps, port, request, job, schedule);
    deps.onOutcome?.(schedule, tick.tickAt, outcome);
    return outcome;
  } finally {
    await lease.release();
  }
}

async function underLease<M, R>(deps: TickDeps, port: OutgoingPort<M, R>, request: IncomingRequest, job: JobHooks, schedule: Schedule | undefined): Promise<TickOutcome> {
  const tick = request.scheduled!;
  if (!schedule || schedule.paused) return 'gone';
  const at = new Date(tick.tickAt).toISOString();
  const state = schedule.state;
  if (state.handled?.includes(at) && state.open?.tickAt !== at) return 'already-handled';
  const conversation = schedule.conversationId;
  const runId = tickRunId(schedule.id, conversation, tick.tickAt);
  const save = (next: ScheduleState, paused?: { reason: string; at: string } | null) => deps.schedules.update(conversation, schedule.id, { state: next, ...(paused !== undefined ? { paused } : {}) });
  // handled: this tick's time among the newest, and the newest time as the last tick
  const counted: ScheduleState = { ...state, ticks: (state.ticks ?? 0) + 1, handled: [...(state.handled ?? []).filter((t) => t !== at), at].sort().slice(-MAX_HANDLED) };

  // a try of this tick opened its thread already: post there what its run holds
  if (state.open?.tickAt === at) {
    const run = await deps.store.getRun(conversation, state.open.runId).catch(() => undefined);
    const t = await tickThread(port, request, { ...state.open.thread, runId: state.open.runId });
    if (run && t) await postRun(t, run, postedLines(schedule, tick.tickAt, tick.missed, 'posted after its first try stopped', 0), await deps.workspace?.(run), deps.warn);
    await save({ ...counted, lastTickAt: latest(state.lastTickAt, at), open: undefined, posted: (state.posted ?? 0) + 1 });
    return 'posted';
  }

  const done = await deps.runner.run(schedule, runId);
  const ran = 'run' in done ? done : undefined;
  let failure = 'refused' in done ? done.refused : failureOf(done);
  let why = 'every tick is posted';
  let inputs: ReturnType<typeof inputsFingerprint> | undefined;
  let answer: string | undefined;
  if (ran && failure === undefined) {
    const result = ran.run.attempts.at(-1)?.result;
    inputs = inputsFingerprint({ code: ran.run.attempts.at(-1)?.code ?? '', params: schedule.params }, ran.inputs, result?.toolCalls ?? []);
    answer = answerFingerprint(result?.stdout ?? '', await artifactHashes(result?.artifacts ?? []));
    if (unchangedInputs(schedule.workGate, inputs, state.lastInputs)) {
      await dropRun(deps, conversation, runId);
      await save({ ...counted, lastTickAt: latest(state.lastTickAt, at), failures: 0, failurePosted: false });
      return 'unchanged-inputs';
    }
    const verdict = checkResultGate(schedule.resultGate, result?.stdout ?? '', answer, state.lastAnswer);
    if ('unreadable' in verdict) failure = verdict.unreadable;
    else if (!verdict.post) {
      await dropRun(deps, conversation, runId);
      await save({ ...counted, lastTickAt: latest(state.lastTickAt, at), failures: 0, failurePosted: false });
      return 'gated';
    } else why = verdict.why;
  }

  await job.ending();
  if (failure !== undefined) return failed(deps, port, request, schedule, counted, at, failure, ran?.run);

  // post: a new thread, recorded before anything else is posted in it (a retry posts there)
  const t = await tickThread(port, request, undefined);
  if (!t) {
    await save({ ...counted, lastTickAt: latest(state.lastTickAt, at) });
    return 'not-posted';
  }
  // recorded first: from here on a retry of this tick posts in this thread
  await save({ ...counted, open: { tickAt: at, runId, thread: { channel: t.ref.channel, ...(t.ref.thread !== undefined ? { thread: t.ref.thread } : {}) } } });
  const run = await linkRun(deps, t, ran!.run);
  await postRun(t, run, postedLines(schedule, tick.tickAt, tick.missed, why, state.failures), await deps.workspace?.(run), deps.warn);
  await save({ ...counted, lastTickAt: latest(state.lastTickAt, at), lastInputs: inputs?.fingerprint, lastAnswer: answer, failures: 0, failurePosted: false, open: undefined, posted: (state.posted ?? 0) + 1 });
  return 'posted';
}

/** A failed tick: posted when it is the first of its streak; the third in a row pauses the schedule. */
async function failed<M, R>(deps: TickDeps, port: OutgoingPort<M, R>, request: IncomingRequest, schedule: Schedule, state: ScheduleState, at: string, reason: string, run: Run | undefined): Promise<TickOutcome> {
  const failures = state.failures + 1;
  const tickAt = request.scheduled!.tickAt;
  const conversation = schedule.conversationId;
  if (failures >= PAUSE_AFTER_FAILURES) {
    const paused = { reason: `${failures} failed runs in a row (the last: ${reason.slice(0, 300)})`, at: new Date().toISOString() };
    await deps.schedules.update(conversation, schedule.id, { state: { ...state, lastTickAt: latest(state.lastTickAt, at), failures, failurePosted: true }, paused });
    const t = await tickThread(port, { ...request, text: `⏸ ${schedule.id}: team program \`${schedule.program}\` paused` }, undefined);
    if (t) await postPaused(t, schedule, reason, deps.resumeText(schedule), deps.warn);
    return 'paused';
  }
  if (state.failurePosted) {
    await deps.schedules.update(conversation, schedule.id, { state: { ...state, lastTickAt: latest(state.lastTickAt, at), failures } });
    return 'failed-quiet';
  }
  const t = await tickThread(port, request, undefined);
  const linked = t && run ? await linkRun(deps, t, run) : run;
  await deps.schedules.update(conversation, schedule.id, { state: { ...state, lastTickAt: latest(state.lastTickAt, at), failures, failurePosted: t !== undefined, posted: (state.posted ?? 0) + (t ? 1 : 0) } });
  if (t) await postFailure(t, schedule, tickAt, reason, linked, deps.warn);
  return t ? 'failed-posted' : 'not-posted';
}

/** Stores where the run lives in chat and links its thread (a reply there improves it). */
async function linkRun<M, R>(deps: TickDeps, t: TickThread<M, R>, run: Run): Promise<Run> {
  const chat = { thread: { channel: t.ref.channel, ...(t.ref.thread !== undefined ? { thread: t.ref.thread } : {}) }, kind: 'run' as const };
  const linked: Run = { ...run, chat };
  await deps.store.saveRun(linked).catch((err: unknown) => deps.warn('recording where a scheduled run lives', err));
  if (t.thread.key !== undefined) await deps.store.linkThread(run.conversationId, t.thread.key, run.id).catch((err: unknown) => deps.warn('linking a scheduled run', err));
  return linked;
}

/** A run held back by a gate is deleted (a silent tick leaves nothing in the history). */
async function dropRun(deps: TickDeps, conversation: string, runId: string): Promise<void> {
  await deps.store.deleteRun(conversation, runId).catch((err: unknown) => deps.warn('deleting a run held back by a gate', err));
}

/** The SHA-256 of each artifact's content (for the answer's fingerprint); an unreadable one counts by its size. */
async function artifactHashes(artifacts: ReadonlyArray<{ name: string; path: string; bytes: number }>): Promise<Array<{ name: string; sha256: string }>> {
  const { readFile } = await import('node:fs/promises');
  return Promise.all(
    artifacts.map(async (a) => ({
      name: a.name,
      sha256: await readFile(a.path).then(
        (b) => createHash('sha256').update(b).digest('hex'),
        () => `unreadable:${a.bytes}`,
      ),
    })),
  );
}
