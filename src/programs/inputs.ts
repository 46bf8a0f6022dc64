/**
 * What a team program reads, and whether the files of a new run fit it. A version's inputs are the
 * files its run was given (by name, with the structure the input profile saw: columns and types,
 * sheets) and the tools its code names (SQL sources, HTTP hosts: facts.ts). Before a program runs,
 * the files it is given are profiled and compared with the saved structure: a missing file, a
 * missing column, a column of another type, a missing sheet — each said in one plain line, before
 * anything runs. Pure functions.
 */
import type { FieldProfile, FileProfile, InputProfile } from '../history/run-parts.js';
import type { ProgramInputFile, ProgramInputs } from '../history/programs.js';
import type { WorkspaceManifest } from '../history/workspace.js';
import type { ProgramFacts } from './facts.js';

/** Most input files kept per version. */
export const MAX_INPUT_FILES = 20;

/**
 * The inputs of a version: the run's given files (workspace origin `input`) as its profile saw them,
 * and the tools its code names.
 * @param manifest the run's workspace (which files were given, not written); without it every profiled file counts
 */
export function programInputs(profile: InputProfile | undefined, manifest: WorkspaceManifest | undefined, facts: Pick<ProgramFacts, 'sources' | 'hosts'>): ProgramInputs {
  const given = manifest ? new Set(manifest.files.filter((f) => f.origin.kind === 'input').map((f) => f.name)) : undefined;
  const files = (profile?.files ?? [])
    .filter((f) => given === undefined || given.has(f.name))
    .slice(0, MAX_INPUT_FILES)
    .map(savedFile);
  return { files, sources: [...facts.sources], hosts: [...facts.hosts] };
}

function savedFile(f: FileProfile): ProgramInputFile {
  return {
    name: f.name,
    summary: f.summary,
    ...(f.fields && !f.headerless ? { fields: f.fields.map(({ name, type }) => ({ name, type })) } : {}),
    ...(f.sheets ? { sheets: [...f.sheets] } : {}),
  };
}

/** Types that read alike: numbers (an int column that now has fractions is still numbers). */
const FAMILY: Record<string, string> = { int: 'number', float: 'number' };
/** Types that say nothing of what a column holds (no value seen, JSON nulls or a mix). */
const UNKNOWN = new Set(['empty', 'null', 'mixed']);

function sameKind(saved: string, now: string): boolean {
  if (saved === now || UNKNOWN.has(saved) || UNKNOWN.has(now)) return true;
  return FAMILY[saved] !== undefined && FAMILY[saved] === FAMILY[now];
}

const quote = (name: string | number) => (typeof name === 'number' ? `#${name}` : `"${name}"`);
const listed = (names: (string | number)[], max = 12) => names.slice(0, max).map(quote).join(', ') + (names.length > max ? `, … (${names.length} in all)` : '');

/**
 * How the files given differ from what the version was saved with, one plain line each (empty:
 * they fit). A file given that the version did not read is not a misfit; a file whose structure
 * could not be profiled is compared by name only.
 */
export function fitCheck(inputs: ProgramInputs, profile: InputProfile | undefined): string[] {
  const now = new Map((profile?.files ?? []).map((f) => [f.name, f]));
  const misfits: string[] = [];
  for (const saved of inputs.files) {
    const file = now.get(saved.name);
    if (!file) {
      misfits.push(`the file ${saved.name} is missing (the program reads it${saved.summary ? `: ${saved.summary}` : ''})`);
      continue;
    }
    if (saved.fields && file.fields && !file.headerless) misfits.push(...fieldMisfits(saved.name, saved.fields, file.fields));
    for (const sheet of saved.sheets ?? []) {
      if (file.sheets && !file.sheets.includes(sheet)) misfits.push(`${saved.name} has no sheet "${sheet}" (its sheets: ${listed(file.sheets)})`);
    }
  }
  return misfits;
}

function fieldMisfits(file: string, saved: Pick<FieldProfile, 'name' | 'type'>[], now: FieldProfile[]): string[] {
  const out: string[] = [];
  const byName = new Map(now.map((f) => [String(f.name), f]));
  for (const field of saved) {
    const found = byName.get(String(field.name));
    if (!found) out.push(`${file} has no column ${quote(field.name)} (its columns: ${listed(now.map((f) => f.name))})`);
    else if (!sameKind(field.type, found.type)) out.push(`the column ${quote(field.name)} of ${file} holds ${found.type} values now; it held ${field.type} when the program was saved`);
  }
  return out;
}

/** The inputs in a few lines, for `/program <name> show`: each file with its columns or sheets, then the sources and hosts. */
export function inputLines(inputs: ProgramInputs): string[] {
  const lines = inputs.files.map((f) => {
    const fields = f.fields?.length ? ` — columns: ${f.fields.map((c) => `${c.name} (${c.type})`).join(', ')}` : '';
    const sheets = f.sheets?.length ? ` — sheets: ${f.sheets.join(', ')}` : '';
    return `file ${f.name}${fields}${sheets}`;
  });
  if (inputs.sources.length) lines.push(`SQL sources: ${inputs.sources.join(', ')}`);
  if (inputs.hosts.length) lines.push(`HTTP hosts: ${inputs.hosts.join(', ')}`);
  return lines.length ? lines : ['no input files, sources or hosts'];
}
