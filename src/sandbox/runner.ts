/**
 * Locates `runner.py` on the host. The file is kept next to this module in `src/sandbox/`;
 * when running the compiled `dist/src/sandbox/runner.js`, it is found back in `src/sandbox/`
 * (the build does not copy it).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Candidate locations, nearest first. */
const CANDIDATES = ['./runner.py', '../../../src/sandbox/runner.py'];

let cached: string | undefined;

/**
 * @returns the absolute host path of the runner script
 * @throws {Error} when neither location holds it (a broken install)
 */
export function runnerPath(): string {
  if (cached !== undefined) return cached;
  for (const rel of CANDIDATES) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return (cached = path);
  }
  throw new Error(`sandbox runner.py not found next to ${fileURLToPath(import.meta.url)} nor in src/sandbox/`);
}
