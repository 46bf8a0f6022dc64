/**
 * How each candidate program read the request, in one line, from its source alone: which columns
 * it used, which rows it kept, how it grouped and what it computed ("columns sales, category · rows
 * where status >= 400 · per category · sum"). The source is parsed with Python's own `ast` module
 * in the sandbox (`reading/reading.py`, one execution for every program; nothing is run of the
 * programs themselves), no LLM call. A reading that cannot be made says so; it never fails a run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Executor } from '../../sandbox/types.js';
import { boundLine } from '../../text/cut.js';

/** Wall and CPU time of the reading execution, in s. */
const READING_TIME_S = 10;
/** Longest reading line, in characters. */
export const READING_CHARS = 200;
/** What a candidate's reading says when none could be made. */
export const NO_READING = 'its reading could not be made from its code';

/** What `reading.py` says of one program. */
interface Reading {
  columns: string[];
  filters: string[];
  groups: string[];
  aggregations: string[];
  distinct: boolean;
  error?: string;
}

let source: string | undefined;

/** The reader's Python source (kept in `src/agent/reading/`; the build does not copy it, so the compiled module finds it there). */
export function readingSource(): string {
  if (source !== undefined) return source;
  for (const rel of ['./reading.py', '../../../../src/agent/reading/reading.py']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return (source = readFileSync(path, 'utf8'));
  }
  throw new Error(`reading.py was not found next to ${fileURLToPath(import.meta.url)} nor in src/agent/reading/`);
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string').slice(0, 6) : []);

/** One line from a reading (exported for tests): columns, rows kept, grouping, computation, distinct. */
export function readingLine(r: Reading): string {
  if (r.error) return `its code does not parse (${r.error})`;
  const parts: string[] = [];
  if (r.columns.length) parts.push(`columns ${r.columns.join(', ')}`);
  parts.push(r.filters.length ? `rows where ${r.filters.join(' and ')}` : 'all rows');
  if (r.groups.length) parts.push(`per ${r.groups.join(', ')}`);
  if (r.aggregations.length) parts.push(r.aggregations.join(', '));
  if (r.distinct) parts.push('distinct values');
  return boundLine(parts.join(' · '), READING_CHARS);
}

/**
 * The reading of each program, in order ({@link NO_READING} for any that could not be read).
 * Never throws: the sandbox's refusal or failure gives every program {@link NO_READING}.
 */
export async function readPrograms(executor: Executor, codes: readonly string[], signal?: AbortSignal): Promise<string[]> {
  if (codes.length === 0) return [];
  try {
    const result = await executor.execute(readingSource(), {
      inputFiles: [{ name: 'programs.json', content: Buffer.from(JSON.stringify(codes), 'utf8') }],
      signal,
      limits: { wallTimeS: READING_TIME_S, cpuTimeS: READING_TIME_S },
    });
    const parsed: unknown = result.success ? JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') : undefined;
    if (!Array.isArray(parsed)) return codes.map(() => NO_READING);
    return codes.map((_, i) => {
      const r = parsed[i] as Partial<Reading> | undefined;
      if (!r || typeof r !== 'object') return NO_READING;
      return readingLine({
        columns: strings(r.columns),
        filters: strings(r.filters),
        groups: strings(r.groups),
        aggregations: strings(r.aggregations),
        distinct: r.distinct === true,
        ...(typeof r.error === 'string' ? { error: r.error } : {}),
      });
    });
  } catch {
    return codes.map(() => NO_READING);
  }
}
