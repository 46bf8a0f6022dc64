/**
 * Combines the `--json` summaries of shards of one evaluation (runs over disjoint `--offset` /
 * `--limit` ranges, e.g. one per core) into one summary, so the full figure can be computed in
 * parallel and printed as if it had been one run.
 */
import type { EvalSummary } from './report.js';
import { checkShards, readSummaries as readFiles } from '../shared/summary-file.js';

/** The settings every shard must share for their results to be comparable. */
const SETTINGS = ['provider', 'retries', 'separate', 'examples', 'verify'] as const;

/**
 * Merges shard summaries in the order given.
 * @param shards - `{ file, summary }` pairs; `file` only names the shard in errors.
 * @throws {UsageError} when there are no shards, when a shard's settings differ from the first one's
 *   (naming the file and the setting), or when a problem appears in two shards.
 */
export function mergeSummaries(shards: readonly { file: string; summary: EvalSummary }[]): EvalSummary {
  checkShards(shards, SETTINGS, (s) => s.results.map((r) => r.taskId));
  return {
    ...shards[0]!.summary,
    results: shards.flatMap((s) => s.summary.results),
    timings: shards.flatMap((s) => s.summary.timings),
  };
}

/**
 * Reads `--json` files written by agent-eval.
 * @throws {UsageError} naming the file when it cannot be read or is not a summary.
 */
export function readSummaries(files: readonly string[]): { file: string; summary: EvalSummary }[] {
  return readFiles<EvalSummary>(
    files,
    (x) => Array.isArray((x as EvalSummary | null)?.results) && Array.isArray((x as EvalSummary).timings),
    'an agent-eval --json summary (no results/timings arrays)',
  );
}
