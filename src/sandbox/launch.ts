/**
 * Starts one sandbox command for a slot: the command line (bwrap-args.ts), the launcher that joins
 * the run cgroup (and, for a prepared slot, waits for its job), the seccomp filter and the checks
 * handed over as file descriptors, and an environment built from nothing.
 */
import { closeSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCommand, CHECKS_FD, SANDBOX_ENV, STATUS_FD } from './bwrap-args.js';
import { launchCommand } from './cgroup.js';
import type { Ready } from './ready.js';
import { startProcess, type StartedProcess } from './process.js';
import type { Slot } from './slot.js';
import type { ExecutionLimits } from './types.js';

/** How a sandbox starts: a job mode (pool.ts), or the checks as an open file (a cold start). */
export interface LaunchHow {
  /** `pool`: warm up, then take the job; `job`: a prepared slot's launcher waits for its job. */
  jobMode?: 'pool' | 'job';
  /** An open host fd of the checks' source (see {@link openChecks}). */
  checksFd?: number;
  /** Processes the host user already owns (non-root only), added to the process limit. */
  nprocOffset?: number;
}

/**
 * Spawns the sandbox command for `slot` (joining its cgroup first).
 * @param python the interpreter, visible inside the sandbox
 */
export function launchSandbox(ready: Ready, python: string, slot: Slot, limits: ExecutionLimits, how: LaunchHow): StartedProcess {
  const filterFd = ready.isolated && ready.seccomp ? openSync(ready.seccomp, 'r') : undefined;
  try {
    let [file, args] = buildCommand({
      tools: ready.tools!,
      python,
      runnerPath: ready.runner,
      workDir: slot.workDir,
      pythonDirs: ready.pythonDirs,
      toolsDir: slot.toolsDir,
      limits,
      hostId: slot.hostId,
      nprocOffset: how.nprocOffset ?? 0,
      isolated: ready.isolated,
      seccompFd: filterFd === undefined ? undefined : 3,
      checks: how.checksFd !== undefined,
      cgroup: slot.cgroup !== null,
      jobMode: how.jobMode,
    });
    const gate = how.jobMode === 'job' ? { fd: CHECKS_FD, readyFd: STATUS_FD } : undefined;
    if (slot.cgroup || gate) [file, args] = launchCommand(slot.cgroup?.procsFiles ?? [], file, args, gate);
    const env: Record<string, string> = ready.isolated
      ? { PATH: '/usr/bin:/bin' }
      : { ...SANDBOX_ENV, HOME: slot.workDir, MPLCONFIGDIR: join(slot.workDir, '.matplotlib') };
    return startProcess({ file, args, env, cwd: slot.workDir, extraFd: filterFd, checksFd: how.checksFd, controlPipe: how.jobMode !== undefined });
  } finally {
    if (filterFd !== undefined) closeSync(filterFd);
  }
}

/**
 * Writes the checks to a file beside (not inside) the work dir and opens it for the runner's fd 4;
 * the name is unlinked at once, so nothing stays behind and the program cannot find it.
 * @returns the open fd (the caller closes it)
 */
export function openChecks(workRoot: string, checks: string): number {
  const path = join(workRoot, `checks-${process.pid}-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(path, checks, { mode: 0o600 });
  try {
    return openSync(path, 'r');
  } finally {
    unlinkSync(path);
  }
}
