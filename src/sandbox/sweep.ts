/**
 * What executors of processes that died without cleaning up left on the host (kill -9, a machine
 * reset, a signal re-raised before the exit hook ran): run cgroups `code-agent-<pid>-*` (and probe
 * cgroups `code-agent-probe-<pid>`), and work roots `<tmpdir>/code-agent-sandbox-<pid>-*` with the
 * tmpfs work dirs still mounted inside them. Swept when an executor sets up; only what belongs to a
 * pid that is no longer alive is touched, so two services on one host never sweep each other.
 */
import { readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORK_ROOT_PREFIX } from './work-root.js';
import { unmountWorkDir } from './work-fs.js';

/** What one sweep removed. */
export interface SweepResult {
  /** Run cgroup dirs removed (one per controller hierarchy on cgroup v1). */
  cgroups: number;
  /** Work roots removed. */
  workRoots: number;
  /** tmpfs work dirs unmounted. */
  mounts: number;
}

const CGROUP_NAME = /^code-agent-(?:probe-)?(\d+)(?:-|$)/;
const WORK_ROOT_NAME = new RegExp(`^${WORK_ROOT_PREFIX}(\\d+)-`);

/** True when `pid` names a live process (ours or another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Kills what is left in a dead owner's cgroup, then removes it (a few rounds while the kernel reaps). */
function removeCgroup(dir: string): boolean {
  for (let round = 0; round < 50; round++) {
    try {
      writeFileSync(join(dir, 'cgroup.kill'), '1'); // cgroup v2 (5.14+); v1 has no such file
    } catch {
      for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    try {
      rmdirSync(dir);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    }
    const until = Date.now() + 10;
    while (Date.now() < until) {
      /* the kernel is reaping */
    }
  }
  return false;
}

/** Mount points (from /proc/self/mounts) strictly below `dir`. */
function mountsBelow(dir: string): string[] {
  let text = '';
  try {
    text = readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return [];
  }
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return text
    .split('\n')
    .map((line) => unescape(line.split(' ')[1] ?? ''))
    .filter((point) => point.startsWith(`${dir}/`));
}

/**
 * Removes the leftovers of dead executors.
 * @param cgroupParents the parents run cgroups are created in (from `detectCgroups`), may be empty
 * @param tmp the OS temp dir the work roots are in
 * Never throws: what cannot be removed is left for the next sweep.
 */
export async function sweepLeftovers(cgroupParents: readonly string[], tmp: string = tmpdir()): Promise<SweepResult> {
  const result: SweepResult = { cgroups: 0, workRoots: 0, mounts: 0 };
  for (const parent of new Set(cgroupParents)) {
    for (const name of list(parent)) {
      const pid = Number(CGROUP_NAME.exec(name)?.[1]);
      if (!pid || isAlive(pid)) continue;
      try {
        if (removeCgroup(join(parent, name))) result.cgroups++;
      } catch {
        /* left for the next sweep */
      }
    }
  }
  for (const name of list(tmp)) {
    const pid = Number(WORK_ROOT_NAME.exec(name)?.[1]);
    if (!pid || isAlive(pid)) continue;
    const root = join(tmp, name);
    for (const point of mountsBelow(root).sort((a, b) => b.length - a.length)) {
      await unmountWorkDir(point);
      result.mounts++;
    }
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 2 });
      result.workRoots++;
    } catch {
      /* left for the next sweep */
    }
  }
  return result;
}

/** Set once this process has swept dead executors' leftovers. */
let swept = false;

/**
 * Sweeps, once per process, what executors of dead processes left (an executor's setup calls it),
 * and says in one warning what was removed, if anything.
 * @param cgroupParents the cgroup dirs runs are made under (`cgroupParentDirs`)
 * @param logger receives the warning
 */
export async function sweepOnce(cgroupParents: readonly string[], logger: { warn(msg: string): void }): Promise<void> {
  if (swept) return;
  swept = true;
  const left = await sweepLeftovers(cgroupParents);
  if (left.cgroups + left.workRoots + left.mounts > 0) {
    const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const parts = [
      ...(left.workRoots > 0 ? [plural(left.workRoots, 'work folder')] : []),
      ...(left.mounts > 0 ? [plural(left.mounts, 'mounted work folder')] : []),
      ...(left.cgroups > 0 ? [plural(left.cgroups, 'resource group') + ' (cgroups)'] : []),
    ];
    logger.warn(`sandbox: tidied up after a code-agent process that was stopped before it could (removed ${parts.join(', ')}); nothing for you to do`);
  }
}
