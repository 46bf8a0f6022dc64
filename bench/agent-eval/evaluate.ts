/**
 * Runs the agent on one HumanEval problem and checks its final code with the problem's hidden
 * tests in the sandbox.
 */
import { join } from 'node:path';
import type { Agent } from '../../src/agent/loop/index.js';
import type { Attempt, Run } from '../../src/history/types.js';
import { judgeAttempt } from '../../src/agent/verification/index.js';
import type { Executor } from '../../src/sandbox/types.js';
import { checkProgram, requirementOf, type ExampleStyle, type Problem } from './dataset.js';

/** The outcome of one setting (a fix-loop budget) on one problem. */
export interface Outcome {
  /** The final code passed the hidden tests. */
  pass: boolean;
  /** Prompt + completion tokens of every LLM call. */
  tokens: number;
  /** Wall time from the requirement to the last execution, in s. */
  seconds: number;
  /** LLM calls made for code (checks and reviews are counted in `tokens`). */
  attempts: number;
  /** What the user was shown: ✅ `success`, ⚠️ `unverified` or ❌ `failed`. A silent failure is `success` without `pass`. */
  status: 'success' | 'unverified' | 'failed';
}

/** One problem under both settings. */
export interface ProblemResult {
  taskId: string;
  /** `max_retries 0`, verify off: the first attempt, judged by its exit code. */
  base: Outcome;
  /** `max_retries 0` with verification (absent with verify off): the same code, judged by its checks/review. */
  verified?: Outcome;
  /** `max_retries N`. */
  fixed: Outcome;
}

const tokensOf = (attempts: readonly Attempt[]) =>
  attempts.reduce((n, a) => n + a.usage.promptTokens + a.usage.completionTokens + (a.review ? a.review.usage.promptTokens + a.review.usage.completionTokens : 0), 0);

/** Tokens of every LLM call of a run: its attempts, their reviews and the checks. */
const runTokens = (run: Run) => tokensOf(run.attempts) + (run.checks ? run.checks.usage.promptTokens + run.checks.usage.completionTokens : 0);

/** What a finished run showed the user. */
function shown(run: Run): Outcome['status'] {
  return run.status === 'success' || run.status === 'unverified' ? run.status : 'failed';
}

/** The first attempt read as a `max_retries 0` run: with verify off (exit code) and with the run's verification. */
function firstAttemptOutcomes(run: Run, pass: boolean, seconds: number): { base: Outcome; verified?: Outcome } {
  const first = run.attempts[0];
  const base: Outcome = {
    pass,
    tokens: tokensOf(run.attempts.slice(0, 1)) - (first?.review ? first.review.usage.promptTokens + first.review.usage.completionTokens : 0),
    seconds,
    attempts: 1,
    status: first?.result?.success ? 'success' : 'failed',
  };
  if (!run.checks && !first?.review) return { base };
  const verdict = first ? judgeAttempt(first, run) : { kind: 'failed' as const };
  const reviewDefect = first?.review !== undefined && !first.review.ok;
  const checksTokens = run.checks ? run.checks.usage.promptTokens + run.checks.usage.completionTokens : 0;
  return {
    base,
    verified: {
      ...base,
      tokens: tokensOf(run.attempts.slice(0, 1)) + checksTokens,
      status: verdict.kind === 'failed' ? 'failed' : verdict.kind === 'ran' || reviewDefect ? 'unverified' : 'success',
    },
  };
}

/** The final code of a run: the code of its last attempt (empty when it had none). */
function finalCode(attempts: readonly Attempt[]): string {
  return attempts.at(-1)?.code ?? '';
}

/** Runs the hidden tests on `code`; false for empty code. */
export async function passesHiddenTests(
  executor: Executor,
  problem: Problem,
  code: string,
  workDir: string,
): Promise<boolean> {
  if (!code.trim()) return false;
  const result = await executor.execute(checkProgram(problem, code), {
    artifactDir: join(workDir, 'check', problem.task_id.replace(/\W/g, '_')),
  });
  return result.success;
}

/** Runs the agent once; also returns when the first attempt finished executing. */
async function runAgent(
  agent: Agent,
  problem: Problem,
  maxRetries: number,
  style: ExampleStyle,
): Promise<{ run: Run; seconds: number; firstAttemptSeconds: number }> {
  const start = performance.now();
  let firstDone: number | undefined;
  const run = await agent.run(`eval:${problem.task_id}`, requirementOf(problem, style), {
    maxRetries,
    onEvent: (e) => {
      if (firstDone === undefined && (e.type === 'executed' || e.type === 'improving' || e.type === 'done' || e.type === 'failed')) {
        firstDone = performance.now();
      }
    },
  });
  const end = performance.now();
  return { run, seconds: (end - start) / 1000, firstAttemptSeconds: ((firstDone ?? end) - start) / 1000 };
}

/**
 * Evaluates one problem with `max_retries 0` and `max_retries retries`.
 * With `separate` false the `max_retries 0` outcome is read off the first attempt of the fix-loop
 * run: at temperature 0 that attempt is exactly what a `max_retries 0` run produces (same prompt,
 * greedy decoding), so the comparison costs one run instead of two.
 */
export async function evaluateProblem(
  agent: Agent,
  executor: Executor,
  problem: Problem,
  options: { retries: number; separate: boolean; workDir: string; style?: ExampleStyle },
): Promise<ProblemResult> {
  const withFix = await runAgent(agent, problem, options.retries, options.style ?? 'show');
  const fixedPass = await passesHiddenTests(executor, problem, finalCode(withFix.run.attempts), options.workDir);
  const fixed: Outcome = {
    pass: fixedPass,
    tokens: runTokens(withFix.run),
    seconds: withFix.seconds,
    attempts: withFix.run.attempts.filter((a) => a.keptFrom === undefined).length,
    status: shown(withFix.run),
  };
  const source = options.separate ? await runAgent(agent, problem, 0, options.style ?? 'show') : withFix;
  const first = source.run.attempts.slice(0, 1);
  const samePass = !options.separate && finalCode(withFix.run.attempts) === finalCode(first);
  const firstPass = samePass ? fixedPass : await passesHiddenTests(executor, problem, finalCode(first), options.workDir);
  const seconds = options.separate ? source.seconds : withFix.firstAttemptSeconds;
  return { taskId: problem.task_id, ...firstAttemptOutcomes(source.run, firstPass, seconds), fixed };
}
