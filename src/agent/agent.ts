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
import { cleanName } from '../sandbox/names.js';
import { brokenCheck, checksRequest, deriveChecks } from './checks.js';
import { reviewResult } from './review.js';
import { feedbackOf, judgeAttempt, keptAttempt, sameCodeAs, stopReason, type Verdict } from './verdict.js';

/**
 * How the agent checks a result beyond the exit code: `checks` derived from the requirement and run
 * with the program, an LLM `review` of a run that succeeded, `both`, or `off`.
 */
export type VerifyMode = 'off' | 'checks' | 'review' | 'both';

/** Temperature of the attempt that follows a repeated program: enough to leave the greedy path. */
export const REPEAT_TEMPERATURE = 0.8;

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
  /** How results are verified beyond the exit code. Default `checks`. */
  verify?: VerifyMode;
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
  readonly verify: VerifyMode;

  constructor(private readonly options: AgentOptions) {
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRequirementChars = options.maxRequirementChars ?? 8000;
    this.verify = options.verify ?? 'checks';
  }

  private get usesChecks(): boolean {
    return this.verify === 'checks' || this.verify === 'both';
  }

  private get usesReview(): boolean {
    return this.verify === 'review' || this.verify === 'both';
  }

  /**
   * Generates code for a requirement, derives checks from it (verify `checks`/`both`), executes
   * both and improves the code until it is confirmed, `maxRetries` improvement attempts were made,
   * or a failure no code can fix stops the run early.
   * @returns the finished run (status `success`, `unverified` or `failed`); LLM and sandbox errors
   *   end the run as failed with `run.error` set, they are not thrown.
   * @throws {InputError} for an empty or oversized requirement (nothing is stored).
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate here (checked before any LLM call).
   */
  async run(conversationId: string, requirement: string, options: CallOptions = {}): Promise<Run> {
    this.checkText(requirement.trim(), 'requirement');
    await this.options.executor.check();
    const run = await this.startRun(conversationId, requirement, options);
    return this.guard(run, options, async () => {
      await this.makeAttempt(run, 'requirement', undefined, options);
      await this.deriveChecks(run, options);
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
      const verdict = judgeAttempt(run.attempts.at(-1)!, run);
      if (verdict.kind === 'confirmed') return this.finish(run, 'success', undefined, options);
      return this.finish(run, verdict.kind === 'ran' ? 'unverified' : 'failed', 'reason' in verdict ? verdict.reason : undefined, options);
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
      if (text || !run.checks) await this.deriveChecks(run, options);
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
      const reason = options.signal?.aborted ? 'cancelled' : (err as Error).message;
      await this.finish(run, 'failed', reason, options);
    }
    return run;
  }

  /**
   * Executes the latest attempt and makes new ones while a new attempt can change the outcome:
   * a program that repeats an earlier one is not executed again (the model is told, and the next
   * call samples at {@link REPEAT_TEMPERATURE}; a second repeat in a row ends the run), and a
   * failure no code can fix ends the run at once with what to do.
   */
  private async executeAndFix(run: Run, options: CallOptions): Promise<void> {
    const maxRetries = options.maxRetries ?? this.maxRetries;
    for (let retry = 1; ; retry++) {
      const attempt = run.attempts.at(-1)!;
      const repeatOf = attempt.code ? sameCodeAs(run, attempt) : undefined;
      if (repeatOf !== undefined) {
        attempt.repeatOf = repeatOf;
        await this.save(run);
        emit(options, { type: 'repeated', runId: run.id, attempt: attempt.index, repeatOf });
      } else {
        await this.executeLatest(run, options);
        await this.repairChecks(run, attempt, options);
      }
      const verdict = await this.review(run, attempt, judgeAttempt(attempt, run), options);
      if (verdict.kind === 'confirmed') {
        await this.finish(run, 'success', undefined, options);
        return;
      }
      const inputNames = (options.inputFiles ?? []).map((f) => cleanName(f.name)).filter((n): n is string => n !== null);
      const stop = stopReason(run, attempt, verdict, inputNames);
      if (stop !== undefined || retry > maxRetries) {
        await this.finishUnconfirmed(run, stop ?? verdict.reason, options);
        return;
      }
      emit(options, { type: 'improving', runId: run.id, retry, maxRetries, reason: verdict.reason });
      const fromReview = verdict.kind === 'ran' && verdict.defect !== undefined;
      await this.makeAttempt(run, fromReview ? 'review' : 'error', fromReview ? verdict.defect : undefined, options, {
        temperature: repeatOf !== undefined ? REPEAT_TEMPERATURE : undefined,
      });
    }
  }

  /**
   * Ends a run that was not confirmed: when some attempt ran with exit 0, the best of them (most
   * checks passed, then earliest) is the answer and the run is `unverified`; else it `failed`.
   * An earlier attempt kept as the answer is appended as a `rerun` (result copied, not executed).
   */
  private async finishUnconfirmed(run: Run, reason: string, options: CallOptions): Promise<void> {
    const kept = keptAttempt(run);
    if (!kept) {
      await this.finish(run, 'failed', reason, options);
      return;
    }
    if (kept !== run.attempts.at(-1)) {
      run.attempts.push({ ...newAttempt(run, 'rerun', kept.code), keptFrom: kept.index, result: kept.result });
    }
    const verdict = judgeAttempt(kept, run);
    const why = verdict.kind === 'ran' ? verdict.reason : reason;
    await this.finish(run, 'unverified', kept.review && !kept.review.ok ? `the review found a defect: ${kept.review.defect}` : why, options);
  }

  /** With review on, asks the LLM to review a confirmed attempt; a defect makes the verdict `ran`. */
  private async review(run: Run, attempt: Attempt, verdict: Verdict, options: CallOptions): Promise<Verdict> {
    if (verdict.kind !== 'confirmed' || !this.usesReview || !attempt.result) return verdict;
    const request = [run.requirement, ...feedbackOf(run)].join('\n\n');
    const review = await reviewResult(this.options.llm, request, attempt.code, attempt.result, options.signal);
    attempt.review = review;
    await this.save(run);
    emit(options, { type: 'reviewed', runId: run.id, attempt: attempt.index, ok: review.ok, defect: review.defect });
    if (review.ok) return verdict;
    return { kind: 'ran', reason: `the review found a defect: ${review.defect}`, defect: review.defect };
  }

  /**
   * When the checks turn out broken (see {@link brokenCheck}), writes them again once per run and
   * executes the same attempt again with the new ones; broken twice, the run keeps no checks
   * (judged by exit code) and says so.
   */
  private async repairChecks(run: Run, attempt: Attempt, options: CallOptions): Promise<void> {
    const report = attempt.result?.checks;
    if (!run.checks || !report) return;
    const broken = brokenCheck(report, [run.requirement, ...feedbackOf(run)].join('\n'));
    if (broken === undefined) return;
    if (run.checks.repairOf !== undefined) {
      run.checks = { code: '', asserts: [], usage: run.checks.usage, repairOf: `${run.checks.repairOf}; then ${broken}` };
      delete attempt.result!.checks;
      await this.save(run);
      emit(options, { type: 'checks', runId: run.id, asserts: [], dropped: [] });
      return;
    }
    const request = checksRequest(run.requirement, feedbackOf(run));
    run.checks = await deriveChecks(this.options.llm, request, { signal: options.signal, previous: run.checks, broken });
    emit(options, { type: 'checks', runId: run.id, asserts: run.checks.asserts, dropped: [] });
    await this.executeLatest(run, options);
    await this.repairChecks(run, attempt, options);
  }

  /** With checks on, derives the run's checks from its requirement and feedback (frozen until new feedback). */
  private async deriveChecks(run: Run, options: CallOptions): Promise<void> {
    if (!this.usesChecks || run.attempts.at(-1)?.code === '') return;
    const request = checksRequest(run.requirement, feedbackOf(run));
    run.checks = await deriveChecks(this.options.llm, request, { signal: options.signal, previous: run.checks });
    await this.save(run);
    emit(options, { type: 'checks', runId: run.id, asserts: run.checks.asserts, dropped: run.checks.dropped ?? [] });
  }

  /** Asks the LLM for the next attempt and extracts its code. */
  private async makeAttempt(
    run: Run,
    trigger: AttemptTrigger,
    feedback: string | undefined,
    options: CallOptions,
    sampling: { temperature?: number } = {},
  ): Promise<Attempt> {
    const attempt = newAttempt(run, trigger, '', feedback);
    emit(options, { type: 'generating', runId: run.id, attempt: attempt.index, trigger });
    const completion = await this.options.llm.complete(buildMessages(run, attempt), {
      signal: options.signal,
      ...(sampling.temperature !== undefined ? { temperature: sampling.temperature } : {}),
    });
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
    attempt.result = await this.options.executor.execute(attempt.code, {
      inputFiles: options.inputFiles,
      ...(run.checks?.code ? { checks: run.checks.code } : {}),
      signal: options.signal,
      artifactDir: join(this.options.artifactRoot, safeSegment(run.conversationId), run.id, String(attempt.index)),
    });
    await this.save(run);
    emit(options, { type: 'executed', runId: run.id, attempt: attempt.index, result: attempt.result });
    if (options.signal?.aborted) throw new Error('cancelled');
  }

  private async finish(run: Run, status: Run['status'], error: string | undefined, options: CallOptions): Promise<Run> {
    run.status = status;
    run.error = error;
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
