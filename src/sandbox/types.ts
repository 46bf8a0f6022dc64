import type { PythonEnvironment } from './environment.js';
import type { ToolBrokerStarter } from '../tools/types.js';

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

export type { LimitName, Artifact, InputFile, CheckResult, CheckReport, ExecutionResult } from '../history/execution.js';
import type { InputFile, ExecutionResult } from '../history/execution.js';

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
