/**
 * Locates `runner.py` on the host. The file is kept next to this module in `src/sandbox/`;
 * when running the compiled `dist/src/sandbox/runner.js`, it is found back in `src/sandbox/`
 * (the build does not copy it).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SANDBOX_RUNNER_PATH } from './bwrap-args.js';

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

/**
 * Compiles the runner to bytecode with the sandbox's own interpreter, once per executor: Python
 * never caches the bytecode of a script it runs as `__main__`, so each cold start would compile
 * the runner's ~450 lines again (~3 ms). Tracebacks keep naming {@link SANDBOX_RUNNER_PATH}.
 * @param python the interpreter the sandbox runs (its bytecode format)
 * @param dest where the `.pyc` goes
 * @returns `dest`, or null when compiling failed (the caller runs the source)
 */
export function compileRunner(python: string, source: string, dest: string): Promise<string | null> {
  const script = 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile=sys.argv[3], doraise=True)';
  return new Promise((resolve) => {
    execFile(python, ['-S', '-c', script, source, dest, SANDBOX_RUNNER_PATH], { env: { PATH: '/usr/bin:/bin' }, timeout: 30_000 }, (err) =>
      resolve(err ? null : dest),
    );
  });
}
