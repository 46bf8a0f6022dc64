/**
 * bench/realistic's `methods` set: 35 requests over one seeded table, each stating its method; the
 * checker (run in the real sandbox) accepts a program that computes the stated method and rejects
 * one that computes the usual default, an object dump, and an answer that hedges with both. Every
 * request's programs run in one sandbox run, and the checker computes every request's values in one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { METHOD_REQUESTS } from '../../bench/realistic/cases/methods.js';
import { judgeNumbers, type MethodRequest } from '../../bench/realistic/method-check.js';
import { requestsOfKind } from '../../bench/realistic/requests.js';
import { parseRealisticArgs } from '../../bench/realistic/args.js';
import { statedMethods } from '../../src/agent/requirements/index.js';

// one sandbox run does every request's programs (and one the checker's values): a larger wall limit than one program's
const executor = new BubblewrapExecutor({ limits: { wallTimeS: 60 } });

/** The line before a request's outputs in {@link allPrograms}, then the line between its two programs' outputs. */
const caseLine = (id: string) => `--- the programs of ${id} ---`;
const BETWEEN = '--- the next program ---';
/** The line a program that raised prints instead of its values. */
const RAISED = '--- raised: ';

/**
 * Every request's two programs in one sandbox run (the imports and the sandbox's start paid once):
 * for each request, {@link caseLine}, then the values of the stated method's Python expression over
 * measures.csv at its decimals, {@link BETWEEN}, the usual default's; a program that raises prints
 * {@link RAISED} and its error instead of its values, and the next request's programs still run.
 */
function allPrograms(requests: readonly MethodRequest[]): string {
  const prints = (expression: string, decimals: number) => [
    '    try:',
    `        for v in (${expression}):`,
    `            print(f"{float(v):.${decimals}f}")`,
    '    except Exception as e:',
    `        print(${JSON.stringify(RAISED)} + f"{type(e).__name__}: {e}")`,
  ];
  return [
    'import json, statistics',
    'import numpy as np, pandas as pd',
    'from scipy import stats',
    'from decimal import Decimal, ROUND_HALF_UP',
    "df = pd.read_csv('measures.csv')",
    ...requests.flatMap((r, i) => [
      `def programs_${i}():`,
      `    print(${JSON.stringify(caseLine(r.id))})`,
      ...prints(r.method.right, r.method.decimals),
      `    print(${JSON.stringify(BETWEEN)})`,
      ...prints(r.method.wrong, r.method.decimals),
      `programs_${i}()`,
    ]),
  ].join('\n');
}

/** The outputs of every request's two programs (one sandbox run), by request id. */
let outputs: Map<string, { right: string; wrong: string }>;

beforeAll(async () => {
  const result = await executor.execute(allPrograms(METHOD_REQUESTS), { inputFiles: METHOD_REQUESTS[0]!.inputFiles });
  expect(result.success, result.stderr).toBe(true);
  outputs = new Map();
  for (const r of METHOD_REQUESTS) {
    const after = result.stdout.split(`${caseLine(r.id)}\n`)[1] ?? '';
    const [right = '', rest = ''] = after.split(`${BETWEEN}\n`);
    outputs.set(r.id, { right, wrong: rest.split(/^--- the programs of /m)[0]! });
  }
}, 120_000);

/** The checker's verdicts on what the stated method's program and the usual default's printed. */
async function verdicts(request: MethodRequest) {
  const { right, wrong } = outputs.get(request.id)!;
  expect(right, 'the stated method').not.toContain(RAISED);
  expect(wrong, 'the usual default').not.toContain(RAISED);
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
