/**
 * Builds the command line of one sandboxed execution:
 * `prlimit … -- [setpriv --reuid U …] -- bwrap … python /opt/code-agent/runner.py`.
 * Pure functions: no I/O here, so the shape of the sandbox can be read (and tested) in one place.
 */
import type { ExecutionLimits } from './types.js';
import { SHM_BYTES, TMPFS_BYTES } from './limits.js';
import { SANDBOX_SITE_DIRS } from './python-packages.js';

/** Where the work dir appears inside the sandbox. */
export const SANDBOX_WORK_DIR = '/work';
/** Where the runner script appears inside the sandbox (read-only). */
export const SANDBOX_RUNNER_PATH = '/opt/code-agent/runner.py';
/** Where the runner's bytecode appears inside the sandbox, when the host compiled it (runner.ts). */
export const SANDBOX_RUNNER_BYTECODE_PATH = '/opt/code-agent/runner.pyc';

/** Where the Python package `tools` (src/tools/python) appears inside the sandbox, on sys.path. */
export const SANDBOX_TOOLS_PACKAGE_DIR = '/opt/code-agent/pylib';
/** Where an execution's tools folder (the tool broker's socket, its CA) appears inside the sandbox (read-only). */
export const SANDBOX_TOOLS_DIR = '/run/code-agent/tools';

/** Where the matplotlib font list made at executor setup appears inside the sandbox (environment.ts). */
export const SANDBOX_FONT_CACHE_DIR = '/opt/code-agent/mpl';

/** The runner's path inside the sandbox for its host path (source or bytecode). */
const sandboxRunner = (hostPath: string) => (hostPath.endsWith('.pyc') ? SANDBOX_RUNNER_BYTECODE_PATH : SANDBOX_RUNNER_PATH);
/** The user code file inside the work dir; tracebacks name it. */
export const USER_CODE_FILE = 'main.py';
/** The uid/gid the program sees inside its user namespace. */
export const SANDBOX_INNER_ID = 1000;
/** Python flags: `-S` skips `site` (the runner sets up sys.path itself; ~15 ms faster start). */
export const PYTHON_FLAGS = ['-S'];
/** Child fd from which the runner reads the checks' source (see runner.py). */
export const CHECKS_FD = 4;
/** Child fd on which the runner reports the checks' outcome (a pipe the host reads). */
export const REPORT_FD = 5;
/** Child fd on which the runner's supervisor reports the program's real wait status (see runner.py). */
export const STATUS_FD = 6;
/** Child fd on which the runner's child sends one byte right before it exits (see exit-status.ts). */
export const EXIT_HINT_FD = 7;
/** Processes of our own in a run cgroup (sh/bwrap, bwrap's init, the supervisor), added to pids.max. */
export const OWN_PROCESSES = 4;
/** Extra CPU seconds between SIGXCPU (soft limit) and SIGKILL (hard limit). */
export const CPU_HARD_GRACE_S = 1;

/**
 * The program's whole environment, built from nothing: no host variable ever reaches it.
 */
export const SANDBOX_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: '/usr/bin:/bin',
  HOME: '/tmp',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  PYTHONIOENCODING: 'utf-8',
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONUNBUFFERED: '1',
  OPENBLAS_NUM_THREADS: '1',
  OMP_NUM_THREADS: '1',
  MKL_NUM_THREADS: '1',
  MPLBACKEND: 'Agg',
  MPLCONFIGDIR: '/tmp/matplotlib',
  // glibc reserves an arena per thread against RLIMIT_AS; two arenas let programs start threads
  MALLOC_ARENA_MAX: '2',
});

/** Absolute paths of the helper programs. */
export interface SandboxTools {
  prlimit: string;
  bwrap: string;
  setpriv: string;
}

/** Everything that varies between two executions' command lines. */
export interface CommandSpec {
  tools: SandboxTools;
  /** Python interpreter (absolute path, inside /usr). */
  python: string;
  /** Host path of the runner script (`.py`) or its bytecode (`.pyc`), bound read-only. */
  runnerPath: string;
  /** Host path of the private work dir, bound read-write at {@link SANDBOX_WORK_DIR}. */
  workDir: string;
  /** Read-only host folders of the Python environment: site dirs and the font list (none: no such bind). */
  pythonDirs?: PythonDirs;
  /**
   * Host folder of the slot's tool broker (`broker.sock`, `ca.pem` once an execution with tools
   * starts), bound read-only at {@link SANDBOX_TOOLS_DIR}. Undefined: no tools.
   */
  toolsDir?: string;
  limits: ExecutionLimits;
  /** Host uid/gid to drop to before bwrap (root only; makes RLIMIT_NPROC count). Null: stay as is. */
  hostId: number | null;
  /** Extra processes the host user already owns (non-root only), added to the process limit. */
  nprocOffset?: number;
  /** False: rlimits only, no namespaces (the explicit unisolated mode). */
  isolated: boolean;
  /** Child fd from which bwrap reads a seccomp filter (see seccomp.ts), or undefined for none. */
  seccompFd?: number;
  /** The runner reads checks from {@link CHECKS_FD} and reports on {@link REPORT_FD}. */
  checks?: boolean;
  /**
   * The run has a cgroup: memory is bounded for the whole tree there (no per-process RLIMIT_AS),
   * and the process limit is the cgroup's (RLIMIT_NPROC is left above it, so pids.events names it).
   */
  cgroup?: boolean;
  /**
   * How the runner gets its job: `pool` warms up (imports), then reads the job (JSON) from
   * {@link CHECKS_FD}; `job` reads it the same way without warming up (a prepared slot's cold
   * start). Undefined: the checks, if any, are a file on {@link CHECKS_FD}.
   */
  jobMode?: 'pool' | 'job';
}

/** Host folders the sandbox's Python uses beyond /usr (python-packages.ts, environment.ts). */
export interface PythonDirs {
  /** The default wheels' site dir, bound at {@link SANDBOX_SITE_DIRS}.wheels. */
  wheels?: string;
  /** The operator's packages' site dir, bound at {@link SANDBOX_SITE_DIRS}.extra (first on sys.path). */
  extra?: string;
  /** The folder holding matplotlib's font list, bound at {@link SANDBOX_FONT_CACHE_DIR}. */
  fontCache?: string;
  /** The folder holding the `tools` package, bound at {@link SANDBOX_TOOLS_PACKAGE_DIR} (last on sys.path of the three). */
  tools?: string;
}

/** Each Python folder as `[host, path inside the sandbox]`, in sys.path order (operator's first). */
export function pythonBinds(dirs: PythonDirs | undefined): Array<[string, string]> {
  const binds: Array<[string, string]> = [];
  if (dirs?.extra) binds.push([dirs.extra, SANDBOX_SITE_DIRS.extra]);
  if (dirs?.wheels) binds.push([dirs.wheels, SANDBOX_SITE_DIRS.wheels]);
  if (dirs?.tools) binds.push([dirs.tools, SANDBOX_TOOLS_PACKAGE_DIR]);
  if (dirs?.fontCache) binds.push([dirs.fontCache, SANDBOX_FONT_CACHE_DIR]);
  return binds;
}

/**
 * The runner's options for the Python folders: `--path DIR` per site dir (sys.path order) and
 * `--font-cache DIR`, as the program sees them (sandbox paths; host paths when unisolated).
 */
export function pythonDirArgs(dirs: PythonDirs | undefined, isolated: boolean): string[] {
  const inSandbox = (host: string, inside: string) => (isolated ? inside : host);
  const args: string[] = [];
  if (dirs?.extra) args.push('--path', inSandbox(dirs.extra, SANDBOX_SITE_DIRS.extra));
  if (dirs?.wheels) args.push('--path', inSandbox(dirs.wheels, SANDBOX_SITE_DIRS.wheels));
  if (dirs?.tools) args.push('--path', inSandbox(dirs.tools, SANDBOX_TOOLS_PACKAGE_DIR));
  if (dirs?.fontCache) args.push('--font-cache', inSandbox(dirs.fontCache, SANDBOX_FONT_CACHE_DIR));
  return args;
}

/** rlimits as `prlimit` options. Memory and file sizes in bytes, CPU in s. */
export function prlimitArgs(limits: ExecutionLimits, nprocOffset = 0, cgroup = false): string[] {
  const cpu = Math.max(1, Math.ceil(limits.cpuTimeS));
  return [
    ...(cgroup ? [] : [`--as=${Math.floor(limits.memoryBytes)}`]),
    `--cpu=${cpu}:${cpu + CPU_HARD_GRACE_S}`,
    `--nproc=${Math.floor(limits.maxProcesses) + nprocOffset + (cgroup ? 2 * OWN_PROCESSES : 0)}`,
    `--fsize=${Math.floor(limits.maxFileBytes)}`,
    `--nofile=${Math.floor(limits.maxOpenFiles)}`,
    '--core=0',
  ];
}

/**
 * bwrap options: every namespace new, system paths read-only, the root and /dev read-only;
 * writable are the work dir (host disk) and two size-capped tmpfs (/tmp, /dev/shm: host RAM).
 */
export function bwrapArgs(spec: Pick<CommandSpec, 'workDir' | 'runnerPath' | 'seccompFd' | 'pythonDirs' | 'toolsDir'>): string[] {
  const env = Object.entries(SANDBOX_ENV).flatMap(([k, v]) => ['--setenv', k, v]);
  return [
    '--unshare-all',
    '--unshare-user', // required, not just tried, so that --disable-userns applies
    '--disable-userns', // no nested user namespaces: they would give back capabilities inside
    '--hostname', 'sandbox', // the host's name is not the program's business
    ...(spec.seccompFd !== undefined ? ['--seccomp', String(spec.seccompFd)] : []),
    '--die-with-parent',
    '--new-session',
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/lib', '/lib',
    '--symlink', 'usr/lib64', '/lib64',
    '--symlink', 'usr/bin', '/bin',
    '--ro-bind', '/etc/alternatives', '/etc/alternatives',
    '--ro-bind', '/etc/ld.so.cache', '/etc/ld.so.cache',
    '--ro-bind-try', '/etc/fonts', '/etc/fonts',
    '--ro-bind-try', '/etc/matplotlibrc', '/etc/matplotlibrc',
    '--ro-bind-try', '/etc/localtime', '/etc/localtime',
    '--proc', '/proc',
    '--dev', '/dev',
    '--size', String(SHM_BYTES), '--tmpfs', '/dev/shm',
    '--remount-ro', '/dev',
    '--size', String(TMPFS_BYTES), '--tmpfs', '/tmp',
    '--ro-bind', spec.runnerPath, sandboxRunner(spec.runnerPath),
    ...pythonBinds(spec.pythonDirs).flatMap(([host, inside]) => ['--ro-bind', host, inside]),
    // the broker's socket: connecting needs no write access to the mount (the sandbox keeps --unshare-net)
    ...(spec.toolsDir ? ['--ro-bind', spec.toolsDir, SANDBOX_TOOLS_DIR] : []),
    '--bind', spec.workDir, SANDBOX_WORK_DIR,
    '--remount-ro', '/', // bwrap's root is an unbounded tmpfs: nothing may be written there
    '--chdir', SANDBOX_WORK_DIR,
    '--clearenv',
    ...env,
    '--cap-drop', 'ALL',
    '--uid', String(SANDBOX_INNER_ID),
    '--gid', String(SANDBOX_INNER_ID),
  ];
}

/** setpriv options that drop root to an unprivileged host uid/gid with no capabilities. */
export function setprivArgs(id: number): string[] {
  return ['--reuid', String(id), '--regid', String(id), '--clear-groups', '--inh-caps=-all'];
}

/**
 * The full command line. In a job mode the runner's child sets the run's rlimits itself (from the
 * job, job.ts), so `prlimit` is left out: one exec less per start.
 * @returns `[file, args]` for `spawn`; in unisolated mode python runs the host copy of the runner
 * with the work dir as its current directory (the caller sets `cwd`).
 */
export function buildCommand(spec: CommandSpec): [string, string[]] {
  const chain = spec.jobMode ? [] : [spec.tools.prlimit, ...prlimitArgs(spec.limits, spec.nprocOffset, spec.cgroup), '--'];
  if (spec.hostId !== null) chain.push(spec.tools.setpriv, ...setprivArgs(spec.hostId), '--');
  if (spec.isolated) {
    chain.push(spec.tools.bwrap, ...bwrapArgs(spec), spec.python, ...PYTHON_FLAGS, sandboxRunner(spec.runnerPath));
  } else {
    chain.push(spec.python, ...PYTHON_FLAGS, spec.runnerPath);
  }
  if (spec.checks || spec.jobMode) chain.push('--checks-fd', String(CHECKS_FD), '--report-fd', String(REPORT_FD));
  if (spec.isolated) chain.push('--exit-hint-fd', String(EXIT_HINT_FD));
  chain.push(...pythonDirArgs(spec.pythonDirs, spec.isolated));
  if (spec.toolsDir) chain.push('--tools-dir', spec.isolated ? SANDBOX_TOOLS_DIR : spec.toolsDir);
  chain.push('--status-fd', String(STATUS_FD));
  if (spec.jobMode) chain.push(`--${spec.jobMode}`);
  return [chain[0]!, chain.slice(1)];
}
