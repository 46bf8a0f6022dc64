/**
 * `code-agent store import <dump>`: puts a dump's records into a store. Two passes over the file:
 * the first reads and checks every line (JSON, a known kind, the record's shape, each workspace
 * file's SHA-256, the header, and the end line's count and SHA-256 of the whole), and refuses the
 * dump, writing nothing, when any line fails, naming each by its number and why; the second
 * imports each record with its kind's idempotent import (`kinds.ts`): a second import of the same
 * dump changes nothing. A store failure midway stops the import (the records before it are in);
 * running it again finishes it.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { KeyvHistoryStore } from '../keyv-store.js';
import { HistoryError } from '../errors.js';
import { STORE_FORMAT_VERSION } from '../format-version.js';
import type { RecordKind } from './kinds.js';
import { RECORD_KINDS } from './registry.js';
import { DUMP_VERSION, sideOf } from './export.js';

/** A dump that is damaged, cut short or not a dump: nothing was imported. */
export class DumpRefusedError extends HistoryError {
  override name = 'DumpRefusedError';
  constructor(
    readonly file: string,
    readonly problems: { line: number; why: string }[],
  ) {
    const shown = problems.slice(0, 20).map((p) => `  line ${p.line}: ${p.why}`);
    const more = problems.length > 20 ? [`  … and ${problems.length - 20} more`] : [];
    super(`${file} was not imported (nothing was written):\n${[...shown, ...more].join('\n')}`);
  }
}

/** Counts of one kind. */
export interface KindCounts {
  imported: number;
  unchanged: number;
  skipped: number;
}

/** What an import did. */
export interface ImportReport {
  /** Record lines read (header and end excluded). */
  records: number;
  /** The dump's SHA-256 (checked against its end line). */
  sha256: string;
  kinds: Record<string, KindCounts>;
  /** Each record left out, by its line, and why. */
  skipped: { line: number; kind: string; why: string }[];
}

const KINDS = new Map<string, RecordKind>(RECORD_KINDS.map((k) => [k.kind, k]));

async function* numberedLines(file: string): AsyncGenerator<[number, string]> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) yield [++n, text];
}

/**
 * Checks a whole dump without writing anything (the first pass).
 * @returns the dump's SHA-256 and its number of record lines
 * @throws {DumpRefusedError} naming each line that fails; the file system's error when it cannot be read
 */
export async function checkDump(file: string): Promise<{ sha256: string; records: number }> {
  const problems: { line: number; why: string }[] = [];
  const hash = createHash('sha256');
  let end: { n: number; value: Record<string, unknown> } | undefined;
  let last = 0;
  for await (const [n, text] of numberedLines(file)) {
    last = n;
    if (text.trim() === '') continue;
    if (end) problems.push({ line: n, why: 'a line after the end line' });
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text) as Record<string, unknown>;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    } catch (err) {
      problems.push({ line: n, why: `not a JSON object (${(err as Error).message.slice(0, 80)})` });
      hash.update(`${text}\n`);
      continue;
    }
    if (value.kind === 'end') {
      end = { n, value };
      continue;
    }
    hash.update(`${text}\n`);
    if (n === 1) {
      if (value.kind !== 'header' || value.format !== 'code-agent-dump') problems.push({ line: n, why: 'not the header of a code-agent dump (was it made by code-agent store export?)' });
      else if (value.version !== DUMP_VERSION) problems.push({ line: n, why: `dump version ${String(value.version)}; this release reads version ${DUMP_VERSION}` });
      else if (typeof value.storeFormat !== 'number' || value.storeFormat > STORE_FORMAT_VERSION) {
        problems.push({ line: n, why: `written from a store of format version ${String(value.storeFormat)}, newer than this release's ${STORE_FORMAT_VERSION}: import it with that release or a newer one` });
      }
      continue;
    }
    const kind = KINDS.get(String(value.kind));
    const why = kind ? kind.problem(value) : `unknown kind "${String(value.kind)}" (known: ${[...KINDS.keys()].join(', ')})`;
    if (why) problems.push({ line: n, why });
  }
  const sha256 = hash.digest('hex');
  if (last === 0) problems.push({ line: 1, why: 'the file is empty' });
  else if (!end) problems.push({ line: last, why: 'the dump ends without its end line: it was cut short' });
  else {
    if (end.value.lines !== end.n - 1) problems.push({ line: end.n, why: `the end line counts ${String(end.value.lines)} lines before it, the file has ${end.n - 1}` });
    else if (end.value.sha256 !== sha256) problems.push({ line: end.n, why: 'the SHA-256 of the lines does not match the end line: the dump was changed' });
  }
  if (problems.length) throw new DumpRefusedError(file, problems.sort((a, b) => a.line - b.line));
  return { sha256, records: end!.n - 2 };
}

/**
 * Imports a dump into `store` (see the module comment).
 * @throws {DumpRefusedError} when the dump fails its check (nothing written); the store's {@link HistoryError} when a write fails
 */
export async function importDump(store: KeyvHistoryStore, file: string): Promise<ImportReport> {
  const { sha256, records } = await checkDump(file);
  const side = sideOf(store);
  const memo = new Map<string, unknown>();
  const report: ImportReport = { records, sha256, kinds: {}, skipped: [] };
  for (const kind of RECORD_KINDS) report.kinds[kind.kind] = { imported: 0, unchanged: 0, skipped: 0 };
  for await (const [n, text] of numberedLines(file)) {
    if (text.trim() === '') continue;
    const value = JSON.parse(text) as Record<string, unknown>;
    const kind = KINDS.get(String(value.kind));
    if (!kind) continue; // header, end
    const outcome = await kind.import(side, value, memo);
    const counts = report.kinds[kind.kind]!;
    if (outcome === 'imported' || outcome === 'unchanged') counts[outcome]++;
    else {
      counts.skipped++;
      report.skipped.push({ line: n, kind: kind.kind, why: outcome.skipped });
    }
  }
  return report;
}
