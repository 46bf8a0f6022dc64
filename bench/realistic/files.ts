/** Reading the files a program returned: find one by name, parse a CSV. */
import { readFileSync } from 'node:fs';
import type { Artifact } from '../../src/sandbox/types.js';

/** The artifact whose base name is `name` (case-insensitive), if any. */
export function artifactNamed(artifacts: readonly Artifact[], name: string): Artifact | undefined {
  const want = name.toLowerCase();
  return artifacts.find((a) => (a.name.split('/').at(-1) ?? '').toLowerCase() === want);
}

/** Artifacts whose name ends with `.ext` (case-insensitive), e.g. `png`. */
export function artifactsWithExt(artifacts: readonly Artifact[], ext: string): Artifact[] {
  return artifacts.filter((a) => a.name.toLowerCase().endsWith(`.${ext}`));
}

/** A parsed CSV: the header row and the data rows, cells trimmed. */
export interface Csv {
  header: string[];
  rows: string[][];
}

/** Parses CSV text (commas, double-quoted cells with `""` escapes, CRLF or LF). */
export function parseCsv(text: string): Csv {
  const records: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell.trim()), (cell = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell.trim());
      if (row.some((x) => x !== '')) records.push(row);
      (row = []), (cell = '');
    } else cell += c;
  }
  row.push(cell.trim());
  if (row.some((x) => x !== '')) records.push(row);
  return { header: records[0] ?? [], rows: records.slice(1) };
}

/** Reads and parses a CSV artifact. */
export function readCsv(artifact: Artifact): Csv {
  return parseCsv(readFileSync(artifact.path, 'utf8'));
}

/** A column's cells as numbers (NaN where a cell is not a number). */
export function numericColumn(csv: Csv, index: number): number[] {
  return csv.rows.map((r) => (r[index] === undefined || r[index] === '' ? NaN : Number(r[index])));
}

/** Indexes of the columns whose every cell is a number. */
export function numericColumns(csv: Csv): number[] {
  return csv.header.map((_, i) => i).filter((i) => csv.rows.length > 0 && numericColumn(csv, i).every((x) => Number.isFinite(x)));
}
