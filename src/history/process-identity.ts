/**
 * Which process is running a run, written so that another process on the same host can tell
 * whether that process is still alive: `<hostname>/<pid>/<start>`, where `<start>` is the
 * process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`, see proc(5)),
 * so that a recycled pid is not mistaken for the original process. Empty `<start>` where `/proc`
 * is unavailable.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Start time of a process in clock ticks since boot, or undefined when it does not exist (or no /proc). */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may itself contain spaces or ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19]; // field 22 of proc(5); fields[0] is field 3
  } catch {
    return undefined;
  }
}

let self: string | undefined;

/** This process's identity (computed once). */
export function thisProcess(): string {
  self ??= `${hostname()}/${process.pid}/${processStartTicks(process.pid) ?? ''}`;
  return self;
}

/**
 * True only when `identity` names a process on this host that is certainly gone: its pid does not
 * exist, or exists with another start time (recycled). A process on another host, or an identity
 * that cannot be parsed, is never called gone (it may be a live process elsewhere).
 */
export function isProcessGone(identity: string): boolean {
  const [host, pidText, start] = identity.split('/');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = processStartTicks(pid);
  return Boolean(start && now && now !== start);
}
