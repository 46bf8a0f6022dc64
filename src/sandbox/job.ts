/**
 * The job a pooled sandbox (warm, or a prepared slot) reads on its control pipe (fd 4) before the
 * program starts: the run's rlimits and its checks. A line format, not JSON, because the runner of
 * a cold start must not pay for `import json` (it imports `re`: ~5 ms):
 *
 *     cpu=10:11 fsize=16777216 nofile=256 core=0 [as=… nproc=…] checks=0|1\n
 *     <the checks' source, to the end, when checks=1>
 *
 * Values are whole numbers (`soft:hard` or one value for both). The runner's child sets them before
 * the program starts (the sandbox command has no `prlimit` in a job mode); rlimits only go down.
 */
import { CPU_HARD_GRACE_S } from './bwrap-args.js';
import type { ExecutionLimits } from './types.js';

/**
 * Encodes a job. `cgroup`: the run has a cgroup, which bounds memory and processes for the whole
 * tree (so no per-process `as` and `nproc` rlimits are sent).
 * @param limits CPU in s, sizes in bytes
 */
export function encodeJob(limits: ExecutionLimits, checks: string | undefined, cgroup: boolean): string {
  const cpu = Math.max(1, Math.ceil(limits.cpuTimeS));
  const fields = [`cpu=${cpu}:${cpu + CPU_HARD_GRACE_S}`, `fsize=${Math.floor(limits.maxFileBytes)}`, `nofile=${Math.floor(limits.maxOpenFiles)}`, 'core=0'];
  if (!cgroup) fields.push(`as=${Math.floor(limits.memoryBytes)}`, `nproc=${Math.floor(limits.maxProcesses)}`);
  fields.push(`checks=${checks === undefined ? 0 : 1}`);
  return `${fields.join(' ')}\n${checks ?? ''}`;
}
