/**
 * The life of a run in a chat thread, once for every platform: a new run's id is made before the
 * agent is called and its thread is linked to it at once (a reply sent in the thread's first moment
 * finds the run), the request's files are downloaded, the agent is called with the thread renderer
 * as listener, and the turn always ends with a last message in the thread, then the platform's
 * outside view (a channel message, a header) updated. A platform provides the thread (port.ts).
 */
import type { Agent } from '../agent/loop/index.js';
import { InputError } from '../config/errors.js';
import { newRunId } from '../agent/run/index.js';
import type { HistoryStore, Run, RunChat } from '../history/types.js';
import type { InputFile } from '../history/execution.js';
import { callAgent } from './agent-call.js';
import { offerAfter, runBefore, type RunBefore } from '../memory/offer.js';
import { withInputFilesNote } from './input-note.js';
import type { ChatThread } from './port.js';
import type { ThreadRef } from './thread-ref.js';
import type { JobHooks } from './job-queue.js';
import { ThreadRenderer } from './thread-renderer.js';

/** What a turn asks of the agent. */
export type TurnRequest =
  /** A new run (`generate`: code without running it). */
  | { kind: 'run' | 'generate'; requirement: string; chat?: RunChat }
  /** An improvement with feedback (a reply in the thread, the Improve button); none: from the latest failure. */
  | { kind: 'improve'; runId: string; feedback: string | undefined }
  /** The latest code run again (the Re-run button). */
  | { kind: 'rerun'; runId: string }
  /** A team program run in a new run, no LLM call (`args`: its `param=value` words). */
  | { kind: 'program'; name: string; args: string; chat?: RunChat };

/** What the lifecycle uses of the core. */
export interface RunJobDeps {
  agent: Agent;
  store: HistoryStore;
  /** Told of an error that is not the user's (a bug, the store); the thread says it anyway. */
  onInternalError(err: unknown): void;
  /** Told of a post or a store write that failed (the run goes on). */
  onWarning(what: string, err: unknown): void;
  /** How long a turn on a run waits for the run to be stored, in ms. Default {@link RUN_APPEARS_WITHIN_MS}. */
  runAppearsWithinMs?: number;
}

/**
 * How long a turn on a run waits for the run to be stored, in ms: a reply to a run whose thread
 * was linked a moment ago (its run id made, the agent about to store it) waits for it in queue
 * mode, where it may start beside the run's own job.
 */
export const RUN_APPEARS_WITHIN_MS = 30_000;

/** How often the store is asked meanwhile, in ms. */
const RUN_POLL_MS = 200;

/** One turn in a thread: the conversation, who asked, and what. */
export interface TurnSpec {
  conversation: string;
  userId: string;
  request: TurnRequest;
  /** The queue's hooks of the job this turn runs in. */
  job: JobHooks;
}

/**
 * Runs one turn in `thread` (see the module comment). Never throws.
 * @returns the run as the agent returned it, or undefined when the call threw
 */
export async function runInThread<M, R>(deps: RunJobDeps, thread: ChatThread<M, R>, spec: TurnSpec): Promise<Run | undefined> {
  const { request, conversation } = spec;
  const isNew = request.kind === 'run' || request.kind === 'generate' || request.kind === 'program';
  const runId = 'runId' in request ? request.runId : newRunId();
  const ref: ThreadRef = { ...thread.ref, runId };
  if (isNew && thread.key !== undefined) {
    // linked before the agent is called: a reply in the thread's first moment finds its run
    await deps.store.linkThread(conversation, thread.key, runId).catch((err: unknown) => deps.onWarning('linking the thread to its run', err));
  }
  await spec.job.setThread(ref).catch((err: unknown) => deps.onWarning("recording the job's thread", err));
  const known = isNew ? undefined : await waitForRun(deps.store, conversation, runId, deps.runAppearsWithinMs ?? RUN_APPEARS_WITHIN_MS).catch(() => undefined);
  const files = await thread.inputs();
  const before = known ? runBefore(known) : undefined; // the agent updates the run in place
  const renderer = new ThreadRenderer(thread.output, thread.markup, {
    firstAttempt: (known?.attempts.length ?? 0) + 1,
    maxRetries: deps.agent.maxRetries,
    workspace: (run) => deps.agent.workspace(run),
    onError: (err, what) => deps.onWarning(`showing ${what}`, err),
  });
  renderer.progress({ step: 'start', turn: request.kind, userId: spec.userId });
  const options = { requestedBy: spec.userId, onEvent: renderer.listener, ...(files.length ? { inputFiles: files } : {}) };
  const outcome = await callAgent({
    store: deps.store,
    conversation,
    call: async () => {
      switch (request.kind) {
        case 'run':
        case 'generate': {
          const asked = withInputFilesNote(request.requirement, files);
          const call = { ...options, runId, ...(request.chat ? { chat: request.chat } : {}) };
          if (request.kind === 'generate') return deps.agent.generate(conversation, asked, call);
          // a request in other words that a team program answers runs it at once, named in the thread
          const found = await deps.agent.findProgram(conversation, request.requirement, files.map((f) => f.name));
          return found ? deps.agent.runProgram(conversation, found, call, request.requirement) : deps.agent.run(conversation, asked, call);
        }
        case 'program': {
          // read again: the program may have a new version since the request was admitted
          const prepared = await deps.agent.programs.prepare(conversation, request.name, request.args);
          return deps.agent.runProgram(conversation, prepared, { ...options, runId, ...(request.chat ? { chat: request.chat } : {}) });
        }
        case 'rerun':
          return deps.agent.execute(stored(known, runId), options);
        case 'improve':
          return deps.agent.improve(stored(known, runId), feedbackWith(request.feedback, files), options);
        default:
          return unknownTurn(request);
      }
    },
    runId: () => runId,
    settle: () => renderer.settled(),
    onInternalError: (err) => deps.onInternalError(err),
  });
  await spec.job.ending(); // before the last message: whoever reads it may start another job
  await renderer.finish(outcome.run, outcome.failure, outcome.note);
  if (request.kind === 'improve') await offerToRemember(deps, thread, before, outcome.run, request.feedback);
  // the outside view last: once it shows the outcome, everything in the thread is there
  const ended = outcome.run ?? (known ? await deps.store.getRun(conversation, runId).catch(() => known) : undefined);
  await thread.ended(ended, outcome.failure);
  return outcome.run;
}

/** After a reply that corrected the run's reading: the offer to remember it for the channel (src/memory/offer.ts). Never throws. */
async function offerToRemember<M, R>(deps: RunJobDeps, thread: ChatThread<M, R>, before: RunBefore | undefined, after: Run | undefined, feedback: string | undefined): Promise<void> {
  const memory = deps.agent.memory;
  if (!memory?.available) return;
  const offer = offerAfter(before, after, feedback, memory.limits.maxDefinitionChars);
  if (!offer) return;
  const msg = thread.markup.memoryOffer?.(offer) ?? thread.markup.notice({ title: "📌 To have this channel's next runs read requests this way, remember it:", lines: [offer.sentence] });
  await thread.output.post(msg).catch((err: unknown) => deps.onWarning('offering to remember the correction', err));
}

/** The run a turn works on. @throws {InputError} when it is not in the history (deleted, or never stored). */
function stored(run: Run | undefined, runId: string): Run {
  if (!run) throw new InputError(`run ${runId} is not in this channel's history`);
  return run;
}

/** The feedback with the note naming the files given with it (the LLM is told the names the program will find). */
function feedbackWith(feedback: string | undefined, files: InputFile[]): string | undefined {
  return withInputFilesNote(feedback?.trim() || (files.length ? 'Use the attached input files.' : ''), files) || undefined;
}

/**
 * The run, once stored: a run whose thread was just linked is stored by the agent a moment later.
 * @returns undefined when it did not appear within `withinMs`
 * @throws the store's errors
 */
async function waitForRun(store: HistoryStore, conversation: string, runId: string, withinMs: number): Promise<Run | undefined> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const run = await store.getRun(conversation, runId);
    if (run || Date.now() >= deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, RUN_POLL_MS));
  }
}

/** Compile-time proof that every kind of turn has its call. */
function unknownTurn(request: never): never {
  throw new Error(`turn of an unknown kind: ${JSON.stringify(request)}`);
}
