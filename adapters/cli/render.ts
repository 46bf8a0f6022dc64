/**
 * Renders agent events as the terminal's progress lines, e.g. `[Agent] Generating code…`,
 * `[Agent] Execution failed: NameError…`, `[Agent] --- Improvement attempt 1/3 ---` (README).
 */
import type { AgentEvent, AgreementEvent } from '../../src/agent/run/index.js';
import { agreementNotice, NO_CHECKS_TEXT, tablePreviewNotices } from '../../src/chat/verification.js';
import { summarizeFailure } from '../../src/agent/failures/index.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';
import { terminalText } from './bounded-output.js';
import { boundLine } from '../../src/text/cut.js';
import { checkLines, checksPassedText, checksShortfall } from '../../src/agent/verification/index.js';
import { madeAttempts } from '../../src/history/attempts.js';
import { CANCELLED } from './outcome.js';
import { queuedText, replacedText, workspaceEntryText } from '../../src/text/workspace-entry.js';
import { toolCallLine } from '../../src/tools/records.js';
import { answerMarkText, settledAnswer } from '../../src/chat/answer-mark.js';
import { memoryUsedLine } from '../../src/memory/used-text.js';
import { helperNotice } from '../../src/memory/helper-text.js';
import { misfitNotice, programMark, programStartNotice, type ProgramSurface } from '../../src/programs/text.js';

/** Where rendered text goes. `progress` gets status lines; `detail` gets code and program output. */
export interface RenderTarget {
  progress(line: string): void;
  detail(text: string): void;
}

/** Options of the renderer. */
export interface RenderOptions {
  /** Print each attempt's code and its stdout/stderr (off in `--json` mode). Default true. */
  showDetails?: boolean;
  /** How a team program found for the request says to have a new program written instead: the session's (`terminal`, the default) or `code-agent run`'s (`command`). */
  programSurface?: ProgramSurface;
}

/**
 * The one progress line of an event, or undefined when the event has none.
 * @param programSurface how a team program's start notice says the way to a new program (see {@link RenderOptions})
 */
export function progressLine(event: AgentEvent, programSurface: ProgramSurface = 'terminal'): string | undefined {
  switch (event.type) {
    case 'generating':
      if (event.trigger === 'requirement') return '[Agent] Generating code…';
      // an improve continues the run's numbering: its first attempt is not attempt 1
      return event.trigger === 'feedback' ? `[Agent] Improving code (attempt ${event.attempt} of the run; up to ${event.lastAttempt} with auto-fixes)…` : '[Agent] Improving code…';
    case 'code_delta':
      return undefined;
    case 'generated':
      return event.error
        ? `[Agent] No usable code: ${event.error}`
        : `[Agent] Code generated (${event.code.split('\n').length} lines)`;
    case 'executing':
      return '[Agent] Executing code in the sandbox…';
    case 'executed':
      return event.result.success
        ? `[Agent] Execution succeeded in ${event.result.durationMs} ms${artifactsNote(event.result)}${checksNote(event.result)}${previewsNote(event.result)}`
        : `[Agent] Execution failed: ${summarizeFailure(event.result)}`;
    case 'tool_calls':
      return event.calls.map((c) => `[Agent] ${event.independent ? `(independent program ${event.independent}) ` : ''}${boundLine(toolCallLine(c), 300)}`).join('\n');
    case 'deriving_checks':
      return '[Agent] Deriving checks from the request…';
    case 'checks':
      return event.asserts.length === 0
        ? `[Agent] ${NO_CHECKS_TEXT}`
        : `[Agent] Checks derived from the request: ${event.asserts.length}` +
            (event.dropped.length ? ` (${event.dropped.length} dropped after the feedback: ${event.dropped.join(' | ')})` : '');
    case 'answer':
      return `[Agent] ${answerMarkText(event.attempt, { state: 'checking' })}`;
    case 'repeated':
      return `[Agent] Attempt ${event.attempt} is the same program as attempt ${event.repeatOf}: not executed again`;
    case 'profiled':
      return event.files.map((f) => `[Agent] 🔎 ${boundLine(`${f.name}: ${f.summary}`, 300)}`).join('\n');
    case 'agreement':
      return `[Agent] ${agreementLine(event)}`;
    case 'reviewed':
      return event.ok ? '[Agent] Review: meets the request' : `[Agent] Review found a defect: ${event.defect ?? ''}`;
    case 'improving':
      return event.attempt === event.retry + 1
        ? `[Agent] --- Improvement attempt ${event.retry}/${event.maxRetries} ---`
        : `[Agent] --- Improvement attempt ${event.retry}/${event.maxRetries} (attempt ${event.attempt}/${event.lastAttempt} of the run) ---`;
    case 'workspace':
      return `[Agent] 📁 Workspace: ${boundLine(event.files.map(workspaceEntryText).join(', '), 600)}`;
    case 'workspace_replaced':
      return `[Agent] ${replacedText(event.file, event.previous)}`;
    case 'workspace_refused':
      return `[Agent] ⚠️ Not kept in the workspace (${event.names.join(', ')}): ${event.reason}`;
    case 'queued':
      return `[Agent] ${queuedText(event.waitMs)}`;
    case 'memory_used':
      return `[Agent] ${boundLine(memoryUsedLine(event), 600)}`;
    case 'definition_helper': {
      const notice = helperNotice(event);
      return [`[Agent] ${notice.title}`, ...notice.lines.map((l) => `[Agent]   ${boundLine(l, 300)}`)].join('\n');
    }
    case 'program': {
      const notice = programStartNotice(event, programSurface);
      return [`[Agent] ${notice.title}`, ...notice.lines.map((l) => `[Agent]   ${boundLine(l, 300)}`)].join('\n');
    }
    case 'program_misfit': {
      const notice = misfitNotice(event, 'terminal');
      return [`[Agent] ${notice.title}`, ...notice.lines.map((l) => `[Agent]   - ${boundLine(l, 300)}`)].join('\n');
    }
    case 'done': {
      const mark = programMark(event.run);
      if (mark) return `[Agent] ${mark.text}`;
      if (event.run.status === 'unverified') {
        return `[Agent] ⚠️ Ran, but not confirmed after ${plural(madeAttempts(event.run), 'attempt')}: ${event.run.error ?? ''}`;
      }
      return event.run.status === 'generated'
        ? '[Agent] Code generated (not executed)'
        : `[Agent] Success after ${plural(madeAttempts(event.run), 'attempt')}`;
    }
    case 'failed': {
      const mark = programMark(event.run);
      if (mark) return `[Agent] ${mark.text}`;
      const n = madeAttempts(event.run);
      if (event.reason === CANCELLED) return n === 0 ? '[Agent] Cancelled' : `[Agent] Cancelled after ${plural(n, 'attempt')}`;
      return `[Agent] Failed after ${plural(n, 'attempt')}: ${event.reason}`;
    }
    default:
      return unknownEvent(event);
  }
}

/** Compile-time proof that every agent event has its progress line (or says it has none). */
function unknownEvent(event: never): never {
  throw new Error(`agent event without a progress line: ${JSON.stringify(event)}`);
}

/** `🤝 …: an independent program printed the same answer` and the answers compared, on one line. */
function agreementLine(event: AgreementEvent): string {
  const notice = agreementNotice(event);
  return boundLine(`${notice.title} ${notice.lines.join(' | ')}`, 600);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `, checks 3/3 passed` or `; not confirmed: 1 of 3 checks failed: …` (empty without checks). */
function checksNote(result: ExecutionResult): string {
  if (!result.checks) return '';
  const shortfall = checksShortfall(result.checks);
  if (shortfall !== undefined) return `; not confirmed: ${shortfall}`;
  return `, ${checksPassedText(result.checks)}`;
}

function artifactsNote(result: ExecutionResult): string {
  const n = result.artifacts.length;
  const shown = result.artifacts.map((a) => (a.renamedFrom !== undefined ? `${a.path} (written as ${a.renamedFrom})` : a.path));
  return n === 0 ? '' : ` (${n} file${n === 1 ? '' : 's'}: ${shown.join(', ')})`;
}

/** Each written table's first rows, indented under a line naming it (empty without tables). */
function previewsNote(result: ExecutionResult): string {
  return tablePreviewNotices(result)
    .map((n) => `\n[Agent] ${n.title}\n${n.lines.map((l) => `    ${l}`).join('\n')}`)
    .join('');
}

/** Formats code with line numbers, as a terminal block. */
export function formatCode(code: string): string {
  const lines = code.split('\n');
  const width = String(lines.length).length;
  return lines.map((l, i) => `${String(i + 1).padStart(width)} | ${l}`).join('\n');
}

/** Width of line numbers of code printed as it streams in (its length is not known yet). */
const STREAM_NUMBER_WIDTH = 2;

/** Numbered lines `from` (0-based) onwards, as printed while code streams in. */
function numberedLines(lines: readonly string[], from: number): string {
  return lines
    .slice(from)
    .map((l, i) => `${String(from + i + 1).padStart(STREAM_NUMBER_WIDTH)} | ${l}`)
    .join('\n');
}

/**
 * Prints an attempt's code line by line while it streams in (each line once it is complete), and
 * at `generated` the rest of it. When the final code does not continue what was printed (extraction
 * chose another block), the whole final code is printed again.
 */
class StreamedCode {
  private attempt = 0;
  private printed: string[] = [];

  constructor(private readonly target: RenderTarget) {}

  /** A `code_delta` event: prints the lines completed since the last one. */
  delta(attempt: number, code: string): void {
    if (attempt !== this.attempt) {
      this.attempt = attempt;
      this.printed = [];
    }
    const complete = code.split('\n').slice(0, -1);
    if (complete.length <= this.printed.length) return;
    this.target.detail(numberedLines(complete, this.printed.length));
    this.printed = complete;
  }

  /**
   * A `generated` event of a streamed attempt: prints the lines not printed yet.
   * @returns false when nothing was streamed for this attempt (print the code as usual)
   */
  finish(attempt: number, code: string): boolean {
    if (attempt !== this.attempt || this.printed.length === 0) return false;
    const lines = code.split('\n');
    const continues = this.printed.every((l, i) => lines[i] === l);
    // the program is what was streamed, less its last lines (e.g. checks the model wrote after it)
    const cut = !continues && lines.length < this.printed.length && lines.every((l, i) => this.printed[i] === l);
    if (cut) this.target.detail(`(lines ${lines.length + 1}–${this.printed.length} are not part of the program)`);
    else if (!continues) this.target.detail(`(the code that runs:)\n${formatCode(code)}`);
    else if (lines.length > this.printed.length) this.target.detail(numberedLines(lines, this.printed.length));
    this.printed = [];
    return true;
  }
}

/** Formats an execution's output for the terminal. */
export function formatOutput(result: ExecutionResult): string {
  const parts: string[] = [];
  if (result.stdout) parts.push(`--- stdout ---\n${terminalText(result.stdout.trimEnd(), result.fullOutput?.stdout)}`);
  if (result.stderr) parts.push(`--- stderr ---\n${terminalText(result.stderr.trimEnd(), result.fullOutput?.stderr)}`);
  return parts.join('\n');
}

/** An event listener that renders to a target. */
export function createRenderer(target: RenderTarget, options: RenderOptions = {}): (event: AgentEvent) => void {
  const showDetails = options.showDetails ?? true;
  const streamed = new StreamedCode(target);
  // the last execution's failure line: an improvement for another reason (a check, a missing file,
  // an empty answer) says why, since no line before it did
  let failure: string | undefined;
  // the call's first answer, said to be not yet confirmed: its verdict is said before the run's end
  let answered: number | undefined;
  return (event) => {
    if (event.type === 'answer') answered = event.attempt;
    if ((event.type === 'done' || event.type === 'failed') && answered !== undefined) {
      target.progress(`[Agent] ${answerMarkText(answered, settledAnswer(answered, event.run))}`);
      answered = undefined;
    }
    if (showDetails && event.type === 'code_delta') return streamed.delta(event.attempt, event.code);
    if (event.type === 'executed') failure = event.result.success ? undefined : summarizeFailure(event.result);
    if (event.type === 'improving' && event.reason !== failure) target.progress(`[Agent] Not confirmed: ${boundLine(event.reason, 300)}`);
    // a streamed attempt's code is already on screen: its last lines go before the "generated" line
    const streamedDone = showDetails && event.type === 'generated' && event.code !== '' && streamed.finish(event.attempt, event.code);
    const line = progressLine(event, options.programSurface);
    if (line) target.progress(line);
    if (!showDetails) return;
    if (event.type === 'generated' && event.code && !streamedDone) target.detail(formatCode(event.code));
    // the whole checks' source: an assert may read a name that a line before it sets from OUTPUT
    if (event.type === 'checks' && event.asserts.length) target.detail((event.code || event.asserts.join('\n')).split('\n').map((a) => `  ${a}`).join('\n'));
    if (event.type === 'executed') {
      const out = formatOutput(event.result);
      if (out) target.detail(out);
      if (event.result.checks) target.detail(checkLines(event.result.checks).map((l) => `  ${l}`).join('\n'));
    }
  };
}
