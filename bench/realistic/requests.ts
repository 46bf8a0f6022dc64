/**
 * The realistic request set of `bench/realistic`: requests written the way people type them in
 * chat, each with an independent checker. The 34 classic ones come in five kinds; the `files` kind
 * asks about generated input files. Reference programs (one right, one subtly wrong per request) are
 * in `reference/`.
 */
import { ARITHMETIC_REQUESTS } from './cases/arithmetic.js';
import { DATA_REQUESTS } from './cases/data.js';
import { DATE_REQUESTS } from './cases/dates.js';
import { CSV_FILE_REQUESTS } from './cases/files-csv.js';
import { JSON_FILE_REQUESTS } from './cases/files-json.js';
import { LOG_FILE_REQUESTS } from './cases/files-logs.js';
import { MESSY_FILE_REQUESTS } from './cases/files-messy.js';
import { METHOD_REQUESTS } from './cases/methods.js';
import { PLOT_REQUESTS } from './cases/plots.js';
import { TEXT_REQUESTS } from './cases/text.js';
import type { RealisticRequest } from './types.js';

/** The 34 classic requests, kinds interleaved (so that a `--limit` subset has a bit of each). */
export const CLASSIC_REQUESTS: readonly RealisticRequest[] = interleave([DATA_REQUESTS, PLOT_REQUESTS, TEXT_REQUESTS, ARITHMETIC_REQUESTS, DATE_REQUESTS]);

/** The `files` requests, file shapes interleaved (so that shards and `--limit` subsets mix them). */
export const FILE_REQUESTS: readonly RealisticRequest[] = interleave([JSON_FILE_REQUESTS, LOG_FILE_REQUESTS, CSV_FILE_REQUESTS, MESSY_FILE_REQUESTS]);

/** Every request, in a fixed order: the classic ones, then the `files` ones. */
export const REQUESTS: readonly RealisticRequest[] = [...CLASSIC_REQUESTS, ...FILE_REQUESTS];

/** The `methods` requests (stated statistical methods over one seeded table), run with `--kind methods` only. */
export { METHOD_REQUESTS };

/** Every request any `--kind` selects (what `--ids` may name). */
export const ALL_REQUESTS: readonly RealisticRequest[] = [...REQUESTS, ...METHOD_REQUESTS];

/** What `--kind` selects: `classic` (the five original kinds), one kind, or `all` (every kind but `methods`, which is its own set). */
export type KindSelection = 'all' | 'classic' | RealisticRequest['kind'];

/** The values `--kind` accepts. */
export const KIND_SELECTIONS: readonly KindSelection[] = ['all', 'classic', 'files', 'methods', 'data', 'plot', 'text', 'arithmetic', 'date'];

/** The requests a `--kind` selects, in the set's order. */
export function requestsOfKind(kind: KindSelection): readonly RealisticRequest[] {
  if (kind === 'all') return REQUESTS;
  if (kind === 'classic') return CLASSIC_REQUESTS;
  if (kind === 'methods') return METHOD_REQUESTS;
  return REQUESTS.filter((r) => r.kind === kind);
}

function interleave<T>(groups: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < groups.reduce((n, g) => n + g.length, 0); i++) {
    for (const g of groups) if (i < g.length) out.push(g[i]!);
  }
  return out;
}
