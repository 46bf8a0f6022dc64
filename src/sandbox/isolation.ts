/**
 * What isolation is active and why: the tmpfs probe at setup, and the report `code-agent doctor`
 * prints (namespaces, cgroups, disk budget, warm pool, prepared slots).
 */
import { mkdtemp, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ready } from './ready.js';
import { mountWorkDir, unmountWorkDir } from './work-fs.js';

/** One line per part of the isolation: on or off, and why. */
export interface IsolationReport {
  /** bubblewrap namespaces (or rlimits only, in the explicit unisolated mode). */
  namespaces: { active: boolean; detail: string };
  /** A cgroup per run: memory, processes and CPU of the whole tree. */
  cgroups: { active: boolean; mode: 'v2' | 'v1' | 'none'; detail: string };
  /** The work dir's hard budget (a tmpfs) or the polling guard. */
  disk: { active: boolean; detail: string };
  /** Warm sandboxes kept ready. */
  warmPool: { size: number; detail: string };
  /** Prepared slots kept for cold starts (work dir mounted, cgroup made and joined ahead). */
  preparedSlots: { size: number; detail: string };
}

/** @returns true when a tmpfs can be mounted (and unmounted) under `workRoot` here (root with CAP_SYS_ADMIN). */
export async function probeTmpfs(workRoot: string): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  const dir = await mkdtemp(join(workRoot, 'probe-'));
  try {
    await mountWorkDir(dir, 1024 * 1024, null);
    await unmountWorkDir(dir);
    return true;
  } catch {
    return false;
  } finally {
    await rmdir(dir).catch(() => undefined);
  }
}

/** Builds the report from what setup found. */
export function describeIsolation(ready: Ready, poolSize: number, spareSlots: number): IsolationReport {
  const cg = ready.iso.cgroups;
  return {
    namespaces: ready.isolated
      ? { active: true, detail: 'bubblewrap: new user, pid, network, mount, ipc, uts namespaces; seccomp; read-only system' }
      : { active: false, detail: `NOT isolated (rlimits only): ${ready.reason ?? 'isolation unavailable'}` },
    cgroups:
      cg.mode === 'none'
        ? { active: false, mode: 'none', detail: `no cgroup per run: ${cg.reason}` }
        : { active: true, mode: cg.mode, detail: `a cgroup per run for memory (whole tree), processes and CPU: ${cg.reason}` },
    disk: ready.iso.tmpfs
      ? { active: true, detail: 'the work dir is a size-limited tmpfs per run (hard budget, files held open count)' }
      : {
          active: false,
          detail: `the work dir is a host folder measured every 400 ms (mounting a tmpfs needs root${process.getuid?.() === 0 ? ' and CAP_SYS_ADMIN, or it is turned off' : ''})`,
        },
    warmPool:
      poolSize > 0
        ? { size: poolSize, detail: `${poolSize} warm sandbox(es) with numpy, pandas and matplotlib imported` }
        : { size: 0, detail: 'off (sandbox.warm_pool is 0, or isolation is off): every run starts cold' },
    preparedSlots:
      spareSlots > 0
        ? { size: spareSlots, detail: `${spareSlots} slot(s) for cold starts, work dir and cgroup made ahead (Python starts for the run)` }
        : { size: 0, detail: 'off (no cgroup and no tmpfs work dir to make ahead, or isolation is off)' },
  };
}
