/**
 * The orchestrator: generate → derive checks → execute → verify → on failure (or an unconfirmed
 * result) improve and execute again, while another attempt can help, up to `maxRetries`. It knows
 * no platform and no vendor; it emits events and keeps every run in the history store. This file
 * holds the entry points; what the agent is given is in `agent-options.ts`, a run's start in
 * `new-run.ts`, the steps themselves in `steps.ts`, the fix loop in `fix-loop.ts`, a turn (lease,
 * workspace, deadline) in `turn.ts`.
 */
import type { InputFile } from '../../sandbox/types.js';
import type { Run } from '../../history/types.js';
import type { PythonEnvironment } from '../../sandbox/environment.js';
import { DEFAULT_WORKSPACE_LIMITS, type WorkspaceLimits, type WorkspaceManifest, type WorkspacePut } from '../../history/workspace.js';
import type { Person } from '../../history/candidates.js';
import type { RunProgram } from '../../history/programs.js';
import { InputError } from '../../config/errors.js';
import { ChannelMemory } from '../../memory/channel-memory.js';
import { TeamPrograms, type PreparedProgram } from '../../programs/team-programs.js';
import { matchProgram } from '../../programs/match.js';
import { type AgentEventListener, type CallOptions, type VerifyMode, TURN_LEASE_MS, newAttempt, type TurnOptions } from '../run/index.js';
import { librariesSentence } from '../failures/index.js';
import { addWorkspaceFiles, listWorkspace, removeWorkspaceFile, type WorkspaceFilesDeps } from '../reading/index.js';
import { systemPrompt } from '../replies/index.js';
import { judgeAttempt, CHECKS_PROMPT, REVIEW_PROMPT } from '../verification/index.js';
import { recallMemory, giveHelpers } from '../memory-use/index.js';
import { DEFAULT_RUN_TIMEOUT_MS, type AgentOptions } from './agent-options.js';
import { checkRequestText, newRun } from './new-run.js';
import { RunSteps } from './steps.js';
import { runTurn } from './turn.js';
import { FixLoop } from './fix-loop.js';
import type { TurnKind } from './run-observer.js';
import { approveRun, settleRun, type SettleDeps, type SettleOutcome } from './settle.js';
import { programTurn, runProgramMark, savedInputs } from './program-run.js';

export type { CallOptions, VerifyMode } from '../run/index.js';
export { InputError } from '../../config/errors.js';

/** The system prompts of the LLM calls a verify mode makes, the code's first. */
function systemPrompts(verify: VerifyMode, env: PythonEnvironment | undefined): string[] {
  return [
    systemPrompt(librariesSentence(env)),
    ...(verify === 'checks' || verify === 'both' ? [CHECKS_PROMPT] : []),
    ...(verify === 'review' || verify === 'both' ? [REVIEW_PROMPT] : []),
  ];
}

/** Generates, executes and improves Python code for requirements; keeps runs in the store. */
export class Agent {
  readonly maxRetries: number;
  readonly maxRequirementChars: number;
  readonly verify: VerifyMode;
  readonly runTimeoutMs: number;
  readonly workspaceLimits: WorkspaceLimits;
  private readonly turnWaitMs: number;
  private readonly steps: RunSteps;
  /** The fix loop of `run` and `improve` calls (`fix-loop.ts`). */
  private readonly fixLoop: FixLoop;
  /** The channel memory new runs are given (absent when turned off). */
  readonly memory: ChannelMemory | undefined;
  /** The channels' team programs (save, list, show, remove, prepare a run; src/programs). */
  readonly programs: TeamPrograms;

  constructor(private readonly options: AgentOptions) {
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRequirementChars = options.maxRequirementChars ?? 8000;
    this.verify = options.verify ?? 'checks';
    this.runTimeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
    this.workspaceLimits = options.workspaceLimits ?? DEFAULT_WORKSPACE_LIMITS;
    this.turnWaitMs = options.turnWaitMs ?? (this.runTimeoutMs > 0 ? this.runTimeoutMs + TURN_LEASE_MS : 3_600_000);
    this.memory = options.memory === false ? undefined : new ChannelMemory(options.store, options.memory);
    this.programs = new TeamPrograms({ store: options.store, executor: options.executor, ...(options.programLimits ? { limits: options.programLimits } : {}) });
    const environment = async () => options.executor.environment?.().catch(() => undefined);
    const stepsOptions = { ...options, maxRetries: this.maxRetries, verify: this.verify, environment, workspaceLimits: this.workspaceLimits };
    this.steps = new RunSteps(stepsOptions);
    this.fixLoop = new FixLoop(this.steps, stepsOptions);
    // a local model reads the system prompts now, not during the first request (with the sandbox's
    // packages as last probed: the probe itself starts with the first run)
    void options.llm.prepare?.(systemPrompts(this.verify, options.executor.cachedEnvironment?.()));
  }

  /**
   * Generates code for a requirement, derives checks from it (verify `checks`/`both`), executes
   * both and improves the code until it is confirmed, `maxRetries` improvement attempts were made,
   * or a failure no code can fix stops the run early. Input files are profiled in the sandbox first;
   * an answer on them that no check can pin is compared with independent programs' answers.
   * @returns the finished run (status `success`, `unverified` or `failed`); LLM and sandbox errors
   *   end the run as failed with `run.error` set, they are not thrown.
   * @throws {InputError} for an empty or oversized requirement (nothing is stored).
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate here (checked before any LLM call).
   */
  async run(conversationId: string, requirement: string, options: CallOptions = {}): Promise<Run> {
    checkRequestText(requirement.trim(), 'requirement', this.maxRequirementChars);
    await this.options.executor.check();
    const run = await this.startRun(conversationId, requirement, options);
    return this.guard(run, options, options.maxRetries ?? this.maxRetries, async (o) => {
      await this.steps.profileInputs(run, o);
      await this.recall(run, o);
      if (this.memory?.definitionHelpers && (await giveHelpers(this.options, run, o))) await this.steps.save(run);
      await this.steps.makeAttempt(run, 'requirement', undefined, o);
      await this.fixLoop.run(run, o);
    }, undefined, 'run');
  }

  /**
   * Generates code for a requirement without executing it. The run's status is `generated`.
   * @throws {InputError} for an empty or oversized requirement.
   */
  async generate(conversationId: string, requirement: string, options: CallOptions = {}): Promise<Run> {
    const run = await this.startRun(conversationId, requirement, options);
    return this.guard(run, options, 0, async (o) => {
      // code without execution needs no sandbox: without one, the files go unprofiled
      await this.steps.profileInputs(run, o).catch(() => undefined);
      await this.recall(run, o);
      const attempt = await this.steps.makeAttempt(run, 'requirement', undefined, o);
      if (attempt.error) return this.steps.finish(run, 'failed', attempt.error, o);
      return this.steps.finish(run, 'generated', undefined, o);
    }, undefined, 'generate');
  }

  /**
   * The team program of the conversation that answers a request in other words, ready to run with
   * the parameter values the request sets (src/programs/match.ts: retrieval on the request and its
   * files, then one short LLM call). No call at all when the conversation has no program like it.
   * @param fileNames the names of the files given with the request
   * @returns the prepared program, or undefined when none answers it, or when the store or the LLM
   *   failed (the usual path then runs, and says any such failure itself)
   */
  async findProgram(conversationId: string, request: string, fileNames: string[], signal?: AbortSignal): Promise<PreparedProgram | undefined> {
    try {
      const programs = await this.programs.findPrograms(conversationId);
      if (programs.length === 0) return undefined;
      const match = await matchProgram(this.options.llm, programs, { request, fileNames }, signal);
      if (!match) return undefined;
      const values = Object.fromEntries(Object.entries(match.params).map(([k, v]) => [k, String(v)]));
      return await this.programs.prepare(conversationId, match.program.name, values);
    } catch {
      return undefined;
    }
  }

  /**
   * Runs a team program (prepared by `agent.programs.prepare`): a new run, marked with the program,
   * whose one attempt is the stored code with its parameters applied, executed in the sandbox with
   * the files given (`options.inputFiles`), else the files of the run it was saved from. No LLM
   * call. Files that do not fit the saved inputs are said (`program_misfit`) before anything runs,
   * and the run ends failed (a reply improves it as usual). See `program-run.ts`.
   * @param matchedRequest a request in other words the program was found for (src/programs/match.ts):
   *   the run's requirement (an improve then reads it), and the run is marked `matched`; absent: the
   *   program was asked for by name, and its saved request is the requirement
   * @returns the finished run (`success` when the program exited 0, else `failed` with `run.error`)
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate here (checked before anything is stored)
   */
  async runProgram(conversationId: string, prepared: PreparedProgram, options: CallOptions = {}, matchedRequest?: string): Promise<Run> {
    await this.options.executor.check();
    const given = options.inputFiles?.length ? options.inputFiles : await savedInputs(this.options.store, conversationId, prepared.version);
    const requirement = matchedRequest ?? prepared.version.request;
    const run = await this.startRun(conversationId, requirement, options, runProgramMark(prepared, matchedRequest !== undefined));
    const call = { ...options, ...(given.length ? { inputFiles: given } : {}) };
    return this.guard(run, call, 0, (o) => programTurn(this.steps, run, prepared, o), undefined, 'program');
  }

  /**
   * Executes the latest code of a run again (a new `rerun` attempt), without improving it, in a work
   * dir holding the run's workspace (restored from the store).
   * @throws {InputError} when the run has no code yet.
   */
  async execute(run: Run, options: CallOptions = {}): Promise<Run> {
    const latestCode = () => [...run.attempts].reverse().find((a) => a.code)?.code;
    const check = () => {
      if (!latestCode()) throw new InputError('this run has no code to execute yet');
    };
    if (run.status !== 'running') check(); // a run still going may have code by the time its turn ends
    return this.guard(run, options, 0, async (o) => {
      delete run.candidates; // a new turn: the candidates of an earlier one no longer describe the answer
      run.attempts.push(newAttempt(run, 'rerun', latestCode()!, undefined, o.workspace?.fingerprint));
      await this.steps.executeLatest(run, o);
      const verdict = judgeAttempt(run.attempts.at(-1)!, run);
      if (verdict.kind === 'confirmed') return this.steps.finish(run, 'success', undefined, o);
      return this.steps.finish(run, verdict.kind === 'ran' ? 'unverified' : 'failed', 'reason' in verdict ? verdict.reason : undefined, o);
    }, check, 'rerun');
  }

  /**
   * Makes a new attempt from user feedback (or, without feedback, from the latest failure),
   * executes it, and keeps improving on failure up to `maxRetries`.
   * @throws {InputError} for oversized feedback or a run with no attempt yet.
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate here (checked before any LLM call).
   */
  async improve(run: Run, feedback: string | undefined, options: CallOptions = {}): Promise<Run> {
    const check = () => {
      if (run.attempts.length === 0) throw new InputError('this run has no code to improve yet');
    };
    if (run.status !== 'running') check(); // a run still going gets its first attempt meanwhile
    const text = feedback?.trim() || undefined;
    if (text) checkRequestText(text, 'feedback', this.maxRequirementChars);
    await this.options.executor.check();
    return this.guard(run, options, options.maxRetries ?? this.maxRetries, async (o) => {
      delete run.candidates; // a new turn: the candidates of an earlier one no longer describe the answer
      await this.steps.profileInputs(run, o);
      await this.steps.makeAttempt(run, text ? 'feedback' : 'error', text, o);
      if (text) await this.steps.deriveChecks(run, o);
      await this.fixLoop.run(run, o);
    }, check, 'improve');
  }

  /**
   * The run's workspace: every file its programs find in their work dir (given, or written by an
   * attempt), in arrival order, with sizes and origins. For `/show` and the like.
   * @throws {HistoryError} when the store fails
   */
  workspace(run: Run): Promise<WorkspaceManifest> {
    return listWorkspace(this.options.store, run);
  }

  /**
   * Adds files to a run's workspace between turns (e.g. `/attach`, an attachment without a
   * request): its next turn, re-run or improve finds them. A file of a name already there
   * replaces it (in `replaced`). Waits for a turn of the run that is going (`queued` emitted).
   * @throws {WorkspaceLimitError} when a workspace bound would be passed (nothing is added)
   * @throws {TurnBusyError} when a turn of the run went on longer than the wait
   */
  addFiles(run: Run, files: InputFile[], onEvent?: AgentEventListener): Promise<WorkspacePut> {
    return addWorkspaceFiles(this.workspaceDeps(), run, files, onEvent);
  }

  /**
   * Removes a file from a run's workspace (later turns no longer find it; earlier results keep it).
   * Waits for a turn of the run that is going (`queued` emitted).
   * @returns false when the workspace has no file of that name
   * @throws {TurnBusyError} when a turn of the run went on longer than the wait
   */
  removeFile(run: Run, name: string, onEvent?: AgentEventListener): Promise<boolean> {
    return removeWorkspaceFile(this.workspaceDeps(), run, name, onEvent);
  }

  private workspaceDeps(): WorkspaceFilesDeps {
    return { store: this.options.store, limits: this.workspaceLimits, waitMs: this.turnWaitMs, log: this.options.log, cache: this.options.workspaceCache };
  }

  /**
   * A person's choice among an unconfirmed run's candidates (a candidate's `n`, or `neither`): no
   * LLM call (see `settle.ts`). @throws {InputError} saying why the choice cannot be taken
   */
  settle(conversationId: string, runId: string, choice: number | 'neither', by: Person): Promise<SettleOutcome> {
    return settleRun(this.settleDeps(), conversationId, runId, choice, by);
  }

  /** A person's 👍 (`up`) or 👎 (`down`) of a finished run (see `settle.ts`). @throws {InputError} when the run has no answer */
  approve(conversationId: string, runId: string, verdict: 'up' | 'down', by: Person): Promise<SettleOutcome> {
    return approveRun(this.settleDeps(), conversationId, runId, verdict, by);
  }

  private settleDeps(): SettleDeps {
    return { store: this.options.store, memory: this.memory, turnWaitMs: this.turnWaitMs, log: this.options.log };
  }

  /** Gives a new run its channel's memory (see `../memory-use/memory-step.ts`) and stores what it was given. */
  private async recall(run: Run, options: CallOptions): Promise<void> {
    const log = this.options.log ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
    if (await recallMemory(this.memory, run, options, log)) await this.steps.save(run);
  }

  /** Validates the requirement, creates and stores the run (see `new-run.ts`). */
  private async startRun(conversationId: string, requirement: string, options: CallOptions, program?: RunProgram): Promise<Run> {
    const text = requirement.trim();
    checkRequestText(text, 'requirement', this.maxRequirementChars);
    const run = newRun(conversationId, text, options, program);
    await this.options.store.saveRun(run);
    return run;
  }

  /** One turn of a run (see {@link runTurn}). */
  private guard(
    run: Run,
    options: CallOptions,
    retries: number,
    body: (options: TurnOptions) => Promise<unknown>,
    check: (() => void) | undefined,
    kind: TurnKind,
  ): Promise<Run> {
    const { store, log, usage, metrics } = this.options;
    const deps = { store, steps: this.steps, log, runTimeoutMs: this.runTimeoutMs, turnWaitMs: this.turnWaitMs, workspaceLimits: this.workspaceLimits, usage, metrics, workspaceCache: this.options.workspaceCache };
    return runTurn(deps, run, options, retries, body, check, kind);
  }
}
