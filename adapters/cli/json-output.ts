/**
 * The `--json` contract of `code-agent run` (DESIGN.md): one object built from the last attempt.
 */
import type { Run } from '../../src/history/types.js';

/** Shape printed by `code-agent run --json`. `durationMs` in ms, `bytes` in bytes. */
export interface RunJson {
  success: boolean;
  attempts: number;
  code: string;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  artifacts: { name: string; path: string; bytes: number }[];
  /** Why the run failed (one line, at most 1000 characters); absent on success. Added field, not in the original contract. */
  error?: string;
  /**
   * Host paths of the full stdout / stderr when `stdout` / `stderr` were shortened for the history
   * (more than 16 000 characters: head and tail kept). Added fields.
   */
  stdoutFile?: string;
  stderrFile?: string;
}

/** Builds the JSON output of a finished run. */
export function runToJson(run: Run): RunJson {
  const last = run.attempts.at(-1);
  const result = last?.result;
  const json: RunJson = {
    success: run.status === 'success',
    attempts: run.attempts.length,
    code: last?.code ?? '',
    stdout: result?.stdout ?? '',
    stderr: result?.stderr ?? '',
    exitCode: result?.exitCode ?? null,
    timedOut: result?.timedOut ?? false,
    durationMs: result?.durationMs ?? 0,
    artifacts: (result?.artifacts ?? []).map(({ name, path, bytes }) => ({ name, path, bytes })),
  };
  if (run.error) json.error = run.error;
  if (result?.fullOutput?.stdout) json.stdoutFile = result.fullOutput.stdout;
  if (result?.fullOutput?.stderr) json.stderrFile = result.fullOutput.stderr;
  return json;
}

/**
 * The JSON output when no run could start (usage, config or sandbox error, exit 2): the same shape,
 * nothing executed, `error` saying why.
 */
export function errorJson(error: string): RunJson {
  return {
    success: false,
    attempts: 0,
    code: '',
    stdout: '',
    stderr: '',
    exitCode: null,
    timedOut: false,
    durationMs: 0,
    artifacts: [],
    error,
  };
}
