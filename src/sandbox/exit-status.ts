/**
 * The program's exit status from the kernel's own record, read by the host as soon as the program
 * starts to exit. The runner's child sends one byte on the exit hint pipe (fd 7) right before it
 * calls `_exit`; the byte only says "look now" (the program could send it too). The host then
 * reads `/proc/PID/stat` of the program's process: field 9 (flags) has `PF_EXITING` once the
 * kernel is in `do_exit()`, and field 52 (exit_code) then holds the wait status it exits with
 * (proc(5); include/linux/sched.h). Both are set before the kernel tears the process's memory
 * down, which for a fork of a warm interpreter takes ~3.5 ms, and the supervisor's report would
 * come after that and two more process wake-ups. A program that is not exiting is ignored: the
 * supervisor's status (runner.py) still decides then.
 */

/** The runner's supervisor's word on how the program ended (its real wait status), from the status fd. */
export interface SupervisorStatus {
  exit?: number;
  signal?: number;
}
import { readFileSync } from 'node:fs';

/** `PF_EXITING` in a task's flags (include/linux/sched.h). */
const PF_EXITING = 0x4;
/** The supervisor's pid in the sandbox's pid namespace (bwrap's init is 1 and runs it). */
const SUPERVISOR_NS_PID = 2;
/** Processes looked at, at most, to find the program's process under the sandbox command. */
const MAX_WALK = 64;

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

const children = (pid: number) =>
  (read(`/proc/${pid}/task/${pid}/children`) ?? '')
    .split(' ')
    .filter(Boolean)
    .map(Number);

/** The last (innermost namespace's) pid of `pid`, from the NSpid line of its status. */
function innerPid(pid: number): number | null {
  const line = /^NSpid:\s*(.*)$/m.exec(read(`/proc/${pid}/status`) ?? '')?.[1];
  return line ? Number(line.trim().split(/\s+/).pop()) : null;
}

/**
 * The host pid of the program's process of a sandbox started as `outerPid` (bwrap's outer
 * process): the only child of the supervisor, which is pid 2 of the sandbox's pid namespace
 * (orphans the program leaves are adopted by pid 1, never by the supervisor). Undefined when
 * not found.
 */
export function programPid(outerPid: number): number | undefined {
  const queue = [outerPid];
  for (let seen = 0; queue.length > 0 && seen < MAX_WALK; seen++) {
    const pid = queue.shift()!;
    if (pid !== outerPid && innerPid(pid) === SUPERVISOR_NS_PID) {
      const kids = children(pid);
      return kids.length === 1 ? kids[0] : undefined;
    }
    queue.push(...children(pid));
  }
  return undefined;
}

/** The status `pid` exits with, when the kernel says it is exiting; else undefined. */
export function exitingStatus(pid: number): SupervisorStatus | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state)
  const flags = Number(fields[6]);
  const code = Number(fields[49]);
  if (!(flags & PF_EXITING) || !Number.isInteger(code)) return undefined;
  return (code & 0x7f) === 0 ? { exit: (code >> 8) & 0xff } : { signal: code & 0x7f };
}
