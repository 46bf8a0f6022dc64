/**
 * Bounds what a program may leave on the host disk. RLIMIT_FSIZE caps one file, not their
 * sum, and the work dir is a host folder (no quota), so while the program runs the work dir
 * is measured every {@link DISK_POLL_MS} and the program is killed past the budget.
 */
import { lstat, readdir } from 'node:fs/promises';
import type { LimitName } from './types.js';

/** How often the work dir is measured, in ms. */
export const DISK_POLL_MS = 400;
/** Most files and folders a work dir may hold. */
export const MAX_WORK_DIR_ENTRIES = 5000;

/**
 * Total bytes a work dir may hold, from the limits: room for every returnable artifact and
 * a few maximal files, plus the input files.
 */
export function workDirBudget(maxFileBytes: number, maxArtifacts: number, maxArtifactBytes: number, inputBytes: number): number {
  return Math.max(4 * maxFileBytes, maxArtifacts * maxArtifactBytes) + inputBytes;
}

/**
 * @returns bytes and entries under `dir`, stopping early once past `maxEntries`. Names are read as
 * bytes, so names that are not UTF-8 are counted too.
 */
export async function measure(dir: string, maxEntries: number): Promise<{ bytes: number; entries: number }> {
  let bytes = 0;
  let entries = 0;
  const slash = Buffer.from('/');
  const stack: Buffer[] = [Buffer.from(dir)];
  while (stack.length > 0 && entries <= maxEntries) {
    const current = stack.pop()!;
    const names = await readdir(current, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
    for (const name of names) {
      if (++entries > maxEntries) break;
      const path = Buffer.concat([current, slash, name]);
      const st = await lstat(path).catch(() => null);
      if (st === null) continue;
      if (st.isDirectory()) stack.push(path);
      else bytes += st.blocks * 512; // what the disk really holds (sparse files count as written)
    }
  }
  return { bytes, entries };
}

/** A work dir over its budget: the limit's name and the reason in words. */
export interface WorkDirExcess {
  limit: Extract<LimitName, 'work_dir_files' | 'work_dir_bytes'>;
  reason: string;
}

/**
 * Measures `dir` once against the budget (also after the program ended: a quick program can finish
 * between two polls).
 * @returns the excess, or null when within budget
 */
export async function checkWorkDir(dir: string, maxBytes: number): Promise<WorkDirExcess | null> {
  const { bytes, entries } = await measure(dir, MAX_WORK_DIR_ENTRIES);
  if (entries > MAX_WORK_DIR_ENTRIES) return { limit: 'work_dir_files', reason: `more than ${MAX_WORK_DIR_ENTRIES} files in the work dir` };
  if (bytes > maxBytes) return { limit: 'work_dir_bytes', reason: `more than ${maxBytes} bytes written to the work dir` };
  return null;
}

/**
 * Starts measuring `dir`; calls `onExceeded` (once) with the limit's name (`work_dir_files`: more
 * than {@link MAX_WORK_DIR_ENTRIES} entries; `work_dir_bytes`: more than `maxBytes` bytes) and a reason.
 * @returns stop: call when the program has ended
 */
export function guardWorkDir(
  dir: string,
  maxBytes: number,
  onExceeded: (reason: string, limit: Extract<LimitName, 'work_dir_files' | 'work_dir_bytes'>) => void,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    const excess = await checkWorkDir(dir, maxBytes);
    if (stopped) return;
    if (excess) return onExceeded(excess.reason, excess.limit);
    timer = setTimeout(() => void tick(), DISK_POLL_MS);
  };
  timer = setTimeout(() => void tick(), DISK_POLL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
