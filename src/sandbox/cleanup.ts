/**
 * Removes a work dir after an execution, whatever the program left in it. Node's recursive `rm`
 * walks full paths and gives up past PATH_MAX (a program can nest folders deeper than 4096
 * characters) or on names that are not UTF-8; GNU `rm -rf` walks with file descriptors (fts) and
 * handles both.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/**
 * Deletes `dir` and everything below it, without crossing into other filesystems.
 * Never throws; a tree that is still there afterwards is reported through `logger.warn`.
 */
export async function removeTree(dir: string, logger: { warn(msg: string): void }): Promise<void> {
  const viaRm = await new Promise<string | null>((resolve) => {
    execFile('rm', ['-rf', '--one-file-system', '--', dir], (err, _stdout, stderr) =>
      resolve(err ? stderr.trim() || err.message : null),
    );
  });
  if (existsSync(dir)) {
    // rm missing (not GNU coreutils?) or refused: try Node's, then report what is left
    await rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }
  if (existsSync(dir)) logger.warn(`sandbox: could not remove the work dir ${dir}: ${viaRm ?? 'unknown reason'}`);
}
