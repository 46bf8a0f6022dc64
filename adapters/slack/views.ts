/**
 * What the thread shows, as mrkdwn strings: pure functions of core data, every untrusted part
 * escaped (see mrkdwn.ts). Posting is thread.ts's job.
 */
import type { MemoryOffer } from '../../src/memory/offer.js';
import type { ExecutionResult } from '../../src/history/execution.js';
import type { Run } from '../../src/history/types.js';
import { statusLine } from '../../src/chat/format.js';
import { checkReportNotice, type Notice } from '../../src/chat/verification.js';
import { SECTION_TEXT_MAX, fencedSection, inlineText, type FencedText, type SlackButton } from './mrkdwn.js';
import { madeAttempts } from '../../src/history/attempts.js';
import { codeTail } from '../../src/chat/stream-edits.js';
import { chatOf } from '../../src/chat/run-chat.js';
import { choicesOf, confirmedBy, NEW_PROGRAM_CHOICE, SAVE_PROGRAM_CHOICE } from '../../src/chat/settle-view.js';
import { programMark } from '../../src/programs/text.js';
import { outcomeLine, runOutcome } from '../../src/chat/run-outcome.js';
import { CHOICE_ACTION_PREFIX, FEEDBACK_ACTION, IMPROVE_ACTION, JUST_THIS_TIME_ACTION, REMEMBER_ACTION, RERUN_ACTION } from './action-ids.js';

/** Who asked, as shown (never a mention: names are escaped text, ids are not wrapped in `<@…>`). */
export function whoAsked(run: Pick<Run, 'requestedBy' | 'chat' | 'meta'>): string {
  return inlineText(chatOf(run)?.userName ?? run.requestedBy ?? 'someone', 80);
}

/** The channel message of a run: who asked, the requirement, and the status (`kind`: default what started the run). */
export function rootText(run: Pick<Run, 'requirement' | 'requestedBy' | 'chat' | 'meta'>, status: string, kind = chatOf(run)?.kind ?? 'run'): string {
  const verb = kind === 'generate' ? 'asked for code' : 'asked';
  return `*${whoAsked(run)}* ${verb}: ${inlineText(run.requirement, 1500)}\n*Status:* ${status}\n_Results are in the thread; reply there to improve._`;
}

/** The final status of a run for its channel message (src/chat/run-outcome.ts; the run's id is shown beside it). */
export function finalStatus(run: Run): string {
  return outcomeLine(runOutcome(run), inlineText);
}

/** Progress line, e.g. `⏳ Attempt 2/4: running…`. */
export function progressText(attempt: number, total: number, doing: string): string {
  return `⏳ Attempt ${attempt}/${total}: ${doing}`;
}

/** The code of an attempt: a code block, or (`truncated`) a notice that it is attached. */
export function codeView(code: string, label: string): FencedText {
  const fenced = fencedSection(code, label);
  if (!fenced.truncated) return fenced;
  const lines = code.split('\n').length;
  return { text: `${label} — ${lines} lines, attached as a file`, truncated: true };
}

/** Code still being written: its last lines that fit in one section, under `label` (marked as being written). */
export function streamingCodeView(code: string, label: string): string {
  const lines = code.split('\n');
  const recent = lines.slice(-OUTPUT_LINES_MAX_STREAMED).join('\n');
  const tail = codeTail(recent, SECTION_TEXT_MAX - 500);
  const omitted = lines.length - recent.split('\n').length + tail.omittedLines;
  const note = omitted > 0 ? ` (${omitted} earlier lines not shown)` : '';
  return fencedSection(tail.text, `${label} ✍️ writing…${note}`).text;
}

/** Most lines of code shown while it is being written. */
const OUTPUT_LINES_MAX_STREAMED = 30;

/** The sections showing an execution result, and which streams were cut (attach them whole). */
export interface ResultView {
  sections: string[];
  /** Plain one-line summary (already escaped). */
  plain: string;
  stdoutCut: boolean;
  stderrCut: boolean;
}

/** Status line (exit meaning, duration, failure) + capped stdout and stderr. */
export function resultView(result: ExecutionResult, label: string): ResultView {
  const status = inlineText(statusLine(result), SECTION_TEXT_MAX - label.length - 1);
  const sections = [`${label} ${status}`];
  let stdoutCut = false;
  let stderrCut = false;
  if (result.stdout.trim()) {
    const out = fencedSection(result.stdout, '*stdout*');
    stdoutCut = out.truncated;
    sections.push(out.text);
  }
  if (result.stderr.trim()) {
    const err = fencedSection(result.stderr, '*stderr*');
    stderrCut = err.truncated;
    sections.push(err.text);
  }
  if (!result.stdout.trim() && !result.stderr.trim()) sections.push('_(no output)_');
  if (result.checks) sections.push(noticeText(checkReportNotice(result.checks)));
  if (result.artifacts.length > 0) {
    const names = result.artifacts.map((a) => `\`${inlineText(a.name, 100).replace(/`/g, "'")}\``).join(', ');
    sections.push(`*Files:* ${names} (uploaded below)`);
  }
  return { sections, plain: status, stdoutCut, stderrCut };
}

/** Why an improvement attempt is made: the error that caused it. */
export function improvingText(attempt: number, total: number, reason: string): string {
  return fencedSection(reason, `🔧 *Attempt ${attempt}/${total}*: fixing the previous attempt, which failed with:`, 3000, 12).text;
}

/** The thread's last message. */
export function finalText(run: Run): string {
  const mark = programMark(run);
  if (mark?.ok) return `*Done*: ${inlineText(mark.text, 400)}. Reply in this thread to improve it.`;
  if (mark) return fencedSection(run.error ?? 'failed', `*Done*: ${inlineText(mark.text.split(':')[0]!, 300)}. Reply in this thread to adapt it. Reason:`, 3000, 12).text;
  const confirmed = confirmedBy(run);
  if (confirmed) return `✅ *Done*: ${inlineText(confirmed, 200)}. Reply in this thread to improve it.`;
  if (run.status === 'success') return `✅ *Done*: success after ${madeAttempts(run)} attempt(s). Reply in this thread to improve it.`;
  if (run.status === 'generated') return '📝 *Done*: code generated (not run). Reply in this thread to improve and run it.';
  if (run.status === 'unverified') {
    return fencedSection(run.error ?? 'not confirmed', `⚠️ *Done*, but not confirmed after ${madeAttempts(run)} attempt(s): the program ran, but its result could not be confirmed. Reply in this thread to improve it. Why:`, 3000, 12).text;
  }
  return fencedSection(run.error ?? 'failed', '❌ *Failed*. Reply in this thread with feedback to try again. Reason:', 3000, 12).text;
}

/** The offer after a correction (src/memory/offer.ts): the sentence in a code block, [Remember] [Just this time]. */
export function memoryOfferView(offer: MemoryOffer): { text: string; buttons: SlackButton[] } {
  return {
    text: fencedSection(offer.sentence, '📌 *Remember for this channel?* Its next runs would read requests with:', 3000, 6).text,
    buttons: [
      { actionId: REMEMBER_ACTION, text: 'Remember', value: offer.runId, primary: true },
      { actionId: JUST_THIS_TIME_ACTION, text: 'Just this time', value: offer.runId },
    ],
  };
}

/**
 * The choice buttons of a run, then Re-run (`Run` for generated code) and Improve, then 👍/👎
 * (feedback buttons), then "Save as team program", then "Write a new program" (a run that ran a team
 * program found for its request).
 */
export function runButtons(run: Run): SlackButton[] {
  const choices = choicesOf(run);
  const settle = choices.filter((c) => c.id.startsWith('settle:'));
  return [
    ...settle.map((c) => ({ actionId: `${CHOICE_ACTION_PREFIX}${c.id}`, text: c.label, value: run.id, ...(c.primary ? { primary: true } : {}) })),
    { actionId: RERUN_ACTION, text: run.status === 'generated' ? 'Run' : 'Re-run', value: run.id, ...(settle.length ? {} : { primary: true }) },
    { actionId: IMPROVE_ACTION, text: 'Improve', value: run.id },
    ...choices
      .filter((c) => c.id.startsWith('approve:'))
      .map((c) => ({ actionId: FEEDBACK_ACTION, text: c.label, value: `${c.id}|${run.id}`, feedback: c.id === 'approve:up' ? ('positive' as const) : ('negative' as const) })),
    ...choices.filter((c) => c.id === SAVE_PROGRAM_CHOICE || c.id === NEW_PROGRAM_CHOICE).map((c) => ({ actionId: `${CHOICE_ACTION_PREFIX}${c.id}`, text: c.label, value: run.id })),
  ];
}

/** A verification notice as one section: the title, then its lines in a code block. */
export function noticeText(notice: Notice): string {
  if (notice.lines.length === 0) return notice.title;
  return fencedSection(notice.lines.join('\n'), `*${notice.title}*`, 3000, 12).text;
}
