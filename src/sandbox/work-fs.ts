/**
 * A hard disk budget per run: the work dir is a size-limited tmpfs mounted on the host (root only),
 * so a write past the budget fails with ENOSPC at once (no polling gap), files unlinked while held
 * open still count (tmpfs frees them only at the last close), and the inode count caps the number
 * of files. The host copies inputs in before the program starts and artifacts out before unmounting.
 * Without the right to mount, the executor falls back to the polling guard (disk-guard.ts).
 */
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, statfsSync } from 'node:fs';
import { MAX_WORK_DIR_ENTRIES } from './disk-guard.js';

/** How often the filesystem is sampled to *name* a full disk (the budget itself needs no sampling), in ms. */
export const FULL_SAMPLE_MS = 5;

const run = (file: string, args: string[], started?: (child: ChildProcess) => void) =>
  new Promise<void>((resolve, reject) => {
    const child = execFile(file, args, (err, _o, stderr) => (err ? reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || err.message}`)) : resolve()));
    started?.(child);
  });

/**
 * Mounts a tmpfs of `bytes` (and {@link MAX_WORK_DIR_ENTRIES} inodes) on `dir`, owned by `owner`.
 * @param started receives the `mount` process (a process exiting meanwhile must wait for it: {@link unmountWorkDirSync})
 * @throws {Error} when mount refuses (not root, no CAP_SYS_ADMIN)
 */
export async function mountWorkDir(dir: string, bytes: number, owner: number | null, started?: (child: ChildProcess) => void): Promise<void> {
  const ids = owner === null ? '' : `,uid=${owner},gid=${owner}`;
  await run('mount', ['-t', 'tmpfs', '-o', `size=${Math.ceil(bytes)},nr_inodes=${MAX_WORK_DIR_ENTRIES + 2},mode=0700,nosuid,nodev${ids}`, 'code-agent-work', dir], started);
}

/**
 * Unmounts (lazily) a work dir for a process that is exiting: first waits, at most ~1 s, for a
 * `mount` still running on it (it would mount after this process is gone). Never throws.
 */
export function unmountWorkDirSync(dir: string, mounting?: ChildProcess): void {
  const pid = mounting?.pid;
  for (let i = 0; pid !== undefined && i < 500 && running(pid); i++) {
    const until = Date.now() + 2;
    while (Date.now() < until) {
      /* no event loop at exit: the mount finishes on its own */
    }
  }
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  } catch {
    /* not mounted */
  }
}

/** True while `pid` runs (not yet exited; a zombie counts as exited). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Changes the size of a mounted work dir tmpfs, in bytes (a pooled sandbox's job brings its inputs). */
export async function resizeWorkDir(dir: string, bytes: number): Promise<void> {
  await run('mount', ['-o', `remount,size=${Math.ceil(bytes)}`, dir]);
}

/** Unmounts the work dir tmpfs (lazily if something still holds it). Never throws. */
export async function unmountWorkDir(dir: string): Promise<void> {
  await run('umount', [dir]).catch(() => run('umount', ['-l', dir]).catch(() => undefined));
}

/**
 * Samples the tmpfs while the program runs, to name the limit when it ran full.
 * @returns stop: returns which budget was exhausted at some sample (bytes or files), or null
 */
export function watchFull(dir: string): () => Promise<'work_dir_bytes' | 'work_dir_files' | null> {
  let full: 'work_dir_bytes' | 'work_dir_files' | null = null;
  let stopped = false;
  const sample = async () => {
    let s: { bfree: number; ffree: number } | null = null;
    try {
      s = statfsSync(dir); // a few µs; sync so that no sample queues behind the thread pool
    } catch {
      /* unmounted */
    }
    if (s && full === null) {
      if (s.bfree === 0) full = 'work_dir_bytes';
      else if (s.ffree === 0) full = 'work_dir_files';
    }
  };
  const timer = setInterval(() => void sample(), FULL_SAMPLE_MS);
  return async () => {
    if (!stopped) {
      stopped = true;
      clearInterval(timer);
      await sample();
    }
    return full;
  };
}
