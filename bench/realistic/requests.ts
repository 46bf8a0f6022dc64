/**
 * The realistic request set of `bench/realistic`: 34 requests written the way people type them in
 * chat, in five kinds, each with an independent checker. Reference programs (one right, one subtly
 * wrong per request) are in `reference/`.
 */
import { ARITHMETIC_REQUESTS } from './cases/arithmetic.js';
import { DATA_REQUESTS } from './cases/data.js';
import { DATE_REQUESTS } from './cases/dates.js';
import { PLOT_REQUESTS } from './cases/plots.js';
import { TEXT_REQUESTS } from './cases/text.js';
import type { RealisticRequest } from './types.js';

/** Every request, in a fixed order (kinds interleaved, so that a `--limit` subset has a bit of each). */
export const REQUESTS: readonly RealisticRequest[] = interleave([DATA_REQUESTS, PLOT_REQUESTS, TEXT_REQUESTS, ARITHMETIC_REQUESTS, DATE_REQUESTS]);

function interleave<T>(groups: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < groups.reduce((n, g) => n + g.length, 0); i++) {
    for (const g of groups) if (i < g.length) out.push(g[i]!);
  }
  return out;
}
