/**
 * A channel's team programs, what every surface (chat, terminal, schedules) does with them: save a
 * finished run as a new program or a new version (its facts read once in the sandbox), list, show,
 * remove, and prepare a run (the program found by name, the parameter values checked and applied
 * to its code). Running it is the agent's (`Agent.runProgram`: a new run, no LLM call). Refusals
 * are {@link InputError}s whose message says what to do; they cost nothing.
 */
import { InputError } from '../config/errors.js';
import type { HistoryStore, Run } from '../history/types.js';
import type { Person } from '../history/candidates.js';
import { DEFAULT_PROGRAM_LIMITS, type ProgramBackend, type ProgramLimits, type ProgramVersion, type TeamProgram } from '../history/programs.js';
import type { Executor } from '../sandbox/types.js';
import { readFacts } from './facts.js';
import { inlineHelpers } from '../memory/helpers.js';
import { withoutFilesNote } from '../text/files-note.js';
import { programInputs } from './inputs.js';
import { applyParameters, checkValues, parseAssignments, splitWords, type ParameterValue } from './parameters.js';

/** A program ready to run: the version, the values given (by parameter name) and the code with them applied. */
export interface PreparedProgram {
  program: TeamProgram;
  version: ProgramVersion;
  /** The values given, checked (the other parameters keep their defaults). */
  values: Record<string, ParameterValue>;
  /** The version's code with the values in place of their defaults. */
  code: string;
}

/** What the programs need. */
export interface TeamProgramsDeps {
  store: HistoryStore;
  /** Reads a program's facts when it is saved (its parameters, the tools it names). Without it (a chat ingress) saving is refused; the rest needs only the store. */
  executor?: Executor;
  limits?: ProgramLimits;
}

/** See the module comment. */
export class TeamPrograms {
  readonly limits: ProgramLimits;

  constructor(private readonly deps: TeamProgramsDeps) {
    this.limits = deps.limits ?? DEFAULT_PROGRAM_LIMITS;
  }

  /** Whether the store keeps team programs. */
  get available(): boolean {
    return this.deps.store.programs !== undefined;
  }

  private get backend(): ProgramBackend {
    const programs = this.deps.store.programs;
    if (!programs) throw new InputError('This history store keeps no team programs.');
    return programs;
  }

  /**
   * Saves a finished run's answer as a team program: v1 of a new name, or the next version of a
   * live program of that name. Its parameters and tools are read in the sandbox, its inputs from
   * the run's profile and workspace.
   * @throws {InputError} when the run is not in this conversation, has no answer yet, its code does
   *   not parse, or the store refuses (a bad name, a bound: {@link ProgramRefusedError})
   */
  async save(conversationId: string, runId: string, name: string, by: Person, signal?: AbortSignal): Promise<TeamProgram> {
    const backend = this.backend;
    const wanted = programName(name);
    const run = await this.deps.store.getRun(conversationId, runId);
    if (!run) throw new InputError(`Run ${runId} is not in this channel's history.`);
    const code = answerCode(run);
    if (!this.deps.executor) throw new Error('saving a team program needs the sandbox: this process has none (a chat ingress saves through a job)');
    const facts = await readFacts(this.deps.executor, code, signal);
    const manifest = await this.deps.store.getWorkspace(conversationId, runId).catch(() => undefined);
    const version = {
      code,
      request: withoutFilesNote(run.requirement) || run.requirement, // the person's words, without the note naming the files
      inputs: programInputs(run.inputProfile, manifest, facts),
      parameters: facts.parameters,
      runId,
      approvedBy: by.id,
      ...(by.name ? { approvedByName: by.name } : {}),
      approvedAt: new Date().toISOString(),
    };
    return backend.save(conversationId, wanted, version, this.limits);
  }

  /** The conversation's live programs, by name. */
  list(conversationId: string): Promise<TeamProgram[]> {
    return this.backend.list(conversationId);
  }

  /**
   * What a matcher searches (a request in other words offered a program): the conversation's live
   * programs, each with its versions (the current last: its request, inputs, parameters, code).
   * Empty when the store keeps none. @throws {HistoryError} when the store fails
   */
  async findPrograms(conversationId: string): Promise<TeamProgram[]> {
    return this.available ? this.backend.list(conversationId) : [];
  }

  /** @returns the live program of that name (any case), or undefined */
  get(conversationId: string, name: string): Promise<TeamProgram | undefined> {
    return this.backend.get(conversationId, name.trim().toLowerCase());
  }

  /**
   * Removes a live program (kept for the audit with who and when).
   * @returns the removed program, or undefined when there is none of that name
   */
  remove(conversationId: string, name: string, by: Person): Promise<TeamProgram | undefined> {
    return this.backend.remove(conversationId, name.trim().toLowerCase(), by.id, new Date().toISOString());
  }

  /**
   * A program ready to run, by name, with the values given as `name=value` words (a string, or
   * already split) or by name.
   * @throws {InputError} when there is no such program (naming the channel's), or a value is refused ({@link ParameterError})
   */
  async prepare(conversationId: string, name: string, given: string | string[] | Record<string, string> = {}): Promise<PreparedProgram> {
    const program = await this.get(conversationId, name);
    if (!program) {
      const names = (await this.list(conversationId)).map((p) => p.name);
      throw new InputError(`No team program \`${name.slice(0, 60)}\` in this channel${names.length ? `; its programs are ${names.map((n) => `\`${n}\``).join(', ')}` : ' (it has none yet)'}.`);
    }
    const words = typeof given === 'string' ? splitWords(given) : Array.isArray(given) ? given : undefined;
    const asked = words ? parseAssignments(words) : (given as Record<string, string>);
    const version = program.versions.at(-1)!;
    const values = checkValues(version.parameters, asked, program.name);
    return { program, version, values, code: applyParameters(version.code, version.parameters, values) };
  }
}

/** A program name as typed, normalised (trimmed, lower case); the store checks its form. */
export function programName(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * The code of a run's answer: the last attempt of a run that ran with an answer, with the
 * definitions' helpers it imports written into it (a team program runs without the run's memory:
 * `from team import revenue` would find no `team.py`; src/memory/helpers.ts).
 * @throws {InputError} when the run has none (still running, failed, code not run)
 */
export function answerCode(run: Run): string {
  const last = run.attempts.at(-1);
  if (run.status === 'running') throw new InputError('This run is still going: save it once it has finished.');
  if ((run.status !== 'success' && run.status !== 'unverified') || !last?.code || !last.result?.success) {
    throw new InputError(`Only a run that ran with an answer can be saved as a team program; run ${run.id} ${run.status === 'generated' ? 'has code that was not run yet' : 'failed'}.`);
  }
  return inlineHelpers(last.code, run.memory);
}
