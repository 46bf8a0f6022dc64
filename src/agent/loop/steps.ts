/**
 * The steps of a run, shared by the agent's entry points and the fix loop (`fix-loop.ts`, which
 * decides whether another attempt can help): make an attempt (LLM), execute it (sandbox), derive
 * and repair its checks, review it, and finish the run. Every step stores the run and emits its
 * events.
 */
import { join } from 'node:path';
import type { Attempt, AttemptTrigger, Run } from '../../history/types.js';
import {
  type AgentEvent,
  emit,
  type CallOptions,
  safeSegment,
  keepFullOutput,
  keepWritten,
  ERROR_MAX_CHARS,
  newAttempt,
  type StepsOptions,
  type TurnOptions,
} from '../run/index.js';
import { askForProgram, samplingAfter, systemPrompt, codeStreamer } from '../replies/index.js';
import { buildMessages } from './conversation.js';
import { librariesSentence } from '../failures/index.js';
import {
  brokenCheck,
  deriveChecks,
  reviewResult,
  requestSoFar,
  judgeAttempt,
  keptAttempt,
  type Verdict,
  checksFromReply,
  trailingChecks,
  checksRequest,
  readCheckReport,
  lastResortAttempt,
  lastResortReason,
} from '../verification/index.js';
import { previewTables } from '../../data/table-preview.js';
import { boundLine } from '../../text/cut.js';
import { profileRunInputs } from '../reading/index.js';
import { unmetRequirements } from '../requirements/index.js';
import { forPurpose } from '../../log/scope.js';
import { BudgetRefusedError } from '../../usage/reservations.js';
import { withTeamModule } from '../../memory/helpers.js';

/** The steps of runs (see the module doc). */
export class RunSteps {
  constructor(private readonly options: StepsOptions) {}

  private get usesChecks(): boolean {
    return this.options.verify === 'checks' || this.options.verify === 'both';
  }

  /** The system prompt of a program's LLM call, naming the packages the sandbox's probe found. */
  async systemPrompt(run: Run, signal?: AbortSignal): Promise<string> {
    const tools = (await this.options.tools?.describe(run.conversationId, signal)) ?? '';
    return systemPrompt(librariesSentence(await this.options.environment()), tools);
  }

  private get usesReview(): boolean {
    return this.options.verify === 'review' || this.options.verify === 'both';
  }

  /**
   * Ends a run that was not confirmed: when some attempt ran with exit 0, the best of them (most
   * checks passed, then earliest) is the answer and the run is `unverified`; else it `failed`.
   * An earlier attempt kept as the answer is appended as a `rerun` (result copied, not executed).
   * @param reason why the last attempt was not confirmed
   * @param stop why the run stops before its retries are spent, if it does (then it is the run's error)
   * @param how `timeUp`: the run's time is up (its budget or deadline): with no attempt that ran,
   *   one that printed a plausible answer before it failed is shown, unconfirmed (`../verification/last-resort.ts`)
   */
  async finishUnconfirmed(run: Run, reason: string, stop: string | undefined, options: CallOptions, how: { timeUp?: boolean } = {}): Promise<void> {
    const kept = keptAttempt(run);
    if (!kept) {
      const partial = how.timeUp ? lastResortAttempt(run) : undefined;
      if (partial) {
        if (partial !== run.attempts.at(-1)) run.attempts.push({ ...newAttempt(run, 'rerun', partial.code), keptFrom: partial.index, result: partial.result });
        await this.finish(run, 'unverified', lastResortReason(stop ?? reason, partial), options);
        return;
      }
      await this.finish(run, 'failed', stop ?? reason, options);
      return;
    }
    if (kept !== run.attempts.at(-1)) {
      run.attempts.push({ ...newAttempt(run, 'rerun', kept.code), keptFrom: kept.index, result: kept.result });
    }
    const verdict = judgeAttempt(kept, run);
    const why = kept.review && !kept.review.ok ? `the review found a defect: ${kept.review.defect}` : verdict.kind === 'ran' ? verdict.reason : reason;
    await this.finish(run, 'unverified', stop ?? why, options);
  }

  /** With review on, asks the LLM to review a confirmed attempt; a defect makes the verdict `ran`. */
  async review(run: Run, attempt: Attempt, verdict: Verdict, options: CallOptions): Promise<Verdict> {
    if (verdict.kind !== 'confirmed' || !this.usesReview || !attempt.result) return verdict;
    const review = await forPurpose('review', () => reviewResult(this.options.llm, requestSoFar(run), attempt.code, attempt.result!, options.signal));
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
  async repairChecks(run: Run, attempt: Attempt, options: CallOptions): Promise<void> {
    const report = attempt.result?.checks;
    if (!run.checks || !report) return;
    const broken = brokenCheck(report, requestSoFar(run));
    if (broken === undefined) return;
    if (run.checks.repairOf !== undefined || run.checks.fromReply) {
      // checks that came with the code are not written again (that would cost the call they saved)
      const why = run.checks.repairOf !== undefined ? `${run.checks.repairOf}; then ${broken}` : broken;
      run.checks = { code: '', asserts: [], usage: run.checks.usage, repairOf: why, ...(run.checks.fromReply ? { fromReply: true } : {}) };
      delete attempt.result!.checks;
      await this.save(run);
      emit(options, { type: 'checks', runId: run.id, asserts: [], dropped: [] });
      return;
    }
    emit(options, { type: 'deriving_checks', runId: run.id });
    run.checks = await forPurpose('checks', () => deriveChecks(this.options.llm, checksRequest(run), { signal: options.signal, previous: run.checks, broken }));
    emit(options, { type: 'checks', runId: run.id, asserts: run.checks.asserts, dropped: [], code: run.checks.code });
    await this.executeLatest(run, options);
    await this.repairChecks(run, attempt, options);
  }

  /**
   * With checks on, derives the run's checks from its requirement and feedback (frozen until new
   * feedback): before the first execution of a run, and again after each piece of feedback. When
   * a daily token budget refuses the call, the attempt goes on with the checks it had (none on a
   * new run) and the run stops once it is executed (`options.budgetStop`).
   */
  async deriveChecks(run: Run, options: TurnOptions): Promise<void> {
    if (!this.usesChecks) return;
    emit(options, { type: 'deriving_checks', runId: run.id });
    try {
      run.checks = await forPurpose('checks', () => deriveChecks(this.options.llm, checksRequest(run), { signal: options.signal, previous: run.checks }));
    } catch (err) {
      if (!(err instanceof BudgetRefusedError)) throw err;
      options.budgetStop = err.message;
      emit(options, { type: 'checks', runId: run.id, asserts: run.checks?.asserts ?? [], dropped: [] });
      return;
    }
    await this.save(run);
    emit(options, { type: 'checks', runId: run.id, asserts: run.checks.asserts, dropped: run.checks.dropped ?? [], code: run.checks.code });
  }

  /** Asks the LLM for the next attempt and extracts its code. */
  async makeAttempt(
    run: Run,
    trigger: AttemptTrigger,
    feedback: string | undefined,
    options: TurnOptions,
    sampling: { temperature?: number } = {},
  ): Promise<Attempt> {
    const attempt = newAttempt(run, trigger, '', feedback, options.workspace?.fingerprint);
    emit(options, { type: 'generating', runId: run.id, attempt: attempt.index, trigger, lastAttempt: Math.max(attempt.index, options.lastAttempt ?? attempt.index) });
    const streamer = () => codeStreamer((code, delta) => emit(options, { type: 'code_delta', runId: run.id, attempt: attempt.index, code, delta }));
    let onToken = streamer();
    const checksInReply = this.checksInReply(run);
    const reply = await askForProgram(this.options.llm, buildMessages(run, attempt, { system: await this.systemPrompt(run, options.signal), workspace: options.workspace?.manifest }), {
      signal: options.signal,
      onToken: (text) => onToken(text),
      onRestart: () => (onToken = streamer()),
      ...samplingAfter(run.attempts.at(-1)),
      ...(sampling.temperature !== undefined ? { temperature: sampling.temperature } : {}),
    });
    attempt.usage = reply.usage;
    // checks the model put at the end of the program (not in a ```checks block) would crash it
    const trailing = checksInReply && reply.code !== undefined ? trailingChecks(reply.code) : undefined;
    if (reply.code !== undefined) attempt.code = trailing?.code || reply.code;
    else attempt.error = reply.error;
    if (reply.fault) attempt.replyFault = reply.fault;
    run.attempts.push(attempt);
    if (checksInReply && run.checks === undefined) run.checks = checksFromReply(reply.content ?? '', trailing?.checks);
    await this.save(run);
    emit(options, { type: 'generated', runId: run.id, attempt: attempt.index, code: attempt.code, error: attempt.error });
    // without asserts nothing is said here: "judged by the exit code" would be wrong (agreement follows)
    if (checksInReply && attempt.index === 1 && run.checks && run.checks.asserts.length > 0) {
      emit(options, { type: 'checks', runId: run.id, asserts: run.checks.asserts, dropped: [], code: run.checks.code });
    }
    return attempt;
  }

  /**
   * On runs with input files, with checks on, no separate checks call is made (agreement decides the
   * values; asking for checks in the reply cost the small model right answers): checks the model
   * writes anyway in its first reply (a ```checks block, asserts on OUTPUT at the end of the program)
   * are taken out of the program and kept.
   */
  private checksInReply(run: Run): boolean {
    return this.usesChecks && (run.inputProfile?.files.length ?? 0) > 0;
  }

  /** With input files: profiles them in the sandbox, keeps the profile with the run and says what was seen. */
  async profileInputs(run: Run, options: CallOptions): Promise<void> {
    await profileRunInputs(this.options.executor, run, options);
    if (run.inputProfile) await this.save(run);
  }

  /**
   * Executes the latest attempt (if it has code) in a work dir holding the run's workspace and
   * stores its result; the files a successful execution wrote join the workspace.
   */
  async executeLatest(run: Run, options: TurnOptions): Promise<void> {
    const attempt = run.attempts.at(-1)!;
    if (!attempt.code) return;
    emit(options, { type: 'executing', runId: run.id, attempt: attempt.index });
    const artifactDir = join(this.options.artifactRoot, safeSegment(run.conversationId), run.id, String(attempt.index));
    const result = await this.options.executor.execute(attempt.code, {
      // the run's definitions as code, importable (`from team import …`): src/memory/helpers.ts
      inputFiles: withTeamModule(options.inputFiles, run.memory),
      ...(run.checks?.code ? { checks: run.checks.code } : {}),
      signal: options.signal,
      artifactDir,
      tools: this.options.tools?.brokerFor(run.conversationId),
    });
    if (result.toolCalls?.length) emit(options, { type: 'tool_calls', runId: run.id, attempt: attempt.index, calls: result.toolCalls });
    // the same values in another form ('21' and 21) are no failure; a failed check may be a guess
    if (result.checks && run.checks?.code) result.checks = await readCheckReport(run, result.checks, requestSoFar(run), checksRequest(run));
    // a table the program wrote is previewed in the thread; without a preview it is still returned
    if (result.success) await previewTables(this.options.executor, result.artifacts, options.signal).catch(() => undefined);
    // what the request states (a method, the answer's form) and the program did not follow: never confirmed
    delete attempt.unmet;
    const unmet = result.success ? await this.unmetRequirements(run, attempt.code, result.stdout, options.signal) : [];
    if (unmet.length > 0) attempt.unmet = unmet;
    const kept = await keepFullOutput(result, artifactDir);
    attempt.result = kept.stored; // bounded for the history; the full text of a cut stream is in a file
    await this.save(run);
    emit(options, { type: 'executed', runId: run.id, attempt: attempt.index, result: kept.shown });
    if (options.signal?.aborted) throw new Error('cancelled');
    if (result.success && options.workspace) {
      // a failed program's files may be half-written: they are returned, not kept for later turns
      const deps = { store: this.options.store, limits: this.options.workspaceLimits, emit: (e: AgentEvent) => emit(options, e), log: this.options.log, cache: this.options.workspaceCache };
      await keepWritten(deps, run, attempt.index, result.artifacts, options.workspace);
      options.inputFiles = options.workspace.files;
    }
  }

  /**
   * With checks on, what the request states that a program did not follow (`../requirements/methods/requirements.ts`):
   * its stated methods, read from its calls, and the answer's form. Empty with checks off.
   */
  async unmetRequirements(run: Run, code: string, stdout: string, signal?: AbortSignal): Promise<string[]> {
    if (!this.usesChecks) return [];
    return unmetRequirements(this.options.executor, requestSoFar(run), code, stdout, signal);
  }

  async finish(run: Run, status: Run['status'], error: string | undefined, options: CallOptions): Promise<Run> {
    run.status = status;
    run.error = error === undefined ? undefined : boundLine(error, ERROR_MAX_CHARS);
    delete run.runningIn;
    await this.save(run);
    emit(options, status === 'failed' ? { type: 'failed', run, reason: error ?? 'failed' } : { type: 'done', run });
    return run;
  }

  async save(run: Run): Promise<void> {
    run.updatedAt = new Date().toISOString();
    await this.options.store.saveRun(run);
  }
}
