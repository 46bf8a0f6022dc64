/** Every HumanEval canonical solution passes inside the sandbox (concurrency 2). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { makeExecutor } from './helpers.js';

/** The steering repo's shared/ sits beside this checkout (tests run from the repo root). */
const DATASET = resolve(process.env.CODE_AGENT_HUMANEVAL ?? '../shared/datasets/humaneval/HumanEval.jsonl.gz');
const CONCURRENCY = 2;

interface Problem {
  task_id: string;
  prompt: string;
  canonical_solution: string;
  test: string;
  entry_point: string;
}

describe('HumanEval canonical solutions in the sandbox', () => {
  it('all pass', { timeout: 170_000 }, async () => {
    const problems = gunzipSync(readFileSync(DATASET))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Problem);
    expect(problems.length).toBeGreaterThanOrEqual(164);
    const ex = makeExecutor({ limits: { wallTimeS: 15, cpuTimeS: 15 } });
    const failures: Array<{ id: string; result: ExecutionResult }> = [];
    let next = 0;
    const worker = async () => {
      while (next < problems.length) {
        const p = problems[next++]!;
        const program = `${p.prompt}${p.canonical_solution}\n${p.test}\ncheck(${p.entry_point})\n`;
        const result = await ex.execute(program);
        if (!result.success) failures.push({ id: p.task_id, result });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures.map((f) => `${f.id}: ${f.result.limitHit ?? ''} ${f.result.stderr.slice(-300)}`)).toEqual([]);
  });
});
