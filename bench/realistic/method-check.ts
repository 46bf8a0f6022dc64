/**
 * The checker of the `methods` requests (`cases/methods.ts`): the expected values are computed by
 * the stated method with pandas, NumPy, SciPy and `decimal`, in the sandbox, on the attached file
 * (every request's in one sandbox run, at the first check); the answer passes when it prints every
 * expected value at the decimals asked, none of the values the usual wrong method gives, and no
 * pandas or NumPy object dump.
 */
import type { Executor } from '../../src/sandbox/types.js';
import { numbersIn } from './parse.js';
import { bad, file, ok, type RealisticRequest, type Verdict } from './types.js';
import { MEASURES_CSV } from './gen/measures.js';

/** The file every `methods` request is asked about. */
export const MEASURES_FILE = 'measures.csv';

/** A printed pandas or NumPy object where values were asked (`Name: x, dtype: float64`, `Length: 48`, `[48 rows x 3 columns]`). */
export const OBJECT_DUMP = /\bdtype: \w+|^Length: \d+|\[\d+ rows x \d+ columns\]|\barray\(\[/m;

/** A request's two Python expressions (lists over `df`, measures.csv): the stated method's and the usual wrong method's. */
interface Methods {
  right: string;
  wrong: string;
}

/** What the checker's sandbox run computed for one request: both methods' values, or the Python error's last line. */
type Computed = { right: number[]; wrong: number[] } | { error: string };

/** Every `methods` request made so far (by {@link methodRequest}), by id: what the next sandbox run computes. */
const registered = new Map<string, Methods>();
/** The sandbox runs started, by the key of each request they compute (id, right and wrong expressions). */
const cache = new Map<string, Promise<Record<string, Computed>>>();

const keyOf = (id: string, m: Methods) => `${id}\0${m.right}\0${m.wrong}`;

/**
 * One Python program that computes the given requests' values on measures.csv and prints one JSON
 * object: id → `{right, wrong}` (floats) or `{error}` (the exception's last line), so one request's
 * failing expression fails only its own check.
 */
function checkerScript(requests: ReadonlyMap<string, Methods>): string {
  const lines = [
    'import json, statistics',
    'import numpy as np, pandas as pd',
    'from scipy import stats',
    'from decimal import Decimal, ROUND_HALF_UP',
    `df = pd.read_csv(${JSON.stringify(MEASURES_FILE)})`,
    'out = {}',
  ];
  for (const [id, m] of requests) {
    lines.push(
      'try:',
      `    out[${JSON.stringify(id)}] = {"right": [float(v) for v in (${m.right})], "wrong": [float(v) for v in (${m.wrong})]}`,
      'except Exception as e:',
      `    out[${JSON.stringify(id)}] = {"error": f"{type(e).__name__}: {e}"}`,
    );
  }
  lines.push('print(json.dumps(out))');
  return lines.join('\n');
}

/**
 * The stated method's values and the usual wrong method's for request `id`, computed in the sandbox
 * on measures.csv. The first call computes every registered request not computed yet in one sandbox
 * run (the imports and the sandbox's start paid once, not once per request); later calls reuse it.
 * @throws when the run fails, or when this request's expressions raise (`the checker of <id> failed: …`)
 */
async function expectedValues(executor: Executor, id: string, right: string, wrong: string): Promise<{ right: number[]; wrong: number[] }> {
  const key = keyOf(id, { right, wrong });
  let pending = cache.get(key);
  if (!pending) {
    const batch = new Map([...registered].filter(([i, m]) => !cache.has(keyOf(i, m))));
    batch.set(id, { right, wrong });
    const run = executor.execute(checkerScript(batch), { inputFiles: [file(MEASURES_FILE, MEASURES_CSV)] }).then((r) => {
      if (!r.success) throw new Error(`the checker of ${[...batch.keys()].join(', ')} failed: ${r.stderr.trim().split('\n').at(-1)}`);
      return JSON.parse(r.stdout) as Record<string, Computed>;
    });
    for (const [i, m] of batch) cache.set(keyOf(i, m), run);
    pending = run;
  }
  const computed = (await pending)[id]!;
  if ('error' in computed) throw new Error(`the checker of ${id} failed: ${computed.error}`);
  return computed;
}

/**
 * Judges printed output against the expected values: each right value must appear rounded to
 * `decimals` (or more precisely), no wrong value (one that differs from every right value at that
 * precision) may appear, and no object dump.
 */
export function judgeNumbers(stdout: string, decimals: number, right: readonly number[], wrong: readonly number[]): Verdict {
  if (OBJECT_DUMP.test(stdout)) return bad('printed a pandas/NumPy object dump, not the values');
  const tol = 0.5 * 10 ** -decimals + 1e-9;
  const printed = numbersIn(stdout);
  const near = (a: number, b: number) => Math.abs(a - b) <= tol * (1 + 1e-9);
  const missing = right.filter((v) => !printed.some((n) => near(n, v)));
  if (missing.length > 0) return bad(`expected ${right.map((v) => v.toFixed(decimals)).join(', ')}; printed ${printed.slice(0, 8).join(', ') || 'no number'}`);
  const wrongOnly = wrong.filter((w) => !right.some((v) => near(v, w)));
  const hedged = wrongOnly.find((w) => printed.some((n) => near(n, w)));
  if (hedged !== undefined) return bad(`also printed ${hedged.toFixed(decimals)}, the value of the method the request rules out`);
  return ok(right.map((v) => v.toFixed(decimals)).join(', '));
}

/** A request of the `methods` set, with the method its checker computes. */
export interface MethodRequest extends RealisticRequest {
  method: { decimals: number; right: string; wrong: string };
}

/**
 * A request of the `methods` set.
 * @param decimals the decimals the requirement asks for (0 for a count)
 * @param right a Python expression (a list) of the values by the stated method, `df` being measures.csv
 * @param wrong the same by the method the request rules out (the usual default)
 */
export function methodRequest(id: string, requirement: string, decimals: number, right: string, wrong: string): MethodRequest {
  registered.set(id, { right, wrong });
  return {
    id,
    method: { decimals, right, wrong },
    kind: 'methods',
    requirement,
    inputFiles: [file(MEASURES_FILE, MEASURES_CSV)],
    check: async ({ stdout }, { executor }) => {
      const expected = await expectedValues(executor, id, right, wrong);
      return judgeNumbers(stdout, decimals, expected.right, expected.wrong);
    },
  };
}
