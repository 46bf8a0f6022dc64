/** Cleaning of file names that cross the sandbox boundary (input files and artifacts). */

/** Longest cleaned name component, in characters. */
export const MAX_NAME_CHARS = 100;

/**
 * Cleans one file name: basename only, characters outside `[A-Za-z0-9._-]` become `_`,
 * no leading dots (no dotfiles, no `..`), at most {@link MAX_NAME_CHARS} characters.
 * @returns the cleaned name, or null when nothing usable is left.
 */
export function cleanName(name: string): string | null {
  const base = name.split(/[\\/]/).pop() ?? '';
  let cleaned = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[.]+/, '');
  if (cleaned.length > MAX_NAME_CHARS) {
    const dot = cleaned.lastIndexOf('.');
    const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
    cleaned = cleaned.slice(0, MAX_NAME_CHARS - ext.length) + ext;
  }
  return cleaned === '' ? null : cleaned;
}

/**
 * Cleans a relative path (artifacts in subfolders): each component cleaned with {@link cleanName}.
 * @returns `a/b.png`-style name, or null when a component is unusable.
 */
export function cleanRelativePath(parts: string[]): string | null {
  const cleaned: string[] = [];
  for (const part of parts) {
    const c = cleanName(part);
    if (c === null) return null;
    cleaned.push(c);
  }
  return cleaned.length === 0 ? null : cleaned.join('/');
}

/** The name the user code is written under; an input file of that name is renamed. */
const USER_CODE_NAME = 'main.py';

/**
 * Input files with the names the program will find in its work dir: each cleaned with
 * {@link cleanName}, `main.py` (the user code) renamed `input_main.py`, a name already taken
 * suffixed `_2`, `_3`… before the extension. Tell the LLM these names, not the raw ones.
 * @returns the files under their final names, and the raw names that could not be used at all
 */
export function sandboxInputNames<T extends { name: string }>(files: T[]): { files: T[]; unusable: string[] } {
  const used = new Set<string>([USER_CODE_NAME]);
  const out: T[] = [];
  const unusable: string[] = [];
  for (const file of files) {
    let name = cleanName(file.name);
    if (name === null) {
      unusable.push(file.name);
      continue;
    }
    if (name === USER_CODE_NAME) name = `input_${name}`;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; used.has(name); n++) name = `${stem}_${n}${ext}`;
    used.add(name);
    out.push({ ...file, name });
  }
  return { files: out, unusable };
}
