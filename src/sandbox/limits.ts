/**
 * Resource limits as named constants, and their mapping from `config.yaml` (`sandbox.*` keys).
 * Sizes are in bytes, times in seconds, unless a name says otherwise.
 */
import type { ExecutionLimits } from './types.js';

/** One mebibyte, in bytes. */
export const MIB = 1024 * 1024;

/** Wall-clock time before the process tree is killed, in s. */
export const WALL_TIME_S = 10;
/** CPU time (RLIMIT_CPU soft limit; SIGXCPU), in s. */
export const CPU_TIME_S = 10;
/** Address space per process (RLIMIT_AS), in bytes: 512 MiB. */
export const MEMORY_BYTES = 512 * MIB;
/** Processes and threads of the sandbox user (RLIMIT_NPROC). */
export const MAX_PROCESSES = 64;
/** Largest file the program may write (RLIMIT_FSIZE), in bytes: 16 MiB. */
export const MAX_FILE_BYTES = 16 * MIB;
/** Open file descriptors (RLIMIT_NOFILE). */
export const MAX_OPEN_FILES = 256;
/** stdout + stderr kept in total, in bytes: 1 MiB. Past this the program is killed. */
export const MAX_OUTPUT_BYTES = 1 * MIB;
/** Artifacts returned per execution. */
export const MAX_ARTIFACTS = 10;
/** Largest artifact returned, in bytes: 8 MiB. */
export const MAX_ARTIFACT_BYTES = 8 * MIB;
/** Size of the private `/tmp` tmpfs inside the sandbox, in bytes: 64 MiB (it lives in host RAM). */
export const TMPFS_BYTES = 64 * MIB;
/** Size of the private `/dev/shm` tmpfs (multiprocessing semaphores), in bytes: 16 MiB. */
export const SHM_BYTES = 16 * MIB;

/** The executor's defaults (docs/sandbox.md). */
export const DEFAULT_LIMITS: Readonly<ExecutionLimits> = Object.freeze({
  wallTimeS: WALL_TIME_S,
  cpuTimeS: CPU_TIME_S,
  memoryBytes: MEMORY_BYTES,
  maxProcesses: MAX_PROCESSES,
  maxFileBytes: MAX_FILE_BYTES,
  maxOpenFiles: MAX_OPEN_FILES,
  maxOutputBytes: MAX_OUTPUT_BYTES,
  maxArtifacts: MAX_ARTIFACTS,
  maxArtifactBytes: MAX_ARTIFACT_BYTES,
});

/** The `sandbox` section of `config.yaml`, as far as limits go (all keys optional). */
export interface SandboxLimitConfig {
  /** Wall time, in s. */
  timeout_s?: number;
  /** CPU time, in s. */
  cpu_time_s?: number;
  /** Address space per process, in MiB. */
  memory_mb?: number;
  max_processes?: number;
  /** Largest written file, in MiB. */
  max_file_mb?: number;
  max_open_files?: number;
  /** Total output kept, in KiB. */
  max_output_kb?: number;
  max_artifacts?: number;
  /** Largest returned artifact, in MiB. */
  max_artifact_mb?: number;
}

/**
 * Maps the `sandbox.*` config keys (s, MiB, KiB) to {@link ExecutionLimits} (s, bytes).
 * Missing keys take {@link DEFAULT_LIMITS}.
 */
export function limitsFromConfig(config: SandboxLimitConfig): ExecutionLimits {
  const mib = (v: number | undefined, def: number) => (v === undefined ? def : Math.floor(v * MIB));
  return {
    wallTimeS: config.timeout_s ?? WALL_TIME_S,
    cpuTimeS: config.cpu_time_s ?? CPU_TIME_S,
    memoryBytes: mib(config.memory_mb, MEMORY_BYTES),
    maxProcesses: config.max_processes ?? MAX_PROCESSES,
    maxFileBytes: mib(config.max_file_mb, MAX_FILE_BYTES),
    maxOpenFiles: config.max_open_files ?? MAX_OPEN_FILES,
    maxOutputBytes: config.max_output_kb === undefined ? MAX_OUTPUT_BYTES : Math.floor(config.max_output_kb * 1024),
    maxArtifacts: config.max_artifacts ?? MAX_ARTIFACTS,
    maxArtifactBytes: mib(config.max_artifact_mb, MAX_ARTIFACT_BYTES),
  };
}

/**
 * Merges limits (later layers win; `undefined` values are ignored) and checks them.
 * @throws {RangeError} when a limit is not a positive finite number (counts of artifacts may be 0).
 */
export function mergeLimits(...layers: Array<Partial<ExecutionLimits> | undefined>): ExecutionLimits {
  const out: ExecutionLimits = { ...DEFAULT_LIMITS };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value !== undefined) (out as unknown as Record<string, number>)[key] = value;
    }
  }
  for (const [key, value] of Object.entries(out)) {
    const min = key === 'maxArtifacts' ? 0 : Number.MIN_VALUE;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
      throw new RangeError(`sandbox limit ${key}: expected a positive number, got ${String(value)}`);
    }
  }
  return out;
}
