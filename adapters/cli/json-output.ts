/**
 * The `--json` contract of `code-agent run` (README): one object built from the last attempt.
 */
import type { Run } from '../../src/history/types.js';
import type { RunProgram } from '../../src/history/programs.js';
import type { CheckResult } from '../../src/sandbox/types.js';
import type { ToolCallRecord } from '../../src/tools/types.js';
import type { ConfigProblem } from '../../src/config/load.js';
import { madeAttempts } from '../../src/history/attempts.js';
import { answerResult, runOutcome } from './outcome.js';

/** Shape printed by `code-agent run --json`. `durationMs` in ms, `bytes` in bytes. */
export interface RunJson {
  success: boolean;
  /** Versions of the code made (an earlier attempt kept as the answer is not counted again). */
  attempts: number;
  code: string;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  /** The last execution's time, in ms (0 when nothing was executed). */
  durationMs: number;
  /**
   * The whole run's time, in ms: from the requirement to the last step (LLM calls, checks, every
   * execution). Added field.
   */
  runDurationMs?: number;
  /** `outPath`: where `--out DIR` copied the file (added field, only with `--out`, and not for a failed run, whose files are not copied). */
  artifacts: { name: string; path: string; bytes: number; renamedFrom?: string; outPath?: string; preview?: { rows: string[][] } }[];
  /**
   * Why the run failed, or why an `unverified` run could not be confirmed (one line); absent on
   * success; at most 1000 characters. Added field, not in the original contract.
   */
  error?: string;
  /** The configuration's bad keys, one by one, when a config error stopped the run (see `error`). */
  problems?: ConfigProblem[];
  /**
   * Host paths of the full stdout / stderr when `stdout` / `stderr` were shortened for the history
   * (more than 16 000 characters: head and tail kept). Added fields.
   */
  stdoutFile?: string;
  stderrFile?: string;
  /**
   * The run's outcome (README): `success`, `unverified` (ran with exit 0, but a check or the review
   * disagreed or could not be made; `success` stays true and the exit code 0, as before), `failed`
   * or `cancelled`. Added field.
   */
  outcome?: 'success' | 'unverified' | 'failed' | 'cancelled' | 'generated';
  /** The checks derived from the requirement and how the last attempt fared. Added field. */
  checks?: { asserts: string[]; results: CheckResult[]; error?: string };
  /**
   * Set on a team program's run (`run --program`): which program and version ran, who approved it
   * and when, the values given, and what did not fit when its files did not fit (nothing ran). Added field.
   */
  program?: RunProgram;
  /** The tool calls of the last execution (`summary` like `GET api.example.com/v1/rates → 200, 2.1 KB, 84 ms`). Added field. */
  toolCalls?: ToolCallRecord[];
}

/** Builds the JSON output of a finished run. */
export function runToJson(run: Run): RunJson {
  const last = run.attempts.at(-1);
  const result = answerResult(run);
  const json: RunJson = {
    success: run.status === 'success' || run.status === 'unverified',
    attempts: madeAttempts(run),
    code: last?.code ?? '',
    stdout: result?.stdout ?? '',
    stderr: result?.stderr ?? '',
    exitCode: result?.exitCode ?? null,
    timedOut: result?.timedOut ?? false,
    durationMs: result?.durationMs ?? 0,
    artifacts: (result?.artifacts ?? []).map(({ name, path, bytes, renamedFrom, preview }) => ({
      name, path, bytes, ...(renamedFrom !== undefined ? { renamedFrom } : {}), ...(preview !== undefined ? { preview } : {}),
    })),
  };
  if (run.error) json.error = run.error;
  if (result?.fullOutput?.stdout) json.stdoutFile = result.fullOutput.stdout;
  if (result?.fullOutput?.stderr) json.stderrFile = result.fullOutput.stderr;
  json.runDurationMs = Math.max(0, Date.parse(run.updatedAt) - Date.parse(run.createdAt)) || 0;
  const outcome = runOutcome(run);
  json.outcome = outcome === 'running' ? 'failed' : outcome; // a finished run (never running here)
  // each call as the terminal shows it; `answer` (the fingerprint a schedule's work gate compares) stays in the history
  if (result?.toolCalls?.length) json.toolCalls = result.toolCalls.map(({ answer: _answer, ...call }) => call);
  if (run.program) json.program = run.program;
  if (run.checks?.code) {
    json.checks = { asserts: run.checks.asserts, results: result?.checks?.results ?? [] };
    if (result?.checks?.error) json.checks.error = result.checks.error;
  }
  return json;
}

/**
 * The JSON output when no run could start (usage, config or sandbox error, exit 2): the same shape,
 * nothing executed, `error` saying why.
 */
export function errorJson(error: string, problems: ConfigProblem[] = []): RunJson {
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
    runDurationMs: 0,
    outcome: 'failed',
    error,
    ...(problems.length ? { problems } : {}),
  };
}
