/**
 * The orchestrator: generate → derive checks → execute → verify → on failure (or an unconfirmed
 * result) improve and execute again, while another attempt can help, up to `maxRetries`. It knows
 * no platform and no vendor; it emits events and keeps every run in the history store. The steps
 * themselves are in `steps.ts`; this file holds the entry points.
 */
import type { Executor, InputFile } from '../sandbox/types.js';
import type { LlmProvider } from '../llm/types.js';
import type { HistoryStore, Run } from '../history/types.js';
import type { AgentEventListener } from './events.js';
import type { AgentTools } from '../tools/types.js';
import { thisProcess } from '../history/process-identity.js';
import { publicReason } from './public-error.js';
import { judgeAttempt } from './verdict.js';
import { newAttempt, RunSteps } from './steps.js';
import { newRunId } from './ids.js';
import { systemPrompt } from './prompts.js';
import { librariesSentence } from './environment-text.js';
import type { PythonEnvironment } from '../sandbox/environment.js';
import { CHECKS_PROMPT } from './checks.js';
import { REVIEW_PROMPT } from './review.js';
import { startDeadline } from './deadline.js';

/** The system prompts of the LLM calls a verify mode makes, the code's first. */
function systemPrompts(verify: VerifyMode, env: PythonEnvironment | undefined): string[] {
  return [
    systemPrompt(librariesSentence(env)),
    ...(verify === 'checks' || verify === 'both' ? [CHECKS_PROMPT] : []),
    ...(verify === 'review' || verify === 'both' ? [REVIEW_PROMPT] : []),
  ];
}

/**
 * How the agent checks a result beyond the exit code: `checks` derived from the requirement and run
 * with the program, an LLM `review` of a run that succeeded, `both`, or `off`.
 */
export type VerifyMode = 'off' | 'checks' | 'review' | 'both';

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
  /** How results are verified beyond the exit code. Default `checks`. */
  verify?: VerifyMode;
  /** The longest a call (run, improve, execute) may take, in ms; 0: no deadline. Default {@link DEFAULT_RUN_TIMEOUT_MS}. */
  runTimeoutMs?: number;
  /** The tools programs may call, per conversation (src/tools). Default: none. */
  tools?: AgentTools;
}

/** A call's deadline when the config does not say (`agent.run_timeout_s`: 900 s). */
export const DEFAULT_RUN_TIMEOUT_MS = 900_000;

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
  readonly runTimeoutMs: number;
  private readonly steps: RunSteps;

  constructor(private readonly options: AgentOptions) {
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRequirementChars = options.maxRequirementChars ?? 8000;
    this.verify = options.verify ?? 'checks';
    this.runTimeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
    const environment = async () => options.executor.environment?.().catch(() => undefined);
    this.steps = new RunSteps({ ...options, maxRetries: this.maxRetries, verify: this.verify, environment });
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
    this.checkText(requirement.trim(), 'requirement');
    await this.options.executor.check();
    const run = await this.startRun(conversationId, requirement, options);
    return this.guard(run, options, async (o) => {
      await this.steps.profileInputs(run, o);
      await this.steps.makeAttempt(run, 'requirement', undefined, o);
      await this.steps.executeAndFix(run, o);
    });
  }

  /**
   * Generates code for a requirement without executing it. The run's status is `generated`.
   * @throws {InputError} for an empty or oversized requirement.
   */
  async generate(conversationId: string, requirement: string, options: CallOptions = {}): Promise<Run> {
    const run = await this.startRun(conversationId, requirement, options);
    return this.guard(run, options, async (o) => {
      // code without execution needs no sandbox: without one, the files go unprofiled
      await this.steps.profileInputs(run, o).catch(() => undefined);
      const attempt = await this.steps.makeAttempt(run, 'requirement', undefined, o);
      if (attempt.error) return this.steps.finish(run, 'failed', attempt.error, o);
      return this.steps.finish(run, 'generated', undefined, o);
    });
  }

  /**
   * Executes the latest code of a run again (a new `rerun` attempt), without improving it.
   * @throws {InputError} when the run has no code yet.
   */
  async execute(run: Run, options: CallOptions = {}): Promise<Run> {
    const source = [...run.attempts].reverse().find((a) => a.code);
    if (!source) throw new InputError('this run has no code to execute yet');
    return this.guard(run, options, async (o) => {
      run.attempts.push(newAttempt(run, 'rerun', source.code));
      await this.steps.executeLatest(run, o);
      const verdict = judgeAttempt(run.attempts.at(-1)!, run);
      if (verdict.kind === 'confirmed') return this.steps.finish(run, 'success', undefined, o);
      return this.steps.finish(run, verdict.kind === 'ran' ? 'unverified' : 'failed', 'reason' in verdict ? verdict.reason : undefined, o);
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
    return this.guard(run, options, async (o) => {
      await this.steps.profileInputs(run, o);
      await this.steps.makeAttempt(run, text ? 'feedback' : 'error', text, o);
      if (text) await this.steps.deriveChecks(run, o);
      await this.steps.executeAndFix(run, o);
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

  /**
   * Runs `body` under the run's deadline (`runTimeoutMs`); any error ends the run as failed (stored,
   * `failed` emitted) instead of escaping, and the deadline ends it as `unverified` or `failed`.
   */
  private async guard(run: Run, options: CallOptions, body: (options: CallOptions) => Promise<unknown>): Promise<Run> {
    run.status = 'running';
    run.runningIn = thisProcess();
    run.error = undefined;
    const deadline = startDeadline(this.runTimeoutMs, options.signal);
    try {
      await body({ ...options, signal: deadline.signal });
      // a deadline that passed while a step swallowed the abort still ends the run
      if (deadline.expired && run.status === 'running') throw new Error(deadline.message);
    } catch (err) {
      if (deadline.expired && !options.signal?.aborted) {
        await this.steps.finishUnconfirmed(run, deadline.message, deadline.message, options);
      } else {
        const reason = options.signal?.aborted ? 'cancelled' : publicReason(err, this.options.log);
        await this.steps.finish(run, 'failed', reason, options);
      }
    } finally {
      deadline.dispose();
    }
    return run;
  }

}
