/**
 * What the input profile knows about the names a failed program's error is about (see
 * `src/data/error-names.ts`): for a name that is a column, its type, a value and the call that
 * parses it; for a name that is not, the columns that do exist and the nearest one; for a sheet
 * that was not found, the sheet names. Facts only, in a few lines, for the next prompt and the
 * run's end reason.
 */
import { distance } from 'fastest-levenshtein';
import type { ErrorNames } from './error-names.js';
import type { FieldProfile, FileProfile, InputProfile } from './profile.js';

/** Longest text of the facts, in characters. */
export const NAME_FACTS_CHARS = 900;

/** A name as Python writes it: `'date'`, `19`. */
export function pyName(name: string | number): string {
  return typeof name === 'number' ? String(name) : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** How a program names a column: `df['date']`, `df[2]`. */
const ref = (f: FieldProfile) => `df[${pyName(f.name)}]`;

const sameName = (f: FieldProfile, name: string | number) => f.name === name || String(f.name) === String(name);

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The name among `candidates` a mistyped `name` most likely meant: the same ignoring case and
 * punctuation, else the closest by edit distance within a third of its length (at least 1).
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const key = squash(name);
  const same = candidates.find((c) => squash(c) === key && c !== name);
  if (same !== undefined) return same;
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const d = distance(name.toLowerCase(), c.toLowerCase());
    if (d > 0 && (!best || d < best.d)) best = { c, d };
  }
  return best && best.d <= Math.max(1, Math.floor(name.length / 3)) ? best.c : undefined;
}

function described(f: FieldProfile): string {
  return `${pyName(f.name)} (${f.type}${f.example !== undefined ? `, e.g. ${pyName(f.example)}` : ''})`;
}

/** What a column that exists holds, for the accessor (or lookup) that failed on it. */
function existing(file: FileProfile, f: FieldProfile, names: ErrorNames): string {
  const where = `column ${pyName(f.name)} of ${file.name}`;
  const example = f.example !== undefined ? ` (e.g. ${pyName(f.example)})` : '';
  if (names.accessor === 'dt') {
    const parse = f.note?.includes('to_datetime') ? f.note : `parse it first: ${ref(f)} = pandas.to_datetime(${ref(f)}${f.type === 'date' ? '' : ", errors='coerce'"})`;
    if (f.type === 'date') return `${where} holds dates written as text${example}: pandas reads it as text, so .dt fails until you ${parse}`;
    if (f.type === 'int' || f.type === 'float') return `${where} holds numbers${example}, not dates: .dt does not apply to it`;
    return `${where} holds text${example}: ${parse}`;
  }
  if (names.accessor === 'str') {
    if (f.type === 'int' || f.type === 'float') return `${where} holds numbers${example}: .str does not apply; use ${ref(f)}.astype(str) for text, or compute on the numbers`;
    return `${where} has empty cells or values that are not text${example}: use ${ref(f)}.astype(str).str…`;
  }
  return (
    `${pyName(f.name)} is a column of ${file.name}, ${described(f)}: the table it was looked up in no longer had it as a column ` +
    '(after groupby or set_index it is the index: use .reset_index(); after a merge of two files with that column it is renamed with _x/_y)'
  );
}

/** What the profile says of a name that is not a column of any file read. */
function absent(name: string | number, files: FileProfile[]): string {
  const lines = files.map((file) => {
    const fields = file.fields!;
    const shown = fields.slice(0, 12).map(described).join(', ') + (fields.length > 12 ? ', …' : '');
    const near = typeof name === 'string' ? nearestName(name, fields.map((f) => String(f.name))) : undefined;
    const by = file.headerless ? ' (no header: by position)' : '';
    return `${file.name} has the columns${by} ${shown}${near !== undefined ? `; the nearest to ${pyName(name)} is ${pyName(near)}` : ''}`;
  });
  const label =
    typeof name === 'number'
      ? `${name} is no column name: a KeyError on ${name} means the table or Series it was looked up in has no label ${name} (a value with no rows; .get(${name}, 0) or reindex gives a default)`
      : `${pyName(name)} is not a column of the input files`;
  return [label, ...lines].join('; ');
}

/**
 * The facts (see the module doc), one `- ` line each under a heading; undefined when the error
 * names nothing the profile can speak to.
 * @param code the failed program (the files it names are the ones looked at; all when it names none)
 */
export function nameFacts(profile: InputProfile | undefined, names: ErrorNames, code: string): string | undefined {
  if (!profile || profile.files.length === 0) return undefined;
  const named = profile.files.filter((f) => code.includes(f.name));
  const files = named.length > 0 ? named : profile.files;
  const lines: string[] = [];
  if (names.sheet !== undefined) {
    for (const file of files.filter((f) => f.sheets?.length)) {
      const near = nearestName(names.sheet, file.sheets!);
      lines.push(`${file.name} has the sheets ${file.sheets!.map(pyName).join(', ')}${near !== undefined ? `; the nearest to ${pyName(names.sheet)} is ${pyName(near)}` : ''}`);
    }
  }
  const tables = files.filter((f) => f.fields?.length);
  for (const name of names.names) {
    const hit = tables.flatMap((file) => file.fields!.filter((f) => sameName(f, name)).map((f) => ({ file, f })))[0];
    if (hit) lines.push(existing(hit.file, hit.f, names));
    else if (tables.length > 0) lines.push(absent(name, tables));
  }
  if (lines.length === 0) return undefined;
  const text = ['What the input files hold under the names in this error:', ...[...new Set(lines)].map((l) => `- ${l}`)].join('\n');
  return text.length <= NAME_FACTS_CHARS ? text : `${text.slice(0, NAME_FACTS_CHARS - 1)}…`;
}
