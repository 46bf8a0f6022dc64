/** Runs the built `code-agent` binary as a user would: a child process in a given folder. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The built CLI entry point (`npm run build`). */
export const CLI_BIN = resolve('dist/adapters/cli/bin.js');

/** @throws {Error} saying to build first when the CLI is not built. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run "npm run build" (npm run setup does it) before the tests`);
}

/** What a CLI run printed and how it ended. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `code-agent <args>` in `cwd` with an environment of only PATH and HOME (= cwd), so no host
 * variable (no key) leaks in, plus `env`. `input` is written to stdin, which is then closed.
 */
export async function runCli(args: string[], cwd: string, input = '', env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input);
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return { code, stdout, stderr };
}
