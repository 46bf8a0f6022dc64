/**
 * One request's LLM calls in the order the agent makes them, on one provider setting:
 * the first attempt, the checks derived from the request, a fix attempt after a failed execution,
 * then an improve attempt from user feedback and the checks derived again. Each call is timed by the local provider; the first
 * attempt's code is executed in the real sandbox and scored by the request's own checker.
 */
import type { Attempt, Run } from '../../src/history/types.js';
import type { CompletionTiming } from '../../src/llm/local.js';
import type { LlmProvider } from '../../src/llm/types.js';
import type { ExecutionResult, Executor } from '../../src/sandbox/types.js';
import { buildMessages } from '../../src/agent/loop/index.js';
import { newAttempt } from '../../src/agent/run/index.js';
import { deriveChecks, requestSoFar } from '../../src/agent/verification/index.js';
import { extractCode } from '../../src/agent/replies/index.js';
import type { RealisticRequest } from '../realistic/types.js';

/** What kind of call a timing belongs to. */
export type CallKind = 'first' | 'checks' | 'fix' | 'improve';

/** One timed call. */
export interface TimedCall {
  request: string;
  kind: CallKind;
  /** 0-based position of the request in the run (the first request finds an empty cache). */
  position: number;
  timing: CompletionTiming;
  /** The reply, to compare settings (greedy decoding: the same with and without prediction). */
  content: string;
}

/** The feedback of the improve attempt, the same for every request. */
export const IMPROVE_FEEDBACK = 'Also print how long the whole computation took, in seconds.';

/**
 * The execution result a fix attempt is told about when the first attempt did not fail (the usual
 * case): a plain runtime error, so that every request gets a fix attempt of the same shape.
 */
export function stockFailure(): ExecutionResult {
  return {
    success: false,
    stdout: '',
    stderr: 'Traceback (most recent call last):\n  File "main.py", line 1, in <module>\nRuntimeError: the program stopped before printing its results',
    exitCode: 1,
    signal: null,
    timedOut: false,
    limitHit: null,
    durationMs: 120,
    artifacts: [],
  };
}

/** What {@link runScenario} needs. */
export interface ScenarioContext {
  llm: LlmProvider;
  /** The provider's timings (the scenario reads the last one after each call). */
  timings: CompletionTiming[];
  executor: Executor;
  /** Folder for this request's artifacts. */
  artifactDir: string;
}

/** Result of one request on one setting. */
export interface ScenarioResult {
  calls: TimedCall[];
  /** The request's checker accepted the first attempt's output. */
  firstPass: boolean;
}

/** Runs one request's calls (see the module doc). */
export async function runScenario(ctx: ScenarioContext, request: RealisticRequest, position: number): Promise<ScenarioResult> {
  const calls: TimedCall[] = [];
  const now = new Date().toISOString();
  const run: Run = {
    id: `bench-${request.id}`,
    conversationId: 'bench',
    requirement: request.requirement,
    status: 'running',
    attempts: [],
    createdAt: now,
    updatedAt: now,
  };
  const call = async (kind: CallKind, next: Attempt): Promise<Attempt> => {
    const completion = await ctx.llm.complete(buildMessages(run, next));
    calls.push({ request: request.id, kind, position, timing: ctx.timings.at(-1)!, content: completion.content });
    const extracted = extractCode(completion.content);
    if ('code' in extracted) next.code = extracted.code;
    else next.error = extracted.error;
    next.usage = completion.usage;
    run.attempts.push(next);
    return next;
  };

  const first = await call('first', newAttempt(run, 'requirement', ''));
  const checks = async () => {
    const derived = await deriveChecks(ctx.llm, requestSoFar(run));
    calls.push({ request: request.id, kind: 'checks', position, timing: ctx.timings.at(-1)!, content: derived.code });
  };
  await checks();
  const result = first.code
    ? await ctx.executor.execute(first.code, { inputFiles: request.inputFiles, artifactDir: ctx.artifactDir })
    : undefined;
  const verdict = result ? await request.check({ stdout: result.stdout, artifacts: result.artifacts }, { executor: ctx.executor }).catch(() => ({ pass: false })) : { pass: false };
  first.result = result && !result.success ? result : stockFailure();

  const fix = await call('fix', newAttempt(run, 'error', ''));
  fix.result = { ...stockFailure(), success: true, stdout: '(the results)', stderr: '', exitCode: 0 };
  await call('improve', newAttempt(run, 'feedback', '', IMPROVE_FEEDBACK));
  await checks(); // the agent derives the checks again after feedback
  return { calls, firstPass: verdict.pass };
}
