/** Host process accounting by uid, read from /proc (no external tools). */
import { readdir, readFile } from 'node:fs/promises';

/** @returns pids of processes whose real uid is `uid` */
export async function pidsOfUid(uid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    const m = /^Uid:\s+(\d+)/m.exec(status);
    if (m && Number(m[1]) === uid) pids.push(Number(entry));
  }
  return pids;
}

/** SIGKILLs every process of `uid` (a uid used by one execution only), twice to catch forks in flight. */
export async function killUid(uid: number): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const pid of await pidsOfUid(uid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
}

/** @returns how many processes the current user owns (RLIMIT_NPROC counts them all), 0 for root */
export async function userProcessCount(): Promise<number> {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return 0;
  return (await pidsOfUid(uid)).length;
}
