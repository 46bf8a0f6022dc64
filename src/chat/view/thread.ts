/**
 * The messages of a run's thread, composed once for every platform as views (blocks.ts): the
 * progress line, code being written and an attempt's code, an execution result, notices, the
 * auto-fix, failure, note, memory offer and withdrawn notice. The turn's last message (the verdict,
 * the status line and the choices) is in final-view.ts. Our words are here, once; values stay as
 * they are (a renderer escapes and cuts them).
 */
import type { ExecutionResult } from '../../history/execution.js';
import type { MemoryOffer } from '../../memory/offer.js';
import { formatBytes } from '../../text/bytes.js';
import type { CodeShown, ProgressLine } from '../port.js';
import { statusLine } from '../format.js';
import { progressText, TRIGGER_WORDS } from '../progress-text.js';
import { checkReportNotice, type Notice } from '../verification.js';
import type { Block, Line, View } from './blocks.js';

/** Most lines shown of a notice's lines, of the checks' report, of a stream, of an auto-fix's error, of an offered sentence. */
export const SHOWN_LINES = { notice: 20, checks: 8, stream: 30, error: 20, offer: 6 } as const;

/** The progress line, e.g. `⚙️ Running attempt 2/4 in the sandbox…`. */
export function progressView(line: ProgressLine): View {
  return { blocks: [{ kind: 'text', text: [progressText(line)] }] };
}

/** An attempt's title, e.g. **Attempt 2** · auto-fix. */
const attemptTitle = (attempt: number, words: string): Line => [{ strong: `Attempt ${attempt}` }, ` · ${words}`];

/** Code still being written: its last lines, marked as being written. */
export function partialCodeView(attempt: number, code: string): View {
  return { blocks: [{ kind: 'code', code, language: 'python', label: attemptTitle(attempt, '✍️ writing…'), tail: true }] };
}

/** An attempt's code (whole, or in a file `attempt-<n>.py` where it does not fit), or why the reply had none. */
export function codeView(shown: Pick<CodeShown, 'attempt' | 'trigger' | 'code' | 'error'>): View {
  const title = attemptTitle(shown.attempt, TRIGGER_WORDS[shown.trigger]);
  if (!shown.code) return { blocks: [{ kind: 'text', text: [...title, '\n', `⚠️ ${shown.error ?? 'no code in the reply'}`] }] };
  return { blocks: [{ kind: 'code', code: shown.code, language: 'python', label: title, file: `attempt-${shown.attempt}.py` }] };
}

/** What replaces a streamed code message that cannot carry the code's file: the code follows below it. */
export function codeBelowView(attempt: number): View {
  return { blocks: [{ kind: 'text', text: [{ strong: `Attempt ${attempt}` }, ' · the whole code is below'] }] };
}

const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;

/**
 * An execution result: the status line, the checks' report, stdout and stderr (each whole in a file
 * `attempt-<n>-<stream>.txt` when cut), and the files the program wrote, named and attached.
 */
export function resultView(attempt: number, result: ExecutionResult): View {
  const blocks: Block[] = [{ kind: 'heading', text: [{ strong: `Result of attempt ${attempt}` }, ` · ${statusLine(result)}`] }];
  if (result.checks) {
    const report = checkReportNotice(result.checks);
    blocks.push({ kind: 'output', stream: 'checks', text: report.lines.join('\n'), label: [`${report.title}:`], maxLines: SHOWN_LINES.checks, file: `attempt-${attempt}-checks.txt` });
  }
  const streams = (['stdout', 'stderr'] as const).filter((s) => result[s].length > 0);
  for (const stream of streams) {
    const whole = result.fullOutput?.[stream];
    blocks.push({ kind: 'output', stream, text: result[stream], label: [`${stream}:`], maxLines: SHOWN_LINES.stream, file: `attempt-${attempt}-${stream}.txt`, ...(whole ? { whole } : {}) });
  }
  if (streams.length === 0) blocks.push({ kind: 'text', text: [{ emphasis: '(no output)' }] });
  if (result.artifacts.length > 0) {
    const names: Line = result.artifacts.flatMap((a) => ['\n', `${IMAGE.test(a.name) ? '🖼️' : '📎'} `, { code: a.name }, ` (${formatBytes(a.bytes)})`]);
    blocks.push({ kind: 'text', text: [{ strong: `Files from attempt ${attempt}` }, ...names] });
    blocks.push({ kind: 'files', files: result.artifacts.map((a) => ({ name: a.name.split('/').pop() || 'file', data: a.path, bytes: a.bytes })) });
  }
  return { blocks };
}

/** A notice's blocks: its title, then its lines inert in a code block (whole in `notice.txt` when cut). */
export function noticeBlocks(notice: Notice): Block[] {
  const title: Block = { kind: 'text', text: [notice.title] };
  if (notice.lines.length === 0) return [title];
  return [title, { kind: 'output', stream: 'checks', text: notice.lines.join('\n'), maxLines: SHOWN_LINES.notice, file: 'notice.txt' }];
}

/** A verification, data or program notice. */
export function noticeView(notice: Notice): View {
  return { blocks: noticeBlocks(notice) };
}

/** An auto-fix announced with the error that caused it (whole in `auto-fix-<n>-error.txt` when cut). */
export function improvingView(retry: number, maxRetries: number, reason: string): View {
  return {
    blocks: [{ kind: 'output', stream: 'stderr', text: reason, label: ['🔧 ', { strong: `Auto-fix ${retry}/${maxRetries}` }, ' · the error that caused it:'], maxLines: SHOWN_LINES.error, file: `auto-fix-${retry}-error.txt` }],
  };
}

/** The last message of a turn whose call threw (`reason` is safe to show). */
export function failureView(reason: string): View {
  return { blocks: [{ kind: 'text', text: ['❌ ', { strong: 'Failed' }, `: ${reason}`] }] };
}

/** A note after the last message. */
export function noteView(text: string): View {
  return { blocks: [{ kind: 'text', text: [`⚠️ ${text}`] }] };
}

/** A notice that turned out false, struck through, and what corrects it. */
export function withdrawnView(notice: string, correction: string): View {
  return { blocks: [{ kind: 'text', text: ['ℹ️ ', { struck: notice.replace(/\s+/g, ' ') }, ` ${correction}`] }] };
}

/**
 * The offer to remember a correction for the channel (src/memory/offer.ts): the sentence inert,
 * then [Remember] and [Just this time]; a platform without buttons (`command`: what a person sends
 * there to remember it, e.g. `!remember`) names the command instead.
 */
export function memoryOfferView(offer: MemoryOffer, command?: string): View {
  const sentence: Block = { kind: 'output', stream: 'checks', text: offer.sentence, maxLines: SHOWN_LINES.offer, file: 'remember.txt' };
  if (command) return { blocks: [{ kind: 'text', text: [`📌 Remember for this channel? To have its next runs read requests this way, send ${command} with:`] }, sentence] };
  return {
    blocks: [
      { kind: 'text', text: ['📌 ', { strong: 'Remember for this channel?' }, ' Its next runs would read requests with:'] },
      sentence,
      { kind: 'actions', actions: [{ id: 'remember', runId: offer.runId, label: 'Remember', style: 'primary' }, { id: 'just-this-time', runId: offer.runId, label: 'Just this time' }] },
    ],
  };
}
