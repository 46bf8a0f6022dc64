/**
 * The orchestrator: generate → execute → on failure improve and execute again, up to
 * `maxRetries`. It knows no platform and no vendor; it emits events and keeps every run in the
 * history store.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Executor, InputFile } from '../sandbox/types.js';
import type { LlmProvider } from '../llm/types.js';
import type { Attempt, AttemptTrigger, HistoryStore, Run } from '../history/types.js';
import type { AgentEvent, AgentEventListener } from './events.js';
import { extractCode } from './extract.js';
import { buildMessages } from './prompts.js';
import { summarizeFailure } from './failure.js';
import { thisProcess } from '../history/process-identity.js';
import { keepFullOutput } from './kept-output.js';
import { publicReason } from './public-error.js';
import { boundLine } from '../text/cut.js';

/** Longest `run.error`, in characters: it is shown in chat status lines and stored with the run. */
export const ERROR_MAX_CHARS = 1000;

/** A request that cannot be accepted (empty, too long…); nothing was run and nothing was stored. */
export class InputError extends Error {
  override name = 'InputError';
}

/** What the agent needs. */
export interface AgentOptions {
  llm: LlmProvider;
  executor: Executor;
  store: HistoryStore;
  /** Host folder where artifacts are kept: `<artifactRoot>/<conversation>/<runId>/<attempt>/`. */
  artifactRoot: string;
  /** Automatic improvement attempts after a failure. Default 3. */
  maxRetries?: number;
  /** Longest accepted requirement or feedback, in characters. Default 8000. */
  maxRequirementChars?: number;
  /** The operator's log: details of failures users see only in plain words (LLM errors). Default: stderr. */
  log?: (message: string) => void;
}

/** Options of one agent call. */
export interface CallOptions {
  /** Who asked (platform user id or name). */
  requestedBy?: string;
  /** Files placed in the sandbox work dir (e.g. chat attachments). */
  inputFiles?: InputFile[];
  /** Cancels the current LLM call or execution; the run ends as failed with "cancelled". */
  signal?: AbortSignal;
  /** Receives the events of this call. */
  onEvent?: AgentEventListener;
  /** Platform data stored with a new run. */
  meta?: Record<string, string>;
  /** Overrides the agent's `maxRetries` for this call. */
  maxRetries?: number;
}

/** Generates, executes and improves Python code for requirements; keeps runs in the store. */
export class Agent {
  readonly maxRetries: number;
  readonly maxRequirementChars: number;

  constructor(private readonly options: AgentOptions) {
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRequirementChars = options.maxRequirementChars ?? 8000;
  }

  /**
   * Generates code for a requirement, executes it and improves it until it works or
   * `maxRetries` improvement attempts failed.
   * @returns the finished run (status `success` or `failed`); LLM and sandbox errors end the run
   *   as failed with `run.error` set, they are not thrown.
   * @throws {InputError} for an empty or oversized requirement (nothing is stored).
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate here (checked before any LLM call).
   */
  async run(conversationId: string, requirement: string, options: CallOptions = {}): Promise<Run> {
    this.checkText(requirement.trim(), 'requirement');
    await this.options.executor.check();
    const run = await this.startRun(conversationId, requirement, options);
    return this.guard(run, options, async () => {
      await this.makeAttempt(run, 'requirement', undefined, options);
      await this.executeAndFix(run, options);
    });
  }

  /**
   * Generates code for a requirement without executing it. The run's status is `generated`.
   * @throws {InputError} for an empty or oversized requirement.
   */
  async generate(conversationId: string, requirement: string, options: CallOptions = {}): Promise<Run> {
    const run = await this.startRun(conversationId, requirement, options);
    return this.guard(run, options, async () => {
      const attempt = await this.makeAttempt(run, 'requirement', undefined, options);
      if (attempt.error) return this.finish(run, 'failed', attempt.error, options);
      return this.finish(run, 'generated', undefined, options);
    });
  }

  /**
   * Executes the latest code of a run again (a new `rerun` attempt), without improving it.
   * @throws {InputError} when the run has no code yet.
   */
  async execute(run: Run, options: CallOptions = {}): Promise<Run> {
    const source = [...run.attempts].reverse().find((a) => a.code);
    if (!source) throw new InputError('this run has no code to execute yet');
    return this.guard(run, options, async () => {
      run.attempts.push(newAttempt(run, 'rerun', source.code));
      await this.executeLatest(run, options);
      const last = run.attempts.at(-1)!;
      if (last.result?.success) return this.finish(run, 'success', undefined, options);
      return this.finish(run, 'failed', summarizeFailure(last.result!), options);
    });
  }

  /**
   * Makes a new attempt from user feedback (or, without feedback, from the latest failure),
   * executes it, and keeps improving on failure up to `maxRetries`.
   * @throws {InputError} for oversized feedback or a run with no attempt yet.
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate here (checked before any LLM call).
   */
  async improve(run: Run, feedback: string | undefined, options: CallOptions = {}): Promise<Run> {
    if (run.attempts.length === 0) throw new InputError('this run has no code to improve yet');
    const text = feedback?.trim() || undefined;
    if (text) this.checkText(text, 'feedback');
    await this.options.executor.check();
    return this.guard(run, options, async () => {
      await this.makeAttempt(run, text ? 'feedback' : 'error', text, options);
      await this.executeAndFix(run, options);
    });
  }

  /** Validates the requirement, creates and stores the run. */
  private async startRun(conversationId: string, requirement: string, options: CallOptions): Promise<Run> {
    const text = requirement.trim();
    this.checkText(text, 'requirement');
    const now = new Date().toISOString();
    const run: Run = {
      id: newRunId(),
      conversationId,
      requirement: text,
      requestedBy: options.requestedBy,
      status: 'running',
      runningIn: thisProcess(),
      attempts: [],
      createdAt: now,
      updatedAt: now,
      meta: options.meta,
    };
    await this.options.store.saveRun(run);
    return run;
  }

  private checkText(text: string, what: string): void {
    if (text === '') throw new InputError(`the ${what} is empty: say what the program should do`);
    if (text.length > this.maxRequirementChars) {
      throw new InputError(
        `the ${what} is ${text.length} characters long; the limit is ${this.maxRequirementChars} (agent.max_requirement_chars)`,
      );
    }
  }

  /** Runs `body`; any error ends the run as failed (stored, `failed` emitted) instead of escaping. */
  private async guard(run: Run, options: CallOptions, body: () => Promise<unknown>): Promise<Run> {
    run.status = 'running';
    run.runningIn = thisProcess();
    run.error = undefined;
    try {
      await body();
    } catch (err) {
      const reason = options.signal?.aborted ? 'cancelled' : publicReason(err, this.options.log);
      await this.finish(run, 'failed', reason, options);
    }
    return run;
  }

  private async executeAndFix(run: Run, options: CallOptions): Promise<void> {
    const maxRetries = options.maxRetries ?? this.maxRetries;
    for (let retry = 1; ; retry++) {
      await this.executeLatest(run, options);
      const last = run.attempts.at(-1)!;
      if (last.result?.success) {
        await this.finish(run, 'success', undefined, options);
        return;
      }
      const reason = last.error ?? summarizeFailure(last.result!);
      if (retry > maxRetries) {
        await this.finish(run, 'failed', reason, options);
        return;
      }
      emit(options, { type: 'improving', runId: run.id, retry, maxRetries, reason });
      await this.makeAttempt(run, 'error', undefined, options);
    }
  }

  /** Asks the LLM for the next attempt and extracts its code. */
  private async makeAttempt(
    run: Run,
    trigger: AttemptTrigger,
    feedback: string | undefined,
    options: CallOptions,
  ): Promise<Attempt> {
    const attempt = newAttempt(run, trigger, '', feedback);
    emit(options, { type: 'generating', runId: run.id, attempt: attempt.index, trigger });
    const completion = await this.options.llm.complete(buildMessages(run, attempt), { signal: options.signal });
    attempt.usage = completion.usage;
    const extracted = extractCode(completion.content);
    if ('code' in extracted) attempt.code = extracted.code;
    else attempt.error = extracted.error;
    run.attempts.push(attempt);
    await this.save(run);
    emit(options, { type: 'generated', runId: run.id, attempt: attempt.index, code: attempt.code, error: attempt.error });
    return attempt;
  }

  /** Executes the latest attempt (if it has code) and stores its result. */
  private async executeLatest(run: Run, options: CallOptions): Promise<void> {
    const attempt = run.attempts.at(-1)!;
    if (!attempt.code) return;
    emit(options, { type: 'executing', runId: run.id, attempt: attempt.index });
    const artifactDir = join(this.options.artifactRoot, safeSegment(run.conversationId), run.id, String(attempt.index));
    const kept = await keepFullOutput(
      await this.options.executor.execute(attempt.code, { inputFiles: options.inputFiles, signal: options.signal, artifactDir }),
      artifactDir,
    );
    attempt.result = kept.stored;
    await this.save(run);
    emit(options, { type: 'executed', runId: run.id, attempt: attempt.index, result: kept.shown });
    if (options.signal?.aborted) throw new Error('cancelled');
  }

  private async finish(run: Run, status: Run['status'], error: string | undefined, options: CallOptions): Promise<Run> {
    run.status = status;
    run.error = error === undefined ? undefined : boundLine(error, ERROR_MAX_CHARS);
    delete run.runningIn;
    await this.save(run);
    emit(options, status === 'failed' ? { type: 'failed', run, reason: error ?? 'failed' } : { type: 'done', run });
    return run;
  }

  private async save(run: Run): Promise<void> {
    run.updatedAt = new Date().toISOString();
    await this.options.store.saveRun(run);
  }
}

function newAttempt(run: Run, trigger: AttemptTrigger, code: string, feedback?: string): Attempt {
  return {
    index: run.attempts.length + 1,
    trigger,
    ...(feedback !== undefined ? { feedback } : {}),
    code,
    usage: { promptTokens: 0, completionTokens: 0 },
    createdAt: new Date().toISOString(),
  };
}

function emit(options: CallOptions, event: AgentEvent): void {
  try {
    options.onEvent?.(event);
  } catch {
    /* a listener's error must not break the run */
  }
}

/** A time-sortable run id, e.g. `mfx3k2a1-9f2c1e`. */
export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** A conversation id made safe as one path segment. */
export function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';
}
