/**
 * Names the limit that stopped a program, from how it ended and the tail of its stderr.
 * Our own kills (wall time, output, cancel) are known for sure; the rest is read from
 * signals (SIGXCPU, SIGXFSZ, SIGKILL) and from the error Python printed last.
 */
import type { LimitName } from './types.js';

/** How a process ended, as seen from the host. */
export interface Ending {
  exitCode: number | null;
  signal: string | null;
  /** We killed it at the wall time. */
  timedOut: boolean;
  /** We killed it because its output passed the cap. */
  outputExceeded: boolean;
  /** We killed it because the caller aborted. */
  cancelled: boolean;
  stderr: string;
  /** Wall time used, in ms. */
  durationMs: number;
  /** CPU limit, in s. */
  cpuTimeS: number;
}

/** How much of stderr's end is searched for a resource error, in characters. */
const STDERR_TAIL_CHARS = 2000;

const PATTERNS: Array<[LimitName, RegExp]> = [
  ['memory', /\bMemoryError\b|Cannot allocate memory|Unable to allocate|std::bad_alloc|out of memory/i],
  ['processes', /Resource temporarily unavailable|BlockingIOError|can't start new thread|fork: retry/],
  ['file_size', /File too large|\[Errno 27\]/],
];

/** @returns the limit hit, or null when the program ended on its own (or was cancelled). */
export function classifyLimit(e: Ending): LimitName | null {
  if (e.cancelled) return null;
  if (e.outputExceeded) return 'output';
  if (e.timedOut) return 'wall_time';
  if (e.signal === 'SIGXCPU') return 'cpu_time';
  if (e.signal === 'SIGXFSZ') return 'file_size';
  if (e.signal === 'SIGKILL') {
    // Nobody here sent it: the CPU hard limit, or the kernel out of memory.
    return e.durationMs >= e.cpuTimeS * 1000 ? 'cpu_time' : 'memory';
  }
  if (e.exitCode === 0 && e.signal === null) return null;
  const tail = e.stderr.slice(-STDERR_TAIL_CHARS);
  // The error printed last is the one that ended the program.
  let best: { name: LimitName; at: number } | null = null;
  for (const [name, re] of PATTERNS) {
    const global = new RegExp(re.source, re.flags + 'g');
    for (const m of tail.matchAll(global)) if (best === null || m.index > best.at) best = { name, at: m.index };
  }
  return best?.name ?? null;
}
