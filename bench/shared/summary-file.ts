/** The `--json` summary files of the benchmarks: written after every problem, read by `--merge`. */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { UsageError } from './errors.js';

/** Writes a summary as `--json` (replacing the file atomically, so a reader never sees half of it). */
export function writeSummary(file: string, summary: unknown): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(summary, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * Reads `--json` files written by a bench.
 * @param isSummary - tells a summary of this bench from any other JSON.
 * @param what - names the bench in the error, e.g. `an agent-eval --json summary (no results/timings arrays)`.
 * @throws {UsageError} naming the file when it cannot be read or is not a summary.
 */
export function readSummaries<S>(files: readonly string[], isSummary: (x: unknown) => boolean, what: string): { file: string; summary: S }[] {
  return files.map((file) => {
    let summary: unknown;
    try {
      summary = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UsageError(`--merge: cannot read ${file}: ${(err as Error).message}`);
    }
    if (!isSummary(summary)) throw new UsageError(`--merge: ${file} is not ${what}`);
    return { file, summary: summary as S };
  });
}

/**
 * Checks that shards can be merged: the same settings, and no problem in two shards.
 * @param settings - keys of the summary every shard must share.
 * @param idsOf - the problem ids of a summary.
 * @throws {UsageError} when there are no shards, when a shard's settings differ from the first one's
 *   (naming the file and the setting), or when a problem appears in two shards.
 */
export function checkShards<S extends object>(
  shards: readonly { file: string; summary: S }[],
  settings: readonly (keyof S)[],
  idsOf: (s: S) => string[],
): void {
  const [first] = shards;
  if (!first) throw new UsageError('--merge: give at least one --json file');
  const seen = new Map<string, string>();
  for (const { file, summary } of shards) {
    for (const key of settings) {
      if (JSON.stringify(summary[key]) !== JSON.stringify(first.summary[key])) {
        throw new UsageError(
          `--merge: ${file} has ${String(key)} ${JSON.stringify(summary[key])}, but ${first.file} has ${JSON.stringify(first.summary[key])}`,
        );
      }
    }
    for (const id of idsOf(summary)) {
      const other = seen.get(id);
      if (other) throw new UsageError(`--merge: ${id} is in both ${other} and ${file}`);
      seen.set(id, file);
    }
  }
}
