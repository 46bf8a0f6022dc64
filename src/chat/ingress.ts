/**
 * The pipeline's single entry (src/chat/incoming-port.ts: {@link ChatIngress}), once for every
 * platform and both modes. A request that asks for a turn of the agent (`run`, `generate`,
 * `reply`, `improve`, `rerun`) goes through admission (admission.ts: access → the request's checks
 * → dedupe → budgets → limits) and becomes a job whose payload is the request itself; a query
 * (`history`, `show`, `remember`, `memory`) is answered at once from the history, after the same access and dedupe.
 * What the requester must know (a refusal, the queue position, the answer) is said through its
 * {@link Requester}, in the platform's markup.
 */
import { randomUUID } from 'node:crypto';
import type { HistoryStore, Run } from '../history/types.js';
import { admit, type AdmissionResult, type Admitter } from './admission.js';
import { jobIdOf } from './job-queue.js';
import type { LimitKey } from './job-limits.js';
import { linkedRunId } from './thread-link.js';
import type { ChannelMemory } from '../memory/channel-memory.js';
import { parseMemoryCommand, runMemoryCommand } from '../memory/commands.js';
import type { ScheduleCommandsPort } from './schedule-commands-port.js';
import { correctionSentence, lastFeedback } from '../memory/offer.js';
import { removeFileText, type WorkspaceAccess } from './workspace-view.js';
import type { RunDeletion } from './run-deletion.js';
import { awaitsSettlement, NEW_PROGRAM_FEEDBACK, parseChoice, ranMatchedProgram } from './settle-view.js';
import type { TeamPrograms } from '../programs/team-programs.js';
import { saveReplyName } from './program-commands.js';
import { answerRefusal, programRequests } from './program-ingress.js';
import {
  unknownKind,
  type ChatIngress,
  type CommandNames,
  type IncomingPort,
  type IncomingRequest,
  type ReceiveOutcome,
  type Requester,
} from './incoming-port.js';

/** What the entry uses. */
export interface IngressDeps {
  store: HistoryStore;
  /** The runs' workspaces (`/show`). */
  workspaces: WorkspaceAccess;
  /** Dedupe, budgets, limits and the queue (admission.ts). */
  admitter: Admitter;
  /** Most runs `/history` lists when asked for more. */
  maxHistory?: number;
  /** The channels' memory (`/remember`, `/memory`); without it those commands say the store keeps none. */
  memory?: ChannelMemory;
  /** The channels' schedules (`/schedule`, `/schedules`, `/unschedule`); without them those commands say the store keeps none. */
  schedules?: ScheduleCommandsPort;
  /** The channels' team programs (`/programs`, `/program …`; src/programs); without it those commands say the store keeps none. */
  programs?: TeamPrograms;
  /** Deletes a run (`/show <id> remove`, run-deletion.ts); without it that command says the store cannot. */
  deleteRun?: RunDeletion;
}

/** A requirement given only as files. */
export const FILES_ONLY_REQUIREMENT = 'Use the attached input files.';

/** The most runs `/history` lists. */
export const HISTORY_MAX = 25;

/** The limit key of a request's job: its conversation (the channel's cap) and its user (one job each). */
export function limitKeyOf(jobId: string, request: Pick<IncomingRequest, 'platform' | 'who' | 'where'>): LimitKey {
  return { jobId, channel: request.where.conversation, user: request.who.key ?? `${request.platform}:user:${request.who.userId}` };
}

/** Builds the entry of one platform (see the module comment). */
export function createIngress<A>(deps: IngressDeps, port: IncomingPort<A>): ChatIngress<A> {
  const say = (requester: Requester<A>, text: string) => requester.answer(port.markup.text(text));

  /** Admits a job request; tells the requester what came of it. */
  async function enqueue(request: IncomingRequest, requester: Requester<A>, check?: () => Promise<string | undefined>): Promise<AdmissionResult> {
    const jobId = jobIdOf(request.platform, request.kind, request.deliveryId ?? randomUUID());
    const result = await admit(deps.admitter, {
      refusal: port.access(request),
      request,
      ...(check ? { check } : {}),
      deliveryId: request.deliveryId,
      jobId,
      job: { platform: request.platform, kind: request.kind, limit: limitKeyOf(jobId, request), payload: request },
      ...(requester.accepted ? { beforeAdd: (ahead: number) => requester.accepted!(ahead) } : {}),
    });
    switch (result.outcome) {
      case 'duplicate':
        await requester.repeated?.(result.seenIn);
        break;
      case 'queued':
        if (result.text !== undefined) await say(requester, result.text);
        break;
      case 'refused':
      case 'busy':
      case 'unavailable':
        await say(requester, result.text);
        break;
      default:
        unknownOutcome(result);
    }
    return result;
  }

  /** `run`, `generate`: a requirement (or files) is needed. */
  async function startRun(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome> {
    const text = request.text.trim() || (request.files.length ? FILES_ONLY_REQUIREMENT : '');
    if (!text && port.access(request) === undefined) {
      await say(requester, usageText(request.kind === 'generate' ? 'generate' : 'run', port.names));
      return { outcome: 'answered' };
    }
    return enqueue({ ...request, text }, requester);
  }

  /** `reply`: only in a thread linked to a run (looked up before anything else: other threads are not ours). */
  async function reply(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome> {
    const { conversation, thread, threadStart } = request.where;
    let runId = request.runId;
    if (runId === undefined && thread !== undefined) {
      const origin = { madeByApp: threadStart?.byApp ?? false, madeAt: threadStart?.at };
      runId = await linkedRunId(deps.store, conversation, thread, origin).catch(() => undefined);
    }
    if (runId === undefined) return { outcome: 'ignored' };
    const saveAs = saveReplyName(request.text);
    if (saveAs !== undefined) return programs.programSave({ ...request, kind: 'program_save', text: saveAs, runId }, requester);
    return enqueue({ ...request, runId }, requester);
  }

  /** `improve`, `rerun`: the run must be in this conversation's history. */
  async function onRun(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome> {
    const { conversation, thread } = request.where;
    const runId = request.runId ?? (thread !== undefined ? await deps.store.threadRunId(conversation, thread).catch(() => undefined) : undefined);
    if (runId === undefined) return { outcome: 'ignored' };
    if (request.kind === 'improve' && !request.text.trim() && port.access(request) === undefined) {
      await say(requester, 'The feedback was empty: say what should change.');
      return { outcome: 'answered' };
    }
    const check = async () => ((await deps.store.getRun(conversation, runId).catch(() => undefined)) ? undefined : `Run ${runId} was not found in this channel's history.`);
    return enqueue({ ...request, runId }, requester, check);
  }

  /**
   * `settle`: a choice on a run of this conversation (a candidate, neither, 👍, 👎), checked here
   * (after access) so that a stale or foreign click is refused before it is queued.
   */
  async function settle(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome> {
    const { conversation, thread } = request.where;
    const runId = request.runId ?? (thread !== undefined ? await deps.store.threadRunId(conversation, thread).catch(() => undefined) : undefined);
    if (runId === undefined) return { outcome: 'ignored' };
    const check = async () => {
      const action = parseChoice(request.text.trim());
      if (!action) return `"${request.text.trim().slice(0, 40)}" is not a choice this app offers.`;
      const run = await deps.store.getRun(conversation, runId).catch(() => undefined);
      if (!run) return `Run ${runId} was not found in this channel's history.`;
      if (action.kind === 'settle' && !awaitsSettlement(run)) return 'This run has no open choice between candidate answers (it was settled, or improved since).';
      if (action.kind === 'save') return answerRefusal(run);
      if (action.kind === 'new_program' && !ranMatchedProgram(run)) return 'This run no longer shows a team program found for its request (it was improved since).';
      return undefined;
    };
    // "Write a new program": the usual path, as an improve turn of the run (its requirement is the person's request)
    if (parseChoice(request.text.trim())?.kind === 'new_program') return enqueue({ ...request, kind: 'improve', text: NEW_PROGRAM_FEEDBACK, runId }, requester, check);
    return enqueue({ ...request, runId }, requester, check);
  }

  /** `history`, `show`: access, dedupe, then the answer read from the history. */
  async function query(request: IncomingRequest, requester: Requester<A>, answer: () => Promise<A>): Promise<ReceiveOutcome> {
    const refusal = port.access(request);
    if (refusal !== undefined) {
      await say(requester, refusal);
      return { outcome: 'answered' };
    }
    const seenIn = await deps.admitter.deliveries.seen(request.deliveryId);
    if (seenIn) {
      await requester.repeated?.(seenIn);
      return { outcome: 'duplicate', seenIn };
    }
    await requester.working?.();
    const msg = await answer().catch((err: unknown) => port.markup.text(`Could not read the history: ${(err as Error)?.message ?? String(err)}`));
    await requester.answer(msg);
    return { outcome: 'answered' };
  }

  const noRuns = () => port.markup.text(`No runs in this channel yet. Start one with \`${port.names.run} <what the program should do>\`.`);

  async function history(request: IncomingRequest): Promise<A> {
    const asked = Number.parseInt(request.text.trim(), 10);
    const limit = Number.isFinite(asked) && asked > 0 ? Math.min(asked, deps.maxHistory ?? HISTORY_MAX) : port.historyLimit;
    const runs = await deps.store.listRuns(request.where.conversation, limit);
    return runs.length ? port.markup.history({ runs }, port.names) : noRuns();
  }

  async function show(request: IncomingRequest): Promise<A> {
    const { which, remove } = parseShow(request.text);
    const conversation = request.where.conversation;
    // `remove` alone deletes the whole run: only a run named by its id or thread, never "the newest"
    if (remove === '' && !which) return port.markup.text(`Say which run to delete: \`${port.names.show} <id> remove\` deletes that run (\`${port.names.show} <id> remove <file>\` removes one file of it).`);
    const run = await findRun(deps.store, conversation, which, port.threadNamed);
    if (!run) return which ? port.markup.text(`No run ${which} in this channel's history; \`${port.names.history}\` lists its runs.`) : noRuns();
    if (remove === '') return port.markup.text(deps.deleteRun ? await deps.deleteRun(run, request.who, request.platform) : 'This history store cannot delete runs.');
    if (remove !== undefined) return port.markup.text(await removeFileText(deps.workspaces, run, remove));
    return port.markup.show({ run, workspace: await deps.workspaces.workspace(run) }, port.names);
  }

  /** `/remember <text>`, `/memory [forget <id>]`: the channel's memory, as whoever asked (anyone who may use the channel). */
  async function memory(request: IncomingRequest, kind: 'remember' | 'memory'): Promise<A> {
    const spelled = { remember: port.names.remember, memory: port.names.memory };
    if (!deps.memory?.available) return port.markup.text('This history store keeps no channel memory.');
    let text = request.text;
    if (kind === 'remember' && !text.trim() && request.runId !== undefined) {
      // the [Remember] button of an offer after a correction: the run's reply is the sentence
      const run = await deps.store.getRun(request.where.conversation, request.runId);
      const sentence = run ? correctionSentence(lastFeedback(run), deps.memory.limits.maxDefinitionChars) : undefined;
      if (!sentence) return port.markup.text("There is nothing of that run to remember in this channel.");
      text = sentence;
    }
    const parsed = parseMemoryCommand(kind, text, spelled);
    const reply = 'kind' in parsed ? await runMemoryCommand(deps.memory, request.where.conversation, request.who.userId, parsed, 'this channel', spelled) : parsed;
    return port.markup.memory(reply);
  }

  /** `/schedule …`, `/schedules [resume <id>]`, `/unschedule <id>`: as whoever asked (anyone who may use the channel). */
  async function schedules(request: IncomingRequest, kind: 'schedule' | 'schedules' | 'unschedule'): Promise<A> {
    if (!deps.schedules) return port.markup.text('This history store keeps no schedules.');
    const place = { conversationId: request.where.conversation, platform: request.platform, channel: request.where.channel };
    const names = { schedule: port.names.schedule, schedules: port.names.schedules, unschedule: port.names.unschedule };
    const who = { userId: request.who.userId, ...(request.who.userName ? { userName: request.who.userName } : {}), ...(request.who.key ? { key: request.who.key } : {}) };
    const reply =
      kind === 'schedule'
        ? await deps.schedules.schedule(place, who, request.text, names)
        : kind === 'schedules'
          ? await deps.schedules.schedules(place, request.text, names)
          : await deps.schedules.unschedule(place, request.text, names);
    return port.markup.memory(reply);
  }
  const programs = programRequests<A>({ store: deps.store, programs: deps.programs, port, enqueue, query });

  return {
    async receive(request, requester) {
      try {
        switch (request.kind) {
          case 'run':
          case 'generate':
            return await startRun(request, requester);
          case 'reply':
            return await reply(request, requester);
          case 'improve':
          case 'rerun':
            return await onRun(request, requester);
          case 'settle':
            return await settle(request, requester);
          case 'history':
            return await query(request, requester, () => history(request));
          case 'show':
            return await query(request, requester, () => show(request));
          case 'remember':
          case 'memory':
            return await query(request, requester, () => memory(request, request.kind as 'remember' | 'memory'));
          case 'schedule':
          case 'schedules':
          case 'unschedule':
            return await query(request, requester, () => schedules(request, request.kind as 'schedule' | 'schedules' | 'unschedule'));
          case 'tick':
            // made by the scheduler (src/schedules/admit-tick.ts), never by a platform
            return { outcome: 'ignored' };
          case 'programs':
            return await programs.program({ ...request, text: '' }, requester);
          case 'program':
            return await programs.program(request, requester);
          case 'program_run':
            return await programs.programRun(request, requester);
          case 'program_save':
            return await programs.programSave(request, requester);
          default:
            return unknownKind(request.kind);
        }
      } catch (err) {
        // the store failed outside admission (a thread lookup): the requester is told, nothing is queued
        await say(requester, `Could not take your request (${(err as Error)?.message ?? String(err)}); try again in a minute.`).catch(() => undefined);
        return { outcome: 'unavailable', text: String(err) };
      }
    },
  };
}

/** How to start a run, e.g. ``Usage: `/run <what the program should do>`…`` (said for an empty request). */
export function usageText(kind: 'run' | 'generate', names: CommandNames): string {
  const name = names[kind];
  return kind === 'run'
    ? `Usage: \`${name} <what the program should do>\`, e.g. \`${name} plot a sine wave\` (files given with it become its input files). Reply in its thread to improve the result.`
    : `Usage: \`${name} <what the program should do>\`: writes the code without running it.`;
}

/** `[run] [remove [<name>]]` → which run (empty: the newest) and the file to remove, if any (`''`: the whole run). */
export function parseShow(text: string): { which: string; remove?: string } {
  const m = /^(?:(\S+)\s+)?remove(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return { which: text.trim() };
  return { which: m[1] ?? '', remove: (m[2] ?? '').trim() };
}

/** The run `/show` names: the newest, a thread's (`threadNamed`), or by id. @throws the store's errors */
async function findRun(store: HistoryStore, conversation: string, which: string, threadNamed: ((arg: string) => string | undefined) | undefined): Promise<Run | undefined> {
  if (!which) return (await store.listRuns(conversation, 1))[0];
  const thread = threadNamed?.(which);
  if (thread !== undefined) return store.findRunByThread(conversation, thread);
  if (/^[a-z0-9-]{1,40}$/i.test(which)) return store.getRun(conversation, which);
  return undefined;
}

/** Compile-time proof that every admission outcome has a case. */
function unknownOutcome(result: never): never {
  throw new Error(`unknown admission outcome: ${JSON.stringify(result)}`);
}
