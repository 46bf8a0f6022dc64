/**
 * Turns an execution result into words: one line for progress output, and the fuller report
 * that goes back to the LLM (exception, stderr tail, exit status, limit hit).
 */
import { toolCallsText } from '../../tools/records.js';
import { constants } from 'node:os';
import type { ExecutionResult, LimitName } from '../../sandbox/types.js';
import { boundLine, cutCharsEnd } from '../../text/cut.js';
import { withoutLibraryFrames } from './traceback.js';
import { exceptionLine } from '../../text/exception-line.js';

/** How much of stdout / stderr (the tail) is fed back to the LLM, in characters. */
export const FEEDBACK_TAIL_CHARS = 2000;
/**
 * Longest one-line failure summary, in characters. The summary reaches progress lines, chat
 * status lines, `run.error` and every later prompt, so it is bounded whatever the program printed.
 */
export const SUMMARY_MAX_CHARS = 500;

const LIMIT_WORDS: Record<LimitName, string> = {
  wall_time: 'it ran out of wall time',
  cpu_time: 'it ran out of CPU time',
  memory: 'it ran out of memory',
  processes: 'it hit the process limit',
  file_size: 'it wrote a file larger than allowed',
  output: 'it printed more output than allowed',
  artifacts: 'it wrote more or larger files than can be returned',
  work_dir_files: 'it created more files than allowed in its work dir',
  work_dir_bytes: 'it wrote more data than allowed into its work dir',
};

/** Name of a signal number or name, e.g. 9 → `SIGKILL`. */
export function signalName(signal: string | number | null): string | undefined {
  if (signal === null) return undefined;
  if (typeof signal === 'string') return signal;
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return entry?.[0] ?? `signal ${signal}`;
}

/**
 * One line naming what went wrong, e.g. `NameError: name 'x' is not defined`,
 * `timed out (wall_time limit)`, `exit code 3`, `killed by SIGKILL`; at most
 * {@link SUMMARY_MAX_CHARS} characters (a longer exception message is cut with a marker).
 */
export function summarizeFailure(result: ExecutionResult): string {
  return boundLine(fullSummary(result), SUMMARY_MAX_CHARS);
}

/** `: <the last line of stderr>` (e.g. the message of `sys.exit("…")`), or empty. */
function lastLine(stderr: string): string {
  const line = stderr.trimEnd().split('\n').at(-1)?.trim() ?? '';
  return line === '' ? '' : `: ${boundLine(line, SUMMARY_MAX_CHARS - 40)}`;
}

function fullSummary(result: ExecutionResult): string {
  const parts: string[] = [];
  const exception = exceptionLine(result.stderr);
  // room is kept for what follows (the limit hit), so a long message never hides it
  if (exception) parts.push(boundLine(exception, SUMMARY_MAX_CHARS - 120));
  if (result.limitHit) parts.push(`${LIMIT_WORDS[result.limitHit]} (${result.limitHit} limit)`);
  else if (result.timedOut) parts.push('timed out');
  if (parts.length === 0) {
    if (result.signal) parts.push(`killed by ${result.signal}`);
    else if (result.exitCode !== null && result.exitCode !== 0) parts.push(`exit code ${result.exitCode}${lastLine(result.stderr)}`);
    else parts.push('failed');
  }
  return parts.join('; ');
}

function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutCharsEnd(text, max);
  return `…(${text.length - kept.length} earlier characters cut)\n${kept}`;
}

/** The report of an execution that goes back to the LLM (tracebacks without their library frames: `traceback.ts`). */
export function describeResult(result: ExecutionResult): string {
  const status = result.success
    ? 'The program ran successfully (exit code 0).'
    : `The program failed: ${summarizeFailure(result)}. Exit status: ${
        result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`
      }${result.timedOut ? ', timed out' : ''}.`;
  const sections = [status];
  if (result.stdout.trim()) sections.push(`stdout (tail):\n${tail(result.stdout, FEEDBACK_TAIL_CHARS)}`);
  // the frames inside libraries name no line the model wrote: one line says how many were left out
  if (result.stderr.trim()) sections.push(`stderr (tail):\n${tail(withoutLibraryFrames(result.stderr), FEEDBACK_TAIL_CHARS)}`);
  if (result.artifacts.length > 0) {
    sections.push(`Files written: ${result.artifacts.map((a) => `${a.name} (${a.bytes} bytes)`).join(', ')}`);
  }
  // a refused call says which rule refused it, even when the program only saw a status code
  if (result.toolCalls?.length) sections.push(`Tool calls:\n${toolCallsText(result.toolCalls)}`);
  return sections.join('\n\n');
}
