import type { PythonEnvironment } from './environment.js';
import type { ToolBrokerStarter, ToolCallRecord } from '../tools/types.js';

/**
 * The sandbox boundary: one interface, many possible backends (bubblewrap today).
 * Words follow docs/architecture.md ("Words"): an execution result carries the artifacts the program wrote.
 */

/** Resource limits for one execution. All sizes in bytes, times in seconds. */
export interface ExecutionLimits {
  /** Wall-clock time before the whole process tree is killed, in s. Default 10. */
  wallTimeS: number;
  /** CPU time (RLIMIT_CPU), in s. Default 10. */
  cpuTimeS: number;
  /** Address-space limit per process (RLIMIT_AS), in bytes. Default 512 MiB. */
  memoryBytes: number;
  /** Maximum number of processes/threads (RLIMIT_NPROC). Default 64. */
  maxProcesses: number;
  /** Maximum size of any one written file (RLIMIT_FSIZE), in bytes. Default 16 MiB. */
  maxFileBytes: number;
  /** Maximum number of open file descriptors (RLIMIT_NOFILE). Default 256. */
  maxOpenFiles: number;
  /** Total bytes of stdout + stderr kept; past this the program is killed. Default 1 MiB. */
  maxOutputBytes: number;
  /** Maximum number of artifacts returned. Default 10. */
  maxArtifacts: number;
  /** Maximum size of one returned artifact, in bytes. Default 8 MiB. */
  maxArtifactBytes: number;
}

/**
 * Which limit stopped the program, if any. `work_dir_files` (more files and folders in the work
 * dir than allowed) and `work_dir_bytes` (more data in the work dir than allowed) are additions
 * to the original contract; both used to be reported as `file_size`.
 */
export type LimitName =
  | 'wall_time'
  | 'cpu_time'
  | 'memory'
  | 'processes'
  | 'file_size'
  | 'output'
  | 'artifacts'
  | 'work_dir_files'
  | 'work_dir_bytes';

/** A file the program wrote into its work dir, copied out to the host. */
export interface Artifact {
  /** Cleaned file name, relative to the work dir (no `..`, no leading `/`). */
  name: string;
  /** Absolute path on the host where the artifact was kept. */
  path: string;
  /** Size in bytes. */
  bytes: number;
  /**
   * The name the program wrote the file under, when it is returned under another one: two files
   * whose names were the same once made safe (`a b.csv` and `a_b.csv`) both come back, the second
   * as `a_b-2.csv`.
   */
  renamedFrom?: string;
  /**
   * Tables the program wrote (CSV, TSV, Excel): their first rows, read in the sandbox after the
   * execution (see src/data/table-preview.ts), for a preview under the file. Added to the shape.
   */
  preview?: { rows: string[][] };
}

/** A file placed into the work dir before the program starts (e.g. a chat attachment). */
export interface InputFile {
  /** File name; it is cleaned the same way as artifact names. */
  name: string;
  content: Buffer;
}

/** One check's outcome: a top-level statement of the checks (an `assert`, or a setup line that failed). */
export interface CheckResult {
  /** The statement's source, e.g. `assert len(values) == 20, "20 numbers"`. */
  check: string;
  passed: boolean;
  /** Why it failed: `got 8, expected == 20`, `was false`, or the exception, e.g. `NameError: …`. */
  detail?: string;
}

/** What the checks phase of an execution reported. */
export interface CheckReport {
  /** One entry per assert run (and one for a setup line that failed, which ends the checks). */
  results: CheckResult[];
  /** Set when the checks could not be run at all (not valid Python; the program ended before them). */
  error?: string;
  /**
   * Asserts that were not run because they read nothing of the program (neither `OUTPUT` nor a
   * name it defined, nor a value computed from them): they cannot tell a right program from a wrong one.
   */
  ignored?: string[];
}

/** What one execution produced. */
export interface ExecutionResult {
  /** True when the program exited 0 and hit no limit. */
  success: boolean;
  stdout: string;
  stderr: string;
  /** Exit code, or null when killed by a signal. */
  exitCode: number | null;
  /** Signal name (e.g. `SIGKILL`) when killed by a signal, else null. */
  signal: string | null;
  timedOut: boolean;
  /** The limit that stopped the program, if any. */
  limitHit: LimitName | null;
  /** Wall time of the execution, in ms. */
  durationMs: number;
  artifacts: Artifact[];
  /**
   * Host paths of the full text of a stream that was cut where it was stored (the history keeps
   * a bounded copy). Absent when nothing was cut. Addition to the contract.
   */
  fullOutput?: { stdout?: string; stderr?: string };
  /**
   * The checks' outcome, when checks were given and the program exited 0 (a program that failed is
   * never checked). `success` is about the program alone and does not include the checks.
   */
  checks?: CheckReport;
  /**
   * Every call the program made to a tool through the host-side broker, in order (absent when the
   * execution had no tools). Addition to the contract.
   */
  toolCalls?: ToolCallRecord[];
  /**
   * CPU time the program's whole process tree used, in s, as its cgroup counted it (absent where
   * no cgroup measures it). Addition to the contract.
   */
  cpuS?: number;
}

/** Options of one execution. */
export interface ExecuteOptions {
  /** Files to place in the work dir before the program starts. */
  inputFiles?: InputFile[];
  /** Host directory where artifacts are copied (created if missing). */
  artifactDir?: string;
  /** Cancels the execution: the process tree is killed and the result says so. */
  signal?: AbortSignal;
  /**
   * Python source of checks run after the program when it exits 0, in a copy of its globals with
   * `OUTPUT` (its stdout, str) added; each top-level `assert` is one check. The program cannot read
   * or change them before it ends, and their outcome never travels on stdout/stderr.
   */
  checks?: string;
  /** Overrides of the executor's default limits for this execution. */
  limits?: Partial<ExecutionLimits>;
  /**
   * The tools this execution may call (src/tools): a broker started on the host before the program
   * runs and stopped when it ends; its calls come back as {@link ExecutionResult.toolCalls}.
   */
  tools?: ToolBrokerStarter;
}

/** Runs untrusted Python code in isolation. */
export interface Executor {
  /**
   * Runs `code` as a Python program in a fresh private work dir.
   * Never throws for anything the program does; throws {@link SandboxUnavailableError}
   * when isolation cannot be set up.
   */
  execute(code: string, options?: ExecuteOptions): Promise<ExecutionResult>;
  /**
   * Checks, once, that isolation works here, so callers can refuse before spending an LLM call.
   * @throws {SandboxUnavailableError} saying why and how to fix it.
   */
  check(): Promise<void>;
  /** Releases what the executor keeps on the host (its temp folder). Optional for backends with nothing to release. */
  close?(): Promise<void>;
  /**
   * What the sandbox's Python offers (packages that import, fonts), probed once. Optional: without
   * it the LLM is told a fixed default list.
   */
  environment?(): Promise<PythonEnvironment>;
  /** The environment known without starting anything (a cache), or undefined. */
  cachedEnvironment?(): PythonEnvironment | undefined;
}

/** Isolation is not available on this machine; the message says why and how to fix it. */
export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}
