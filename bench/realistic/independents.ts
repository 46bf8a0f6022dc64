/**
 * What the independent programs of a run printed, for the two-against-one measurement: an
 * executor that passes every execution through and keeps the results of independent programs
 * (the agreement step runs them with an artifact dir named `independent-<attempt>-<n>`), and the
 * scoring of each with the request's checker.
 */
import { basename } from 'node:path';
import type { ExecuteOptions, ExecutionResult, Executor } from '../../src/sandbox/types.js';
import { agreeEitherWay, answerAgrees } from '../../src/agent/verification/index.js';
import type { Run } from '../../src/history/types.js';
import type { RealisticRequest } from './types.js';

/** One independent program's execution. */
export interface IndependentExecution {
  attempt: number;
  n: number;
  result: ExecutionResult;
}

/** An executor that records the independent programs' executions of the wrapped one. */
export class RecordingExecutor implements Executor {
  private kept: IndependentExecution[] = [];
  constructor(readonly inner: Executor) {}
  async execute(code: string, options?: ExecuteOptions): Promise<ExecutionResult> {
    const result = await this.inner.execute(code, options);
    const m = options?.artifactDir ? /^independent-(\d+)-(\d+)$/.exec(basename(options.artifactDir)) : null;
    if (m) this.kept.push({ attempt: Number(m[1]), n: Number(m[2]), result });
    return result;
  }
  check(): Promise<void> {
    return this.inner.check();
  }
  async close(): Promise<void> {
    await this.inner.close?.();
  }
  environment(): ReturnType<NonNullable<Executor['environment']>> {
    if (!this.inner.environment) throw new Error('the wrapped executor does not probe its environment');
    return this.inner.environment();
  }
  cachedEnvironment(): ReturnType<NonNullable<Executor['cachedEnvironment']>> {
    return this.inner.cachedEnvironment?.();
  }
  /** The executions recorded since the last call. */
  take(): IndependentExecution[] {
    const out = this.kept;
    this.kept = [];
    return out;
  }
}

/** One agreement step of a run, scored: the attempt's output and each independent program's, by the checker. */
export interface ScoredAgreement {
  attempt: number;
  /** The checker's verdict on the attempt's output. */
  attemptPass: boolean;
  /** Each independent program that printed something: the checker's verdict and the start of its output. */
  programs: { pass: boolean; stdout: string }[];
  /** Two independent programs printed, both disagree with the attempt and agree with each other. */
  twoAgainstOne: boolean;
}

/** Scores the independent programs of a run (in `kept`) and the attempts they were compared with. */
export async function scoreAgreements(request: RealisticRequest, run: Run, kept: IndependentExecution[], executor: Executor): Promise<ScoredAgreement[]> {
  const check = async (stdout: string, artifacts: ExecutionResult['artifacts']) => {
    try {
      return (await request.check({ stdout, artifacts }, { executor })).pass;
    } catch {
      return false;
    }
  };
  const out: ScoredAgreement[] = [];
  for (const attempt of [...new Set(kept.map((k) => k.attempt))]) {
    const result = run.attempts[attempt - 1]?.result;
    if (!result) continue;
    const printed = kept.filter((k) => k.attempt === attempt && k.result.success && k.result.stdout.trim() !== '');
    const programs = await Promise.all(printed.map(async (k) => ({ pass: await check(k.result.stdout, k.result.artifacts), stdout: k.result.stdout.slice(0, 400) })));
    const [a, b] = printed;
    const request_ = run.requirement;
    const twoAgainstOne =
      a !== undefined && b !== undefined &&
      agreeEitherWay(a.result.stdout, b.result.stdout, request_) &&
      !answerAgrees(result.stdout, a.result.stdout, request_) && !answerAgrees(result.stdout, b.result.stdout, request_);
    out.push({ attempt, attemptPass: await check(result.stdout, result.artifacts), programs, twoAgainstOne });
  }
  return out;
}

/**
 * The two-against-one figures of a set of scored runs: how many agreement steps ended with two
 * independent programs agreeing with each other and not with the attempt, and in how many of
 * those the independent programs' value (and the attempt's) passed the checker.
 */
export function twoAgainstOneLines(agreements: readonly ScoredAgreement[]): string[] {
  const cases = agreements.filter((a) => a.twoAgainstOne);
  const right = cases.filter((a) => a.programs[0]?.pass).length;
  const attemptRight = cases.filter((a) => a.attemptPass).length;
  const lines = [`agreement steps: ${agreements.length}; two against one: ${cases.length}`];
  if (cases.length > 0) lines.push(`  the independent programs' value right: ${right}/${cases.length}; the attempt's right: ${attemptRight}/${cases.length}; neither: ${cases.filter((a) => !a.attemptPass && !a.programs[0]?.pass).length}`);
  return lines;
}
