/**
 * Previews of the tables a program wrote (CSV, TSV, Excel): their first rows, shown in the thread
 * and the terminal under the file. The rows are read INSIDE the sandbox by the input profiler
 * (`src/data/profiler/`): a written file is as untrusted as an attached one.
 */
import { readFile } from 'node:fs/promises';
import type { Artifact, Executor, InputFile } from '../sandbox/types.js';
import { profileInputs } from './profile.js';

/** The first rows of a written table (a header row first when the file has one): at most 6 rows of at most 12 cells, each cut to 40 characters. */
export type TablePreview = NonNullable<Artifact['preview']>;

/** File name endings previewed as tables. */
const TABLE = /\.(csv|tsv|xlsx|xls)$/i;

/** Tables larger than this are not previewed, in bytes (the file is still returned whole). */
export const PREVIEW_MAX_BYTES = 32 * 1024 * 1024;

/** Most tables previewed after one execution (the others are returned without a preview). */
export const PREVIEW_MAX_FILES = 4;

/**
 * Sets `preview` on the table artifacts of an execution (at most {@link PREVIEW_MAX_FILES}, each
 * at most {@link PREVIEW_MAX_BYTES}), reading them in one sandbox execution. A table that cannot be
 * read simply gets no preview; this never throws for a file's content.
 * @returns the artifacts that got a preview
 * @throws {SandboxUnavailableError} when the sandbox cannot isolate here
 */
export async function previewTables(executor: Executor, artifacts: Artifact[], signal?: AbortSignal): Promise<Artifact[]> {
  const tables = artifacts.filter((a) => TABLE.test(a.name) && a.bytes > 0 && a.bytes <= PREVIEW_MAX_BYTES).slice(0, PREVIEW_MAX_FILES);
  if (tables.length === 0) return [];
  // neutral names in the profiler's work dir: the program's names may hold folders
  const files: InputFile[] = await Promise.all(
    tables.map(async (a, i) => ({ name: `table-${i + 1}.${TABLE.exec(a.name)![1]!.toLowerCase()}`, content: await readFile(a.path) })),
  );
  const profile = await profileInputs(executor, files, signal);
  const previewed: Artifact[] = [];
  tables.forEach((artifact, i) => {
    const rows = profile.files.find((f) => f.name === files[i]!.name)?.rows;
    if (rows && rows.length > 0) {
      artifact.preview = { rows };
      previewed.push(artifact);
    }
  });
  return previewed;
}

/**
 * A preview as aligned text lines (columns separated by two spaces, padded to the widest cell),
 * for a code block. Widths count characters; wide characters (CJK) may still misalign.
 */
export function previewLines(preview: TablePreview): string[] {
  const widths: number[] = [];
  for (const row of preview.rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return preview.rows.map((row) => row.map((cell, i) => cell + ' '.repeat((widths[i] ?? 0) - [...cell].length)).join('  ').trimEnd());
}
