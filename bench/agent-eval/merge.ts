/**
 * Combines the `--json` summaries of shards of one evaluation (runs over disjoint `--offset` /
 * `--limit` ranges, e.g. one per core) into one summary, so the full figure can be computed in
 * parallel and printed as if it had been one run.
 */
import { readFileSync } from 'node:fs';
import type { EvalSummary } from './report.js';
import { UsageError } from './errors.js';

/** The settings every shard must share for their results to be comparable. */
const SETTINGS = ['provider', 'retries', 'separate', 'examples', 'verify'] as const;

/**
 * Merges shard summaries in the order given.
 * @param shards - `{ file, summary }` pairs; `file` only names the shard in errors.
 * @throws {UsageError} when there are no shards, when a shard's settings differ from the first one's
 *   (naming the file and the setting), or when a problem appears in two shards.
 */
export function mergeSummaries(shards: readonly { file: string; summary: EvalSummary }[]): EvalSummary {
  const [first] = shards;
  if (!first) throw new UsageError('--merge: give at least one --json file');
  const seen = new Map<string, string>();
  for (const { file, summary } of shards) {
    for (const key of SETTINGS) {
      if (summary[key] !== first.summary[key]) {
        throw new UsageError(
          `--merge: ${file} has ${key} ${JSON.stringify(summary[key])}, but ${first.file} has ${JSON.stringify(first.summary[key])}`,
        );
      }
    }
    for (const r of summary.results) {
      const other = seen.get(r.taskId);
      if (other) throw new UsageError(`--merge: ${r.taskId} is in both ${other} and ${file}`);
      seen.set(r.taskId, file);
    }
  }
  return {
    ...first.summary,
    results: shards.flatMap((s) => s.summary.results),
    timings: shards.flatMap((s) => s.summary.timings),
  };
}

/**
 * Reads `--json` files written by agent-eval.
 * @throws {UsageError} naming the file when it cannot be read or is not a summary.
 */
export function readSummaries(files: readonly string[]): { file: string; summary: EvalSummary }[] {
  return files.map((file) => {
    let summary: EvalSummary;
    try {
      summary = JSON.parse(readFileSync(file, 'utf8')) as EvalSummary;
    } catch (err) {
      throw new UsageError(`--merge: cannot read ${file}: ${(err as Error).message}`);
    }
    if (!Array.isArray(summary?.results) || !Array.isArray(summary.timings)) {
      throw new UsageError(`--merge: ${file} is not an agent-eval --json summary (no results/timings arrays)`);
    }
    return { file, summary };
  });
}
