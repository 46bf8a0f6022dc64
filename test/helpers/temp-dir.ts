/**
 * Temp folders for tests, removed after the importing test file's last test (a file-level
 * `afterAll`, registered when this module is imported), so a test run leaves nothing in the OS temp dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Creates `<tmpdir>/<prefix>XXXXXX`; returns its path. Removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
