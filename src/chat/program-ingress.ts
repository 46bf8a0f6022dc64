/**
 * The team program requests at the entry (ingress.ts), once for every platform: `/programs` and
 * `/program …` as typed (a list, a show or a remove answered at once from the store; a run or a
 * save turned into a job), `program_run` (also what a schedule enqueues) and `program_save`, each
 * checked before it is queued so that a refusal costs nothing (src/chat/program-commands.ts reads
 * the commands and words the answers).
 */
import type { HistoryStore, Run } from '../history/types.js';
import { PROGRAM_NAME } from '../history/programs.js';
import { InputError } from '../config/errors.js';
import type { TeamPrograms } from '../programs/team-programs.js';
import { answerCode } from '../programs/team-programs.js';
import type { AdmissionResult } from './admission.js';
import type { IncomingPort, IncomingRequest, ReceiveOutcome, Requester } from './incoming-port.js';
import { listAnswer, parseProgramCommand, programUsage, removeAnswer, runRefusal, showAnswer, splitRun } from './program-commands.js';

/** What the program requests use of the entry. */
export interface ProgramRequestDeps<A> {
  store: HistoryStore;
  programs: TeamPrograms | undefined;
  port: IncomingPort<A>;
  /** Admits a job request (access, the check, dedupe, budgets, limits) and tells the requester. */
  enqueue(request: IncomingRequest, requester: Requester<A>, check?: () => Promise<string | undefined>): Promise<AdmissionResult>;
  /** Answers a query at once (after access and dedupe). */
  query(request: IncomingRequest, requester: Requester<A>, answer: () => Promise<A>): Promise<ReceiveOutcome>;
}

/** The handlers of the program requests (see the module comment). */
export function programRequests<A>(deps: ProgramRequestDeps<A>) {
  const { port, enqueue, query } = deps;
  const noPrograms = () => port.markup.text('This history store keeps no team programs.');

  /** `/program …` as typed: a list, show or remove answered at once; a run or a save becomes a job. */
  async function program(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome> {
    const command = parseProgramCommand(request.text);
    const programs = deps.programs;
    const conversation = request.where.conversation;
    switch (command.kind) {
      case 'list':
        return query(request, requester, async () => (programs?.available ? port.markup.memory(await listAnswer(programs, conversation, port.names)) : noPrograms()));
      case 'usage':
        return query(request, requester, async () => port.markup.text(programUsage(port.names)));
      case 'show':
        return query(request, requester, async () => (programs?.available ? port.markup.memory(await showAnswer(programs, conversation, command.name, port.names)) : noPrograms()));
      case 'remove': {
        const by = { id: request.who.userId, ...(request.who.userName ? { name: request.who.userName } : {}) };
        return query(request, requester, async () => (programs?.available ? port.markup.memory(await removeAnswer(programs, conversation, command.name, by, port.names)) : noPrograms()));
      }
      case 'save':
        return programSave({ ...request, kind: 'program_save', text: command.name }, requester);
      case 'run':
        return programRun({ ...request, kind: 'program_run', text: `${command.name} ${command.args}`.trim() }, requester);
      default:
        return unknownCommand(command);
    }
  }

  /** `program_run`: a team program in a new thread; the program and its values are checked before it is queued. */
  async function programRun(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome> {
    const programs = deps.programs;
    const { name, args } = splitRun(request.text);
    const check = async () => (programs?.available ? runRefusal(programs, request.where.conversation, name, args) : 'This history store keeps no team programs.');
    return enqueue(request, requester, check);
  }

  /** `program_save`: a finished run of this channel (its id, else its thread's) saved under a name. */
  async function programSave(request: IncomingRequest, requester: Requester<A>): Promise<ReceiveOutcome> {
    const { conversation, thread } = request.where;
    const runId = request.runId ?? (thread !== undefined ? await deps.store.threadRunId(conversation, thread).catch(() => undefined) : undefined);
    const check = async () => {
      if (!deps.programs?.available) return 'This history store keeps no team programs.';
      const name = request.text.trim().toLowerCase();
      if (!PROGRAM_NAME.test(name)) return `"${request.text.trim().slice(0, 60)}" is not a program name: use lower-case letters, digits and dashes (at most 48), e.g. \`save program revenue-by-region\`.`;
      if (runId === undefined) return `Save a run from its thread: reply there with \`save program <name>\`, or click its "Save as team program" button.`;
      const run = await deps.store.getRun(conversation, runId).catch(() => undefined);
      return run ? answerRefusal(run) : `Run ${runId} was not found in this channel's history.`;
    };
    return enqueue({ ...request, ...(runId !== undefined ? { runId } : {}) }, requester, check);
  }

  return { program, programRun, programSave };
}

/** Why a run cannot be saved as a team program (no answer yet), or undefined. */
export function answerRefusal(run: Run): string | undefined {
  try {
    answerCode(run);
    return undefined;
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
}

function unknownCommand(command: never): never {
  throw new Error(`unknown program command: ${JSON.stringify(command)}`);
}

