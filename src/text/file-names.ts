/**
 * Cleaning of file names that cross the sandbox boundary (input files, artifacts, `--out` copies):
 * safe, but readable in any script.
 *
 * A cleaned name is Unicode NFC (`naïve` typed either way is one name); keeps letters, marks and
 * digits of every script (`報告.csv`, `отчёт.csv`), `.`, `_` and `-`; anything else becomes `_`:
 * path separators, spaces, punctuation that shells and other systems treat specially, control
 * characters, and format characters (bidirectional overrides such as U+202E, which could make
 * `gpj.exe` look like `exe.jpg`; zero-width characters). No leading dot (no dotfile, no `..`);
 * at most {@link MAX_NAME_BYTES} bytes of UTF-8, cut between characters, extension kept.
 */

/** Longest cleaned name component, in bytes of UTF-8 (file systems allow 255). */
export const MAX_NAME_BYTES = 200;

/** Characters kept as they are; every other one becomes `_`. */
const UNSAFE = /[^\p{L}\p{M}\p{N}._-]/gu;

/**
 * Cleans one file name (see the module doc): its last path component only.
 * @returns the cleaned name, or null when nothing usable is left.
 */
export function cleanName(name: string): string | null {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.normalize('NFC').replace(/\p{Cf}/gu, '').replace(UNSAFE, '_').replace(/^[.]+/, '');
  const bounded = boundBytes(cleaned, MAX_NAME_BYTES);
  return bounded === '' ? null : bounded;
}

/** Cuts a name to `max` bytes of UTF-8 between characters (graphemes), keeping a short extension. */
function boundBytes(name: string, max: number): string {
  if (Buffer.byteLength(name) <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  let out = '';
  const room = max - Buffer.byteLength(ext);
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(name.slice(0, name.length - ext.length))) {
    if (Buffer.byteLength(out + segment) > room) break;
    out += segment;
  }
  return out + ext;
}

/**
 * `name` when no name in `taken` is the same, else the first free `stem-2.ext`, `stem-3.ext`…
 * (in the last path component). Names are compared as they are (already cleaned, so NFC).
 */
export function distinctName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  const slash = name.lastIndexOf('/');
  const dir = name.slice(0, slash + 1);
  const base = name.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  for (let n = 2; ; n++) {
    const candidate = `${dir}${stem}-${n}${ext}`;
    if (!taken(candidate)) return candidate;
  }
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
 * suffixed `-2`, `-3`… before the extension ({@link distinctName}). Tell the LLM these names, not the raw ones.
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
    name = distinctName(name, (n) => used.has(n));
    used.add(name);
    out.push({ ...file, name });
  }
  return { files: out, unusable };
}
