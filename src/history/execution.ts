/**
 * What one execution produced, as the history keeps it with its attempt: the execution result, its
 * artifacts, the checks' report and the tool calls, and the input files placed before it. These are
 * the Run record's types: they live here, low, so that the store, the chat pipeline and the
 * adapters can share them without the sandbox (src/sandbox/types.ts re-exports them for its
 * backends).
 */

/** One call a program made to a tool during an execution, as kept with the attempt. No credential ever. */
export interface ToolCallRecord {
  /** The tool's name: `http`, `sql`. */
  tool: string;
  /** One line, e.g. `GET api.example.com/v1/rates → 200, 2.1 KB, 84 ms` or `sql shop: 1 query, 3 rows`. */
  summary: string;
  /** False when the call was refused or failed (a refused host, a cap, an upstream error). */
  ok: boolean;
  /** Time from the request to the answer, in ms. */
  durationMs: number;
  /** Bytes of the answer handed to the program. */
  bytes: number;
  /**
   * SHA-256 (hex) of what the program was handed, for a call that was answered: HTTP the status
   * and the body (after redaction), SQL the result's columns and rows. A schedule's work gate
   * compares them between ticks (src/schedules/work-gate.ts). Absent for a refused call.
   */
  answer?: string;
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
  /**
   * A failed `==` or `in` between values of different types (`'21'` and `21`): both sides as text
   * (a str as it is, else its repr) and which of them is a str, for the comparison by value
   * (`src/agent/verification/value-compare.ts`). Set by the sandbox runner.
   */
  compared?: { op: '==' | 'in'; sides: [string, string]; text: [boolean, boolean] };
  /** Set when the agent counted a failed comparison as passed because both sides hold the same values. */
  byValue?: true;
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

