/**
 * Runs the agent on one realistic request and scores what the user is shown with the request's
 * checker, never with the run's status: once per verify setting, at `max_retries N`, with the
 * `max_retries 0` outcome read off the first attempt (or run on its own with `separate`).
 */
import type { Agent, VerifyMode } from '../../src/agent/loop/index.js';
import { prepareInputs, withInputFilesNote } from '../../src/chat/input-note.js';
import type { Attempt, Run } from '../../src/history/types.js';
import type { Executor, InputFile } from '../../src/sandbox/types.js';
import type { CallRecord, CountingProvider } from '../shared/counting-provider.js';
import type { CheckInput, RealisticRequest, RequestKind } from './types.js';
import { scoreAgreements, type RecordingExecutor, type ScoredAgreement } from './independents.js';

export type { VerifyMode };

/** One setting (a verify mode and a fix-loop budget) on one request. */
export interface Outcome {
  /** The checker accepted the output. */
  pass: boolean;
  /** The checker's one-line reason. */
  reason: string;
  /**
   * The run's status as the user sees it: `success` (✅), `unverified` (⚠️), `failed` (❌)… For
   * `max_retries 0` read off a longer run: that run's status when it had one attempt, else
   * `unverified` when the first attempt ran with exit 0 (a check or review disagreed) or `failed`.
   */
  status: string;
  /** Prompt + completion tokens of every LLM call. */
  tokens: number;
  /** Wall time from the requirement to the end of the run, in s. */
  seconds: number;
  /** LLM calls made (code, and any check or review calls). */
  calls: number;
  /** Attempts (versions of the code). */
  attempts: number;
  /**
   * When the thread first showed an answer (the first execution that exited 0), in s from the
   * requirement; absent when no attempt ran with exit 0.
   */
  firstAnswerSeconds?: number;
  /** Every LLM call of the setting: its kind and tokens (see `CallRecord`). */
  callRecords?: Pick<CallRecord, 'kind' | 'promptTokens' | 'completionTokens' | 'stopReason'>[];
  /** The agreement steps of the run (independent programs), each scored by the checker (see `independents.ts`). */
  agreements?: ScoredAgreement[];
  /** The start of the stdout the checker read (up to {@link SHOWN_CHARS} characters), to audit a verdict. */
  stdout?: string;
}

/** Characters of the shown stdout kept in an {@link Outcome}. */
export const SHOWN_CHARS = 1500;

/** One verify setting on one request: `max_retries 0` and `max_retries N`. */
export interface VerifyResult {
  verify: VerifyMode;
  base: Outcome;
  fixed: Outcome;
}

/** One request under every setting. */
export interface RequestResult {
  id: string;
  kind: RequestKind;
  /** One entry per verify setting, in the order given. */
  byVerify: VerifyResult[];
}

/** What the bench needs to run a request. */
export interface EvalContext {
  /** One agent per verify setting (they share `llm` and the sandbox). */
  agents: { verify: VerifyMode; agent: Agent }[];
  /** The provider every agent calls through (counts the calls). */
  llm: CountingProvider;
  /** The sandbox the checkers use to read PNGs. */
  executor: Executor;
  retries: number;
  /** The executor the agents run on, when it records the independent programs' executions. */
  recorder?: RecordingExecutor;
  /** Run `max_retries 0` on its own instead of reading it off the first attempt. */
  separate: boolean;
}

interface Timed {
  run: Run;
  calls: CallRecord[];
  start: number;
  end: number;
  /** When the first attempt was settled: the second attempt began, or the run ended. */
  firstSettled: number;
  /** When the first execution that exited 0 reported (`executed`), if one did. */
  firstAnswer?: number;
}

/**
 * The requirement and files as the agent receives them from a terminal's `code-agent run "…" --file`
 * (adapters/cli/run-command.ts): the same functions, so the bench follows any change to how attached
 * files are named and described to the model.
 */
export function asTerminalRun(request: RealisticRequest): { requirement: string; inputFiles: InputFile[] } {
  const inputs = prepareInputs(request.inputFiles ?? []);
  return { requirement: withInputFilesNote(request.requirement, inputs.files), inputFiles: inputs.files };
}

async function runAgent(agent: Agent, llm: CountingProvider, request: RealisticRequest, maxRetries: number): Promise<Timed> {
  llm.take();
  const start = performance.now();
  let firstSettled: number | undefined;
  let firstAnswer: number | undefined;
  const { requirement, inputFiles } = asTerminalRun(request);
  const run = await agent.run(`realistic:${request.id}`, requirement, {
    maxRetries,
    ...(inputFiles.length ? { inputFiles } : {}),
    onEvent: (e) => {
      const next = e.type === 'generating' && e.attempt > 1;
      if (firstSettled === undefined && (next || e.type === 'done' || e.type === 'failed')) firstSettled = performance.now();
      if (firstAnswer === undefined && e.type === 'executed' && e.result.success) firstAnswer = performance.now();
    },
  });
  const end = performance.now();
  return { run, calls: llm.take(), start, end, firstSettled: firstSettled ?? end, ...(firstAnswer !== undefined ? { firstAnswer } : {}) };
}

/** What the user is shown of attempts: the output of the last one that ran. */
function shownOutput(attempts: readonly Attempt[]): CheckInput {
  const result = [...attempts].reverse().find((a) => a.result)?.result;
  return { stdout: result?.stdout ?? '', artifacts: result?.artifacts ?? [] };
}

async function score(request: RealisticRequest, attempts: readonly Attempt[], executor: Executor) {
  const output = shownOutput(attempts);
  const stdout = output.stdout.slice(0, SHOWN_CHARS);
  try {
    return { ...(await request.check(output, { executor })), stdout };
  } catch (err) {
    return { pass: false, reason: `checker error: ${(err as Error).message}`, stdout };
  }
}

const sumTokens = (calls: readonly CallRecord[]) => calls.reduce((n, c) => n + c.tokens, 0);

const records = (calls: readonly CallRecord[]) =>
  calls.map(({ kind, promptTokens, completionTokens, stopReason }) => ({ kind, promptTokens, completionTokens, stopReason }));

const secondsAfter = (t: Timed, at: number | undefined) => (at === undefined ? {} : { firstAnswerSeconds: (at - t.start) / 1000 });

async function wholeRun(t: Timed, request: RealisticRequest, executor: Executor): Promise<Outcome> {
  const verdict = await score(request, t.run.attempts, executor);
  return {
    ...verdict,
    status: t.run.status as string,
    tokens: sumTokens(t.calls),
    seconds: (t.end - t.start) / 1000,
    calls: t.calls.length,
    attempts: t.run.attempts.length,
    ...secondsAfter(t, t.firstAnswer),
    callRecords: records(t.calls),
  };
}

/** The `max_retries 0` outcome read off the first attempt of a `max_retries N` run. */
async function firstAttempt(t: Timed, request: RealisticRequest, executor: Executor): Promise<Outcome> {
  const first = t.run.attempts.slice(0, 1);
  if (t.run.attempts.length <= 1) return wholeRun(t, request, executor);
  const calls = t.calls.filter((c) => c.endedAt <= t.firstSettled);
  const verdict = await score(request, first, executor);
  return {
    ...verdict,
    status: first[0]?.result?.success ? 'unverified' : 'failed',
    tokens: sumTokens(calls),
    seconds: (t.firstSettled - t.start) / 1000,
    calls: calls.length,
    attempts: 1,
    ...secondsAfter(t, t.firstAnswer !== undefined && t.firstAnswer <= t.firstSettled ? t.firstAnswer : undefined),
    callRecords: records(calls),
  };
}

/** Evaluates one request under every verify setting of `ctx`, at `max_retries 0` and `N`. */
export async function evaluateRequest(ctx: EvalContext, request: RealisticRequest): Promise<RequestResult> {
  const byVerify: VerifyResult[] = [];
  for (const { verify, agent } of ctx.agents) {
    ctx.recorder?.take();
    const withFix = await runAgent(agent, ctx.llm, request, ctx.retries);
    const kept = ctx.recorder?.take() ?? [];
    const fixed = await wholeRun(withFix, request, ctx.executor);
    if (kept.length > 0) fixed.agreements = await scoreAgreements(request, withFix.run, kept, ctx.executor);
    const base = ctx.separate
      ? await wholeRun(await runAgent(agent, ctx.llm, request, 0), request, ctx.executor)
      : await firstAttempt(withFix, request, ctx.executor);
    byVerify.push({ verify, base, fixed });
  }
  return { id: request.id, kind: request.kind, byVerify };
}
