/**
 * A control group per run: memory (the whole process tree; swap too where the kernel accounts it),
 * processes and CPU. Created *below* the cgroup this service runs in (never moving the service's
 * own processes) and removed after the run. cgroup v2 where the service's cgroup delegates the
 * memory and pids controllers; else cgroup v1 hierarchies (memory, pids, cpu) writable here.
 * Kernel docs: https://docs.kernel.org/admin-guide/cgroup-v2.html,
 * https://docs.kernel.org/admin-guide/cgroup-v1/memory.html, …/cgroup-v1/pids.html.
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Root of the cgroup mounts. */
export const CGROUP_ROOT = '/sys/fs/cgroup';
/** CPU a run may use at once, in CPUs (a CFS quota per period). */
export const RUN_CPUS = 1;
const CFS_PERIOD_US = 100_000;

/** Which cgroups a run gets, and why (for `code-agent doctor` and the startup line). */
export interface CgroupSupport {
  /** `v2`, `v1`, or `none` (rlimits only). */
  mode: 'v2' | 'v1' | 'none';
  /** In words: where the run cgroups go, or why there are none. */
  reason: string;
  /** v2: the parent dir of the run cgroups. v1: one parent dir per controller. */
  parents: { memory: string; pids: string; cpu?: string; cpuacct?: string } | null;
}

/** The parent dirs of the run cgroups (one per controller on v1, one on v2; none without cgroups), as the sweep takes them. */
export function cgroupParentDirs(support: CgroupSupport): string[] {
  return Object.values(support.parents ?? {}).filter((p): p is string => typeof p === 'string');
}

/** What the cgroup's own counters say after a run. */
export interface CgroupFacts {
  /** Processes the kernel's OOM killer killed in the run's cgroup. */
  oomKills: number;
  /** Times a fork/clone was refused at the process limit. */
  pidsMax: number;
  /** CPU time the whole tree used, in s. */
  cpuS: number;
  /** Highest memory charged at once, in bytes (0 where the kernel does not say). */
  peakBytes: number;
}

/** Limits of one run's cgroup. */
export interface CgroupLimits {
  /** Memory + swap of the whole tree, in bytes. */
  memoryBytes: number;
  /** Processes and threads of the whole tree. */
  maxProcesses: number;
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};
const field = (text: string, key: string) => Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

/** @returns this process's cgroup path per controller name (`''` = the v2 unified one), from /proc/self/cgroup. */
export function ownCgroups(text = read('/proc/self/cgroup')): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    for (const name of m[1]!.split(',')) out.set(name.replace(/^name=/, ''), m[2]!);
  }
  return out;
}

/** Tries to create and remove a probe dir under `dir`. */
function writable(dir: string): boolean {
  const probe = join(dir, `code-agent-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** The unified (v2) mount: /sys/fs/cgroup itself, or /sys/fs/cgroup/unified on hybrid hosts. */
function unifiedMount(): string | null {
  if (read(join(CGROUP_ROOT, 'cgroup.controllers')) !== '') return CGROUP_ROOT;
  if (read(join(CGROUP_ROOT, 'unified', 'cgroup.controllers')) !== '') return join(CGROUP_ROOT, 'unified');
  return null;
}

/**
 * Finds where run cgroups can go. Never throws; `mode: 'none'` says why not.
 * @param off forces `none` (config `sandbox.cgroups: off`)
 */
export function detectCgroups(off = false): CgroupSupport {
  if (off) return { mode: 'none', reason: 'cgroups turned off by config (sandbox.cgroups: off)', parents: null };
  const own = ownCgroups();
  const unified = unifiedMount();
  const v2Path = own.get('');
  if (unified && v2Path !== undefined) {
    const dir = join(unified, v2Path);
    const sub = read(join(dir, 'cgroup.subtree_control'));
    if (/\bmemory\b/.test(sub) && /\bpids\b/.test(sub) && writable(dir)) {
      return { mode: 'v2', reason: `cgroup v2, delegated below ${dir}`, parents: { memory: dir, pids: dir, cpu: dir } };
    }
  }
  const v1 = (name: string) => {
    const p = own.get(name);
    const dir = p === undefined ? null : join(CGROUP_ROOT, name, p);
    return dir && read(join(dir, 'cgroup.procs')) !== '' && writable(dir) ? dir : null;
  };
  const memory = v1('memory');
  const pids = v1('pids');
  if (memory && pids) {
    const cpu = v1('cpu') ?? undefined;
    const cpuacct = v1('cpuacct') ?? undefined;
    return { mode: 'v1', reason: `cgroup v1 (memory ${memory}, pids ${pids}${cpu ? `, cpu ${cpu}` : ''})`, parents: { memory, pids, cpu, cpuacct } };
  }
  const why = unified
    ? 'the memory and pids controllers are not delegated to this service (cgroup v2) and no cgroup v1 memory+pids hierarchy is writable'
    : 'no writable cgroup v1 memory+pids hierarchy';
  return { mode: 'none', reason: `${why}; limits are per process (rlimits)`, parents: null };
}

/** One run's cgroup (one dir per v1 controller, or one v2 dir). */
export class RunCgroup {
  /** The `cgroup.procs` files a process writes its pid to, to join this run's cgroup. */
  readonly procsFiles: string[];
  private readonly dirs: Map<string, string>;

  private constructor(private readonly support: CgroupSupport, dirs: Map<string, string>) {
    this.dirs = dirs;
    this.procsFiles = [...new Set(dirs.values())].map((d) => join(d, 'cgroup.procs'));
  }

  /**
   * Creates the cgroup `name` under each parent and sets its limits.
   * @throws {Error} when the kernel refuses (the dirs made so far are removed)
   */
  static create(support: CgroupSupport, name: string, limits: CgroupLimits): RunCgroup {
    const parents = support.parents;
    if (!parents) throw new Error('no cgroup support');
    const dirs = new Map<string, string>();
    for (const [ctl, parent] of Object.entries(parents)) if (parent) dirs.set(ctl, join(parent, name));
    const cg = new RunCgroup(support, dirs);
    try {
      for (const dir of new Set(dirs.values())) mkdirSync(dir);
      cg.setLimits(limits);
    } catch (err) {
      cg.remove();
      throw err;
    }
    return cg;
  }

  /** Sets (or changes, e.g. when a pooled sandbox takes a job) the limits. */
  setLimits(limits: CgroupLimits): void {
    const mem = String(Math.floor(limits.memoryBytes));
    const procs = String(Math.floor(limits.maxProcesses));
    const w = (ctl: string, file: string, value: string, optional = false) => {
      const dir = this.dirs.get(ctl);
      if (!dir) return;
      try {
        writeFileSync(join(dir, file), value);
      } catch (err) {
        if (!optional) throw err;
      }
    };
    if (this.support.mode === 'v2') {
      w('memory', 'memory.max', mem);
      w('memory', 'memory.swap.max', '0', true); // no swap: memory.max is all the run gets
      w('pids', 'pids.max', procs);
      w('cpu', 'cpu.max', `${RUN_CPUS * CFS_PERIOD_US} ${CFS_PERIOD_US}`, true);
      return;
    }
    // memsw (memory + swap; absent without swap accounting) may never be below the memory limit:
    // raising needs memsw first, lowering the memory limit first
    w('memory', 'memory.limit_in_bytes', mem, true);
    w('memory', 'memory.memsw.limit_in_bytes', mem, true);
    w('memory', 'memory.limit_in_bytes', mem);
    w('pids', 'pids.max', procs);
    w('cpu', 'cpu.cfs_period_us', String(CFS_PERIOD_US), true);
    w('cpu', 'cpu.cfs_quota_us', String(RUN_CPUS * CFS_PERIOD_US), true);
  }

  /** The kernel's counters for this run. */
  facts(): CgroupFacts {
    const dir = (ctl: string) => this.dirs.get(ctl) ?? '';
    if (this.support.mode === 'v2') {
      const events = read(join(dir('memory'), 'memory.events'));
      return {
        oomKills: field(events, 'oom_kill'),
        pidsMax: field(read(join(dir('pids'), 'pids.events')), 'max'),
        cpuS: field(read(join(dir('cpu'), 'cpu.stat')), 'usage_usec') / 1e6,
        peakBytes: Number(read(join(dir('memory'), 'memory.peak')).trim() || 0),
      };
    }
    const usage = this.dirs.has('cpuacct') ? Number(read(join(dir('cpuacct'), 'cpuacct.usage')).trim() || 0) / 1e9 : 0;
    return {
      oomKills: field(read(join(dir('memory'), 'memory.oom_control')), 'oom_kill'),
      pidsMax: field(read(join(dir('pids'), 'pids.events')), 'max'),
      cpuS: usage,
      peakBytes: Number(read(join(dir('memory'), 'memory.max_usage_in_bytes')).trim() || 0),
    };
  }

  /** Memory charged now, in bytes (a pooled sandbox's warm-up, added to the job's budget). */
  usageBytes(): number {
    const dir = this.dirs.get('memory') ?? '';
    const file = this.support.mode === 'v2' ? 'memory.current' : 'memory.usage_in_bytes';
    return Number(read(join(dir, file)).trim() || 0);
  }

  /** SIGKILLs every process in the cgroup (v2: cgroup.kill; v1: each pid listed). */
  kill(): void {
    if (this.support.mode === 'v2') {
      try {
        writeFileSync(join(this.dirs.get('pids')!, 'cgroup.kill'), '1');
        return;
      } catch {
        /* kernels before 5.14: kill pid by pid */
      }
    }
    for (let round = 0; round < 3; round++) {
      for (const file of this.procsFiles) {
        for (const pid of read(file).split('\n').filter(Boolean)) {
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            /* gone */
          }
        }
      }
    }
  }

  /**
   * Kills what is left and removes the dirs, waiting (without spinning) while the kernel reaps.
   * The rmdirs run on libuv's thread pool: removing a v1 memory cgroup that held a run's pages
   * takes the kernel ~10 ms (it drains per-CPU page caches), which must not block the event loop.
   * Never throws.
   */
  async removeAsync(): Promise<void> {
    const left = new Set(this.dirs.values());
    for (let attempt = 0; left.size > 0 && attempt < REMOVE_ATTEMPTS; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 2));
      if (attempt % 20 === 0) this.kill();
      await Promise.all(
        [...left].map((dir) =>
          rmdir(dir).then(
            () => left.delete(dir),
            (err: NodeJS.ErrnoException) => err.code === 'ENOENT' && left.delete(dir),
          ),
        ),
      );
    }
  }

  /** {@link removeAsync} for a process that is exiting (no event loop: spins while the kernel reaps). Never throws. */
  remove(): void {
    for (let attempt = 0; !this.tryRemove(attempt) && attempt < REMOVE_ATTEMPTS; attempt++) {
      const until = Date.now() + 2;
      while (Date.now() < until) {
        /* the kernel is still reaping the last processes */
      }
    }
  }

  /** One round: kill (now and then), rmdir what is empty. @returns true when every dir is gone */
  private tryRemove(attempt: number): boolean {
    if (attempt % 20 === 0) this.kill();
    let left = false;
    for (const dir of new Set(this.dirs.values())) {
      try {
        rmdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') left = true;
      }
    }
    return !left;
  }
}

/** rmdir rounds before a run cgroup is given up on (about 0.5 s). */
const REMOVE_ATTEMPTS = 250;

/**
 * The shell prologue of a sandbox command: joins the run cgroup (its pid into each `cgroup.procs`)
 * before it execs the sandbox, so every process of the run is inside from the first instruction.
 * With `gate`, it then says `{"ready": true}` on fd `gate.readyFd` and waits for one line on fd
 * `gate.fd` before the exec: a prepared slot, whose cgroup join (an RCU grace period, ~10 ms on
 * cgroup v1) and mount are paid before the run asks for it.
 */
export function launchCommand(procsFiles: string[], file: string, args: string[], gate?: { fd: number; readyFd: number }): [string, string[]] {
  const join = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; ';
  const wait = gate ? `echo '{"ready": true}' >&${gate.readyFd}; read -r _ <&${gate.fd} || exit 125; ` : '';
  return ['/bin/sh', ['-c', `${join}${wait}exec "$@"`, 'sh', String(procsFiles.length), ...procsFiles, file, ...args]];
}
