/**
 * Pure rendering: runs, attempts and agent events → Discord message payloads. Program output is
 * untrusted: it stays inside code blocks (fences neutralised) and is capped to Discord's limits,
 * with the full text attached when cut. Nothing here talks to Discord.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';
import { codeBlock, fitBlock, neutraliseFences, statusLine } from '../../src/chat/format.js';
import { checkReportNotice, type Notice } from '../../src/chat/verification.js';
import { boundLine, cutChars } from '../../src/text/cut.js';
import { packFiles, type Unsendable } from './file-batches.js';
import { MESSAGE_CHARS, type OutFile, type Outgoing } from './renderer.js';

/** Characters of a result message given to the checks' lines. */
const CHECKS_CHARS = 500;
import type { MemoryOffer } from '../../src/memory/offer.js';
import type { Attempt, Run, TurnKind } from '../../src/history/types.js';
import type { ExecutionResult } from '../../src/history/execution.js';
import { customId } from './ids.js';
import { codeTail } from '../../src/chat/stream-edits.js';
import { formatBytes } from '../../src/text/bytes.js';
import { TRIGGER_WORDS } from '../../src/chat/progress-text.js';
import { candidatesNotice } from '../../src/chat/settle-view.js';
import { choiceRows, feedbackRow } from './choice-buttons.js';
import { programMark } from '../../src/programs/text.js';
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

/** Code still being written: its last lines that fit in one message, marked as being written. */
export function streamingCodeMessage(attemptIndex: number, code: string): Outgoing {
  const tail = codeTail(code.split('\n').slice(-STREAMED_LINES).join('\n'), MESSAGE_CHARS - 300);
  const omitted = code.split('\n').length - tail.text.split('\n').length;
  const note = omitted > 0 ? ` (${omitted} earlier lines not shown)` : '';
  return { content: `**Attempt ${attemptIndex}** · ✍️ writing…${note}\n${codeBlock(tail.text, 'py')}` };
}

/** Most lines of code shown while it is being written. */
const STREAMED_LINES = 30;

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

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;

/**
 * Artifacts as attachments (images are shown inline by Discord): as many messages as needed so
 * that each request stays within Discord's file count and size limits (see file-batches.ts); a
 * file that can never be uploaded is named with the reason in a message of its own.
 */
export function artifactMessages(attemptIndex: number, result: ExecutionResult): Outgoing[] {
  const { batches, unsendable } = packFiles(result.artifacts);
  const out: Outgoing[] = [];
  for (const chunk of batches) {
    const names = chunk.map((a) => `${IMAGE.test(a.name) ? '🖼️' : '📎'} \`${a.name.replace(/`/g, "'")}\` (${formatBytes(a.bytes)})`);
    out.push({
      content: cutChars(`**Files from attempt ${attemptIndex}**\n${names.join('\n')}`, MESSAGE_CHARS),
      files: chunk.map((a) => ({ name: a.name.split('/').pop() || 'file', data: a.path })),
    });
  }
  if (unsendable.length > 0) out.push({ content: unsendableText(attemptIndex, unsendable) });
  return out;
}

function unsendableText(attemptIndex: number, files: Unsendable[]): string {
  const lines = files.map((f) => `📎 \`${f.name.replace(/`/g, "'")}\` (${formatBytes(f.bytes)}): ${f.reason}`);
  let content = `**Files from attempt ${attemptIndex} that could not be uploaded**`;
  for (const [i, line] of lines.entries()) {
    const more = `\n… and ${lines.length - i} more`;
    if (content.length + 1 + line.length + more.length > MESSAGE_CHARS) return content + more;
    content += `\n${line}`;
  }
  return content;
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

/** An auto-fix attempt announced with the error that caused it (attached whole when cut). */
export function improvingMessage(retry: number, maxRetries: number, reason: string): Outgoing {
  const title = `🔧 **Auto-fix ${retry}/${maxRetries}** · the error that caused it:`;
  const fitted = fitBlock(reason, MESSAGE_CHARS, { maxLines: 20, wrap: (block) => `${title}\n${block}` });
  return { content: fitted.text, ...(fitted.truncated ? { files: [{ name: `auto-fix-${retry}-error.txt`, data: Buffer.from(reason) }] } : {}) };
}

/** The Re-run and Improve buttons of a run. */
export function runButtons(runId: string, generatedOnly = false): APIActionRowComponent<APIButtonComponent>[] {
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, style: ButtonStyle.Primary, label: generatedOnly ? 'Run' : 'Re-run', custom_id: customId('rerun', runId) },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Improve', custom_id: customId('improve', runId) },
      ],
    },
  ];
}

/** The offer after a correction (src/memory/offer.ts): the sentence in a code block, [Remember] [Just this time]. */
export function memoryOfferMessage(offer: MemoryOffer): Outgoing {
  const title = '📌 **Remember for this channel?** Its next runs would read requests with:';
  return {
    content: fitBlock(offer.sentence, MESSAGE_CHARS, { maxLines: 6, wrap: (block) => `${title}\n${block}` }).text,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Primary, label: 'Remember', custom_id: customId('remember', offer.runId) },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Just this time', custom_id: customId('just-this-time', offer.runId) },
        ],
      },
    ],
  };
}

/** The last message of a job in the thread: its outcome, the line naming its workspace (`workspace`, plain) and the buttons. */
export function finalMessage(run: Run, workspace?: string): Outgoing {
  const hint = programMark(run)?.ok === false ? 'Reply in this thread to adapt it (attached files go to the sandbox).' : 'Reply in this thread to improve it with your feedback (attached files go to the sandbox).';
  const line = workspace ? `\n${neutraliseFences(oneLine(workspace, 600))}` : '';
  const candidates = candidatesNotice(run);
  const head = cutChars(`${finalStatus(run)}\n${hint}${line}`, MESSAGE_CHARS);
  // the candidates fitted into the room the head leaves (a slice could end inside their code block: case B1)
  const room = MESSAGE_CHARS - head.length - 1;
  const content = candidates && room > 0 ? `${head}\n${noticeMessage(candidates, room).content}` : head;
  return { content, components: [...choiceRows(run), ...runButtons(run.id, run.status === 'generated'), ...feedbackRow(run)] };
}
