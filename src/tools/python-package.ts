/**
 * The Python package `tools` the sandbox imports (`from tools import sql`; the HTTP relay the runner
 * starts). Its source is kept in `src/tools/python/tools/`; when running the compiled
 * `dist/src/tools/…`, it is found back in `src/tools/python/` (the build does not copy it).
 */
import { chmod, copyFile, mkdir, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Candidate locations of the folder holding the `tools` package, nearest first. */
const CANDIDATES = ['./python', '../../../src/tools/python'];

/**
 * @returns the host folder that holds the `tools` package (put on the sandbox's sys.path)
 * @throws {Error} when neither location holds it (a broken install)
 */
export function toolsPackageRoot(): string {
  for (const rel of CANDIDATES) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(path, 'tools', '__init__.py'))) return path;
  }
  throw new Error(`the Python package "tools" was not found next to ${fileURLToPath(import.meta.url)} nor in src/tools/python/`);
}

/**
 * Copies the package into `dest/tools/` (world-readable: the sandbox's uid reads it even where the
 * install folder is private) and returns `dest`, the folder to bind and put on sys.path.
 */
export async function copyToolsPackage(dest: string): Promise<string> {
  const from = join(toolsPackageRoot(), 'tools');
  const to = join(dest, 'tools');
  await mkdir(to, { recursive: true });
  await chmod(dest, 0o755);
  await chmod(to, 0o755);
  for (const name of await readdir(from)) {
    if (!name.endsWith('.py')) continue;
    await copyFile(join(from, name), join(to, name));
    await chmod(join(to, name), 0o644);
  }
  return dest;
}
