/**
 * bench/realistic's `methods` set: 35 requests over one seeded table, each stating its method; the
 * checker (run in the real sandbox) accepts a program that computes the stated method and rejects
 * one that computes the usual default, an object dump, and an answer that hedges with both.
 */
import { describe, expect, it } from 'vitest';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { METHOD_REQUESTS } from '../../bench/realistic/cases/methods.js';
import { judgeNumbers } from '../../bench/realistic/method-check.js';
import { requestsOfKind } from '../../bench/realistic/requests.js';
import { parseRealisticArgs } from '../../bench/realistic/args.js';
import { statedMethods } from '../../src/agent/requirements/index.js';

const executor = new BubblewrapExecutor({ limits: { wallTimeS: 20 } });

/** The line between the two programs' outputs in {@link bothPrograms}. */
const BETWEEN = '--- the next program ---';

/**
 * Two programs in one sandbox run (the imports paid once): each prints the values of its Python
 * expression over measures.csv at `decimals`, the first's output, then {@link BETWEEN}, then the second's.
 */
function bothPrograms(first: string, second: string, decimals: number): string {
  const prints = (expression: string) => [`for v in (${expression}):`, `    print(f"{float(v):.${decimals}f}")`];
  return [
    'import json, statistics',
    'import numpy as np, pandas as pd',
    'from scipy import stats',
    'from decimal import Decimal, ROUND_HALF_UP',
    "df = pd.read_csv('measures.csv')",
    ...prints(first),
    `print(${JSON.stringify(BETWEEN)})`,
    ...prints(second),
  ].join('\n');
}

/** The checker's verdicts on what the stated method's program and the usual default's print. */
async function verdicts(request: (typeof METHOD_REQUESTS)[number]) {
  const code = bothPrograms(request.method.right, request.method.wrong, request.method.decimals);
  const result = await executor.execute(code, { inputFiles: request.inputFiles });
  expect(result.success, result.stderr).toBe(true);
  const [right, wrong] = result.stdout.split(`${BETWEEN}\n`) as [string, string];
  const judge = (stdout: string) => request.check({ stdout, artifacts: [] }, { executor });
  return { good: await judge(right), bad: await judge(wrong) };
}

describe('the methods set', () => {
  it('has at least 30 requests with unique ids, each stating a method the agent recognises, selected by --kind methods', () => {
    expect(METHOD_REQUESTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(METHOD_REQUESTS.map((r) => r.id)).size).toBe(METHOD_REQUESTS.length);
    for (const r of METHOD_REQUESTS) expect(statedMethods(r.requirement).length, r.id).toBeGreaterThan(0);
    expect(requestsOfKind('methods')).toEqual(METHOD_REQUESTS);
    expect(parseRealisticArgs(['--kind', 'methods', '--ids', 'pop-std-x']).ids).toEqual(['pop-std-x']);
  });

  describe.each(METHOD_REQUESTS.map((r) => [r.id, r] as const))('%s', (_id, request) => {
    it('passes the stated method and fails the usual default', { timeout: 60_000 }, async () => {
      const { good, bad } = await verdicts(request);
      expect(good.pass, good.reason).toBe(true);
      expect(bad.pass, bad.reason).toBe(false);
    });
  });

  it('fails an object dump and an answer that prints both methods', () => {
    expect(judgeNumbers('0    True\nName: x, dtype: bool', 0, [1], [])).toMatchObject({ pass: false, reason: 'printed a pandas/NumPy object dump, not the values' });
    expect(judgeNumbers('population: 9.0351\nsample: 9.1307', 4, [9.035099], [9.130711])).toMatchObject({ pass: false });
    expect(judgeNumbers('std = 9.0351', 4, [9.035099], [9.130711]).pass).toBe(true);
    expect(judgeNumbers('std = 9.04', 4, [9.035099], [9.130711]).pass).toBe(false); // fewer decimals than asked
  });
});
