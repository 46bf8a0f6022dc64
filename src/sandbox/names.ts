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
