/**
 * The jobs of a platform, once for every platform: a queued job's payload is the
 * {@link IncomingRequest} the ingress admitted (src/chat/ingress.ts); its kind picks the turn — a
 * new run in a thread the platform opens, or a turn on an existing run in its thread — and the one
 * lifecycle (run-job.ts) renders it through the platform's {@link OutgoingPort}. The same code
 * runs in the app's own process and in a queue worker.
 *
 * Queue mode's dead worker, said once for every platform: a job whose worker stopped before it
 * finished is told in its thread (or to its requester when it had none yet) and its run is marked
 * failed (`interrupted`); when that run went on after all (its worker was only paused), the notice
 * is withdrawn and the outside view shows the run's real status (`falseAlarm`).
 */
import type { ChatJobData, InterruptNotice, JobHooks, PlatformJobs } from './job-queue.js';
import type { OutgoingPort } from './port.js';
import { runInThread, type RunJobDeps, type TurnRequest } from './run-job.js';
import { FALSE_ALARM, markInterrupted, WORKER_STOPPED, WORKER_STOPPED_NOTICE } from './worker-stopped.js';
import { unknownKind, type IncomingRequest } from './incoming-port.js';
import { settleInThread } from './settle-job.js';
import { saveProgramInThread } from './program-save-job.js';
import { splitRun } from './program-commands.js';

/**
 * The ticks of schedules, as jobs (src/schedules: their program run, gates and post). A
 * process without them refuses a tick job with a clear error.
 */
export interface TickJobs {
  /** Runs one tick with the platform's outgoing port. Never throws for what the program does. */
  run<M, R>(port: OutgoingPort<M, R>, request: IncomingRequest, job: JobHooks): Promise<void>;
  /** The tick's worker stopped before it ended: tries it again as a new job (the tick knows what it posted). Never throws. */
  retry(request: IncomingRequest): Promise<void>;
}

/** A job of a kind that is answered at once, never queued (a `history` or `show` request). */
export class NotAJobError extends Error {
  override name = 'NotAJobError';
}

/** What the notice of a stopped worker says first (struck through when it was a false alarm). */
const FAILED = '❌ Failed';

/**
 * The job runner of one platform (of the app's in-memory queue, or of a queue worker).
 * @param deps the agent, the store and where warnings go (run-job.ts)
 * @param ticks the ticks of schedules (none: a tick job fails saying so)
 */
export function requestJobs<M, R>(deps: RunJobDeps, port: OutgoingPort<M, R>, ticks?: TickJobs): PlatformJobs & { close(): Promise<void> } {
  /** A turn on the run a request names (its id, else its thread's). */
  async function onRun(request: IncomingRequest, turn: (runId: string) => TurnRequest, job: JobHooks): Promise<void> {
    const { conversation, thread: threadKey } = request.where;
    const runId = request.runId ?? (threadKey !== undefined ? await deps.store.threadRunId(conversation, threadKey).catch(() => undefined) : undefined);
    if (runId === undefined) return;
    const run = await deps.store.getRun(conversation, runId).catch(() => undefined);
    const thread = await port.runThread({ ...request, runId }, run);
    await runInThread(deps, thread, { conversation, userId: request.who.userId, request: turn(runId), job });
  }

  async function run(data: ChatJobData, job: JobHooks): Promise<void> {
    const request = data.payload as IncomingRequest;
    const { conversation } = request.where;
    switch (request.kind) {
      case 'run':
      case 'generate': {
        const opened = await port.openThread(request);
        if (!opened) return;
        const turn = { kind: request.kind, requirement: request.text, chat: opened.chat };
        await runInThread(deps, opened.thread, { conversation, userId: request.who.userId, request: turn, job });
        return;
      }
      case 'reply':
      case 'improve':
        return onRun(request, (runId) => ({ kind: 'improve', runId, feedback: request.text }), job);
      case 'rerun':
        return onRun(request, (runId) => ({ kind: 'rerun', runId }), job);
      case 'settle':
        return settleInThread(deps, port, request);
      case 'tick':
        if (!ticks) throw new Error(`this process runs no schedules (its store keeps none): tick ${request.deliveryId ?? ''}`);
        return ticks.run(port, request, job);
      case 'program_run': {
        const opened = await port.openThread(request);
        if (!opened) return;
        const turn = { kind: 'program' as const, ...splitRun(request.text), chat: opened.chat };
        await runInThread(deps, opened.thread, { conversation, userId: request.who.userId, request: turn, job });
        return;
      }
      case 'program_save':
        return saveProgramInThread(deps, port, request);
      case 'history':
      case 'show':
      case 'remember':
      case 'memory':
      case 'schedule':
      case 'schedules':
      case 'unschedule':
      case 'programs':
      case 'program':
        throw new NotAJobError(`a ${request.kind} request is answered at once, never queued (${request.platform})`);
      default:
        return unknownKind(request.kind);
    }
  }

  return {
    run,

    async interrupted(data: ChatJobData): Promise<InterruptNotice | undefined> {
      const request = data.payload as IncomingRequest;
      if (request.kind === 'tick') {
        // a tick is tried again, not said to be interrupted: its run knows what was posted
        await ticks?.retry(request);
        return undefined;
      }
      const ref = data.thread;
      const stored = ref?.runId !== undefined ? await deps.store.getRun(request.where.conversation, ref.runId) : undefined;
      const { run: ended, ended: hadEnded } = await markInterrupted(deps.store, stored);
      if (hadEnded) return undefined;
      if (!ref) {
        // it stopped before its thread was opened: only the requester can be told
        await port.tell(request, `Your request was ${WORKER_STOPPED_NOTICE}`);
        return { messages: [] };
      }
      const thread = await port.reopenThread(request, ref);
      const posted = await thread.output.post(thread.markup.failure(WORKER_STOPPED_NOTICE));
      await thread.ended(ended, WORKER_STOPPED);
      const id = posted !== undefined ? port.messageId(posted) : undefined;
      return { messages: id ? [id] : [] };
    },

    async falseAlarm(data: ChatJobData, notice: InterruptNotice | undefined): Promise<void> {
      const request = data.payload as IncomingRequest;
      const ref = data.thread;
      if (!ref) return;
      const thread = await port.reopenThread(request, ref);
      for (const id of notice?.messages ?? []) await port.editMessage(id, thread.markup.withdrawn(FAILED, FALSE_ALARM));
      const run = ref.runId !== undefined ? await deps.store.getRun(request.where.conversation, ref.runId).catch(() => undefined) : undefined;
      if (run && run.status !== 'running') await thread.ended(run, undefined);
    },

    async close() {
      await port.close?.();
    },
  };
}
