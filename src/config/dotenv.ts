/**
 * Secrets and settings from a `.env` file in the current directory, read with the `dotenv`
 * package (`KEY=value` lines, `#` comments, quoted values; https://github.com/motdotla/dotenv).
 * A variable already set in the environment always wins: the file never overrides it.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import dotenv from 'dotenv';
import { ConfigError } from './load.js';

/** Name of the file looked up in the current directory. */
export const DOTENV_FILE = '.env';

/**
 * Reads `<dir>/.env` when present into `env`, without overriding a variable `env` already has.
 * @returns the names of the variables the file defines (set or already set), empty without a file.
 * @throws {ConfigError} when the file exists but cannot be read.
 */
export function loadDotEnv(dir: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string[] {
  const path = resolve(join(dir, DOTENV_FILE));
  if (!existsSync(path)) return [];
  const result = dotenv.config({ path, quiet: true, override: false, processEnv: env as Record<string, string> });
  if (result.error) throw new ConfigError(`cannot read ${path}: ${result.error.message}`);
  return Object.keys(result.parsed ?? {});
}
