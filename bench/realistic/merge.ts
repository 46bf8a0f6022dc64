/** Combines the `--json` summaries of shards (disjoint `--offset`/`--limit` ranges) into one. */
import { checkShards, readSummaries as readFiles } from '../shared/summary-file.js';
import type { RealisticSummary } from './report.js';

/** The settings every shard must share for their results to be comparable. */
const SETTINGS = ['provider', 'retries', 'verify', 'separate'] as const;

/**
 * Merges shard summaries in the order given.
 * @throws {UsageError} when there are no shards, settings differ, or a request is in two shards.
 */
export function mergeSummaries(shards: readonly { file: string; summary: RealisticSummary }[]): RealisticSummary {
  checkShards(shards, SETTINGS, (s) => s.results.map((r) => r.id));
  return {
    ...shards[0]!.summary,
    results: shards.flatMap((s) => s.summary.results),
    timings: shards.flatMap((s) => s.summary.timings),
  };
}

/**
 * Reads `--json` files written by bench/realistic.
 * @throws {UsageError} naming the file when it cannot be read or is not such a summary.
 */
export function readSummaries(files: readonly string[]): { file: string; summary: RealisticSummary }[] {
  return readFiles<RealisticSummary>(
    files,
    (x) => Array.isArray((x as RealisticSummary | null)?.results) && Array.isArray((x as RealisticSummary).verify),
    'a bench/realistic --json summary (no results/verify arrays)',
  );
}
