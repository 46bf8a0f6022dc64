/** Every HumanEval canonical solution passes inside the sandbox (concurrency 2). */
import { describe, expect, it } from 'vitest';
import { checkProgram, loadProblems } from '../../bench/agent-eval/dataset.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { makeExecutor } from './helpers.js';

const CONCURRENCY = 2;

describe('HumanEval canonical solutions in the sandbox', () => {
  it('all pass', { timeout: 170_000 }, async () => {
    const problems = loadProblems();
    expect(problems.length).toBeGreaterThanOrEqual(164);
    const ex = makeExecutor({ limits: { wallTimeS: 15, cpuTimeS: 15 } });
    const failures: Array<{ id: string; result: ExecutionResult }> = [];
    let next = 0;
    const worker = async () => {
      while (next < problems.length) {
        const p = problems[next++]!;
        const result = await ex.execute(checkProgram(p, `${p.prompt}${p.canonical_solution}`));
        if (!result.success) failures.push({ id: p.task_id, result });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures.map((f) => `${f.id}: ${f.result.limitHit ?? ''} ${f.result.stderr.slice(-300)}`)).toEqual([]);
  });
});
