/**
 * Names the limit that stopped a program from facts the program cannot forge: our own kills (wall
 * time, output, cancel), the run cgroup's counters (OOM kills, refused forks), the work dir
 * filesystem being full, and the real wait status the runner's supervisor reported (a signal such
 * as SIGXCPU or SIGXFSZ sent by the kernel at an rlimit). Text on stderr and exit codes never
 * decide: `print("MemoryError"); os._exit(137)` is exit code 137, no limit.
 */
import type { CgroupFacts } from './cgroup.js';
import type { LimitName } from './types.js';

/** How a process ended, as seen from the host and the kernel. */
export interface Ending {
  /** Signal name of the program's real death (from the supervisor), else null. */
  signal: string | null;
  /** We killed it at the wall time. */
  timedOut: boolean;
  /** We killed it because its output passed the cap. */
  outputExceeded: boolean;
  /** We killed it because the caller aborted. */
  cancelled: boolean;
  /** The run cgroup's counters, or null without cgroups. */
  cgroup: CgroupFacts | null;
  /** The work dir filesystem ran out of bytes or inodes, or the poll guard found it over budget. */
  disk: Extract<LimitName, 'work_dir_bytes' | 'work_dir_files'> | null;
  /** CPU limit, in s. */
  cpuTimeS: number;
  /** Wall time used, in ms (without cgroups, the only clue for the CPU hard limit's SIGKILL). */
  durationMs: number;
}

/** @returns the limit hit, or null when the program ended on its own (or was cancelled). */
export function classifyLimit(e: Ending): LimitName | null {
  if (e.cancelled) return null;
  // the cgroup's counters first: a run stopped (by us) because its cgroup reached a limit
  if (e.cgroup && e.cgroup.oomKills > 0) return 'memory';
  if (e.cgroup && e.cgroup.pidsMax > 0) return 'processes';
  if (e.outputExceeded) return 'output';
  if (e.timedOut) return 'wall_time';
  if (e.disk) return e.disk;
  if (e.signal === 'SIGXCPU') return 'cpu_time';
  if (e.signal === 'SIGXFSZ') return 'file_size';
  if (e.signal === 'SIGKILL') {
    // Nobody here sent it: the CPU hard limit (one second past SIGXCPU) when that much CPU went.
    const cpuS = e.cgroup ? e.cgroup.cpuS : e.durationMs / 1000;
    if (cpuS >= e.cpuTimeS) return 'cpu_time';
  }
  return null;
}
