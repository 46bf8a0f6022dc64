/**
 * Pure rendering: runs, attempts and agent events → Discord message payloads. Program output is
 * untrusted: it stays inside code blocks (fences neutralised) and is capped to Discord's limits,
 * with the full text attached when cut. Nothing here talks to Discord.
 */
import { codeBlock, fitBlock, neutraliseFences, statusLine } from '../../src/chat/format.js';
import { checkReportNotice, type Notice } from '../../src/chat/verification.js';
import { boundLine, cutChars } from '../../src/text/cut.js';
import { MESSAGE_CHARS, type OutFile, type Outgoing } from './renderer.js';

/** Characters of a result message given to the checks' lines. */
const CHECKS_CHARS = 500;
import type { Attempt, Run, TurnKind } from '../../src/history/types.js';
import type { ExecutionResult } from '../../src/history/execution.js';
import { TRIGGER_WORDS } from '../../src/chat/progress-text.js';
import { outcomeLine, runOutcome } from '../../src/chat/run-outcome.js';

/**
 * Characters in a thread name.
 * Source: https://discord.com/developers/docs/resources/channel#start-thread-from-message
 */
export const THREAD_NAME_CHARS = 100;

export { MESSAGE_CHARS, type OutFile, type Outgoing } from './renderer.js';

/** One line of user text, capped: for quotes and thread names. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${cutChars(flat, max - 1)}…` : flat;
}

/** The thread's name: the requirement, at most {@link THREAD_NAME_CHARS} characters. */
export function threadName(requirement: string): string {
  return oneLine(requirement, THREAD_NAME_CHARS) || 'code-agent run';
}

/** The first message of a run (the interaction's reply); `state` is its status line. */
export function headerMessage(kind: TurnKind, requirement: string, userId: string, state: string): Outgoing {
  const verb = kind === 'generate' ? 'Generate' : 'Run';
  const quote = neutraliseFences(oneLine(requirement, 300));
  return { content: cutChars(`**${verb}** requested by <@${userId}>\n> ${quote}\n${state}`, MESSAGE_CHARS) };
}

/** The header's status while working. */
export function workingState(inThread: boolean, position: number, note?: string): string {
  const where = inThread ? 'progress in the thread below' : 'progress below';
  const queued = position > 0 ? `🕒 Queued (${position} ahead)` : '⏳ Working…';
  return [`${queued} · ${where}`, note].filter(Boolean).join('\n');
}

/** The header's final status: the outcome (src/chat/run-outcome.ts) with the run's id. */
export function finalStatus(run: Run): string {
  return outcomeLine(runOutcome(run), (part, max) => neutraliseFences(oneLine(part, max)), `run \`${run.id}\``);
}

/** The code of an attempt: a code block, or a `.py` attachment when it does not fit. */
export function codeMessage(attempt: Attempt): Outgoing {
  const title = `**Attempt ${attempt.index}** · ${TRIGGER_WORDS[attempt.trigger]}`;
  if (!attempt.code) {
    return { content: `${title}\n⚠️ ${neutraliseFences(oneLine(attempt.error ?? 'no code in the reply', 500))}` };
  }
  const block = codeBlock(attempt.code, 'py');
  if (title.length + 1 + block.length <= MESSAGE_CHARS) return { content: `${title}\n${block}` };
  const lines = attempt.code.split('\n').length;
  return {
    content: `${title} · ${lines} lines, ${attempt.code.length} characters: attached as a file`,
    files: [{ name: `attempt-${attempt.index}.py`, data: Buffer.from(attempt.code) }],
  };
}

/**
 * An execution result: status line (exit code's meaning), stdout and stderr capped in code blocks,
 * the full text attached when cut. Artifacts are sent by {@link artifactMessages}.
 */
export function resultMessage(attemptIndex: number, result: ExecutionResult): Outgoing {
  const head = boundLine(`**Result of attempt ${attemptIndex}** · ${neutraliseFences(statusLine(result))}`, 600);
  const streams = (['stdout', 'stderr'] as const).filter((s) => result[s].length > 0);
  const reserved = result.checks ? CHECKS_CHARS + 40 : 0;
  const files: OutFile[] = [];
  const parts = [head];
  // Each stream gets an even share of what is left (a newline joins the parts); the share is
  // measured after fences are neutralised and the label added.
  const share = Math.floor((MESSAGE_CHARS - head.length - reserved - 20) / Math.max(1, streams.length));
  for (const stream of streams) {
    const fitted = fitBlock(result[stream], share, { maxLines: 30, wrap: (block) => `${stream}:\n${block}` });
    parts.push(fitted.text);
    if (fitted.truncated) files.push({ name: `attempt-${attemptIndex}-${stream}.txt`, data: fullText(result, stream) });
  }
  if (streams.length === 0) parts.push('_(no output)_');
  if (result.checks) {
    const notice = checkReportNotice(result.checks);
    parts.splice(1, 0, fitBlock(notice.lines.join('\n'), reserved - 1, { maxLines: 8, wrap: (block) => `${notice.title}:\n${block}` }).text);
  }
  return { content: cutChars(parts.join('\n'), MESSAGE_CHARS), ...(files.length ? { files } : {}) };
}

/** The full text of a stream: from the file the agent kept when the stored copy was cut. */
function fullText(result: ExecutionResult, stream: 'stdout' | 'stderr'): Buffer | string {
  return result.fullOutput?.[stream] ?? Buffer.from(result[stream]);
}

/**
 * A verification notice: the title, then its lines capped in a code block, within `maxChars`
 * characters (default a whole message): fitted whole, never sliced, so its fences stay balanced.
 */
export function noticeMessage(notice: Notice, maxChars = MESSAGE_CHARS): Outgoing {
  const title = neutraliseFences(notice.title);
  if (notice.lines.length === 0) return { content: cutChars(title, maxChars) };
  return { content: fitBlock(notice.lines.join('\n'), maxChars, { maxLines: 20, wrap: (block) => `${title}\n${block}` }).text };
}
