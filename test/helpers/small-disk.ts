/**
 * A small disk for tests of a full disk: a tmpfs of a few MiB mounted on a fresh temp dir (needs
 * root, as the sandbox tests run), and a way to fill it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Mounts a tmpfs of `size` (e.g. `4m`) on a new temp dir. @returns its path. @throws when mount fails (not root). */
export function mountSmallDisk(size: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  return dir;
}

/** Unmounts what {@link mountSmallDisk} mounted (its content is gone). */
export function unmountSmallDisk(dir: string): void {
  execFileSync('umount', [dir]);
}

/** Fills the disk at `dir` with one file (until ENOSPC). @returns the file's path (remove it to free the disk). */
export function fillDisk(dir: string): string {
  const filler = join(dir, 'filler.bin');
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { stdio: 'ignore' });
  } catch {
    /* dd stops with ENOSPC: the disk is full */
  }
  return filler;
}

/** The `store` config keys of a world whose history (SQLite) and data dir are on `dir`. */
export function storeOn(dir: string): { url: string; data_dir: string } {
  return { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: join(dir, 'data') };
}
