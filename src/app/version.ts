/** The version in code-agent's package.json, found by walking up from this module (src or dist). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** @returns the `version` of the nearest package.json named `code-agent`, or `unknown`. */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'code-agent') return pkg.version ?? 'unknown';
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
