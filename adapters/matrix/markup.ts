/**
 * Matrix's markup profile: each neutral view as an `m.room.message` with a plain `body` (Markdown-like,
 * for clients without HTML) and a `formatted_body` in the HTML subset of the spec
 * (https://spec.matrix.org/v1.11/client-server-api/#mroommessage-msgtypes: `pre`, `code` with a
 * `language-*` class, `strong`, `br`, `blockquote`). Program output is untrusted: it is escaped,
 * stays inside code blocks, and is capped. Pure functions; nothing here talks to Matrix.
 */
import { capText, neutraliseFences, statusLine } from '../../src/chat/format.js';
import { codeTail } from '../../src/chat/stream-edits.js';
import { checkReportNotice, type Notice } from '../../src/chat/verification.js';
import { candidatesNotice, choicesOf, SAVE_PROGRAM_CHOICE } from '../../src/chat/settle-view.js';
import { choiceKeys, choiceKeysHint, offeredChoices, RERUN_KEY } from '../../src/chat/choice-keys.js';
import type { ThreadMarkup } from '../../src/chat/port.js';
import { progressText, TRIGGER_WORDS } from '../../src/chat/progress-text.js';
import type { Run } from '../../src/history/types.js';
import type { ExecutionResult } from '../../src/history/execution.js';
import { boundLine } from '../../src/text/cut.js';
import { outcomeLine, runOutcome } from '../../src/chat/run-outcome.js';

/**
 * Bytes of one message's `body` and `formatted_body` as JSON, at most. The spec caps a whole event at
 * 65,536 bytes (https://spec.matrix.org/v1.11/client-server-api/#size-limits) and an edit carries the
 * content twice (`m.new_content` and its fallback), so each copy gets well under half of that.
 */
export const CONTENT_BYTES = 24_000;
/** Characters of untrusted text shown in one code block before the cap tightens for {@link CONTENT_BYTES}. */
const BLOCK_CHARS = 4000;
/** The keys of a final message's content naming its run and the reactions it offers (key → choice id, src/chat/choice-keys.ts). */
export const RUN_KEY = 'org.code-agent.run_id';
export const CHOICES_KEY = 'org.code-agent.choices';

/** A file to upload into the thread: bytes in memory or a host path. */
export interface OutFile {
  name: string;
  data: Buffer | string;
}

/** Text in both forms: plain (`body`) and Matrix HTML (`formatted_body`). */
export interface Rich {
  body: string;
  html: string;
  /** A block element (`pre`): no line break is added around it. */
  block?: boolean;
}

/** One message: its text, the files posted after it, more keys of its event's content, and the reactions the bot adds. */
export interface MatrixMessage extends Rich {
  files?: OutFile[];
  content?: Record<string, unknown>;
  reactions?: string[];
}

const ZWSP = '\u200b';
/** Plain text as shown: `@room` broken (no room ping even in old clients). */
export const plain = (text: string) => text.replace(/@room\b/gi, (m) => `@${ZWSP}${m.slice(1)}`);
/** HTML-escaped plain text. */
export const esc = (text: string) => plain(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A line of prose. */
export const line = (text: string): Rich => ({ body: plain(text), html: esc(text).replace(/\n/g, '<br>') });
/** A bold title. */
export const strong = (text: string): Rich => ({ body: `**${plain(text)}**`, html: `<strong>${esc(text)}</strong>` });
/** Pieces on one line. */
export const inline = (...parts: Rich[]): Rich => ({ body: parts.map((p) => p.body).join(' · '), html: parts.map((p) => p.html).join(' · ') });

/** Untrusted text as a code block, capped at `maxChars` characters and `maxLines` lines (a marker says so). */
export function block(raw: string, maxChars = BLOCK_CHARS, maxLines = 40, language = ''): Rich & { truncated: boolean } {
  const capped = capText(raw.replace(/\s+$/, ''), maxChars, maxLines);
  const text = capped.text || ' ';
  const cls = language ? ` class="language-${language}"` : '';
  return { body: `\`\`\`${language}\n${neutraliseFences(plain(text))}\n\`\`\``, html: `<pre><code${cls}>${esc(text)}</code></pre>`, block: true, truncated: capped.truncated };
}

/** Pieces as lines of one message. */
export function lines(parts: Rich[], extra: Omit<MatrixMessage, keyof Rich> = {}): MatrixMessage {
  let html = '';
  parts.forEach((p, i) => (html += (i > 0 && !p.block && !parts[i - 1]!.block ? '<br>' : '') + p.html));
  return { body: parts.map((p) => p.body).join('\n'), html, ...extra };
}

/** Bytes of a message's text content as JSON. */
export const contentBytes = (m: Rich) => Buffer.byteLength(JSON.stringify({ body: m.body, formatted_body: m.html }));

/** The message `build` makes with the largest block size (4000 characters, halved) that fits in {@link CONTENT_BYTES}. */
export function fitted(build: (chars: number) => MatrixMessage): MatrixMessage {
  for (let chars = BLOCK_CHARS; chars > 100; chars = Math.floor(chars / 2)) {
    const msg = build(chars);
    if (contentBytes(msg) <= CONTENT_BYTES) return msg;
  }
  return build(100);
}

/** A run's outcome in one line (src/chat/run-outcome.ts), e.g. `✅ Success · 2 attempts · run r-1`. */
export function finalState(run: Run): string {
  return outcomeLine(runOutcome(run), boundLine, `run ${run.id}`);
}

/** An execution result: the status line, the checks, stdout and stderr (whole files when cut), the artifacts. */
function resultMessages(attempt: number, result: ExecutionResult): MatrixMessage[] {
  const head = inline(strong(`Result of attempt ${attempt}`), line(boundLine(statusLine(result), 600)));
  const streams = (['stdout', 'stderr'] as const).filter((s) => result[s].length > 0);
  const text = fitted((chars) => {
    const parts = [head];
    if (result.checks) {
      const report = checkReportNotice(result.checks);
      parts.push(line(`${report.title}:`), block(report.lines.join('\n'), Math.min(chars, 800), 8));
    }
    const files: OutFile[] = [];
    for (const stream of streams) {
      const shown = block(result[stream], chars, 30);
      parts.push(line(`${stream}:`), shown);
      if (shown.truncated) files.push({ name: `attempt-${attempt}-${stream}.txt`, data: result.fullOutput?.[stream] ?? Buffer.from(result[stream]) });
    }
    if (streams.length === 0) parts.push(line('(no output)'));
    // the files the program wrote follow as media (images shown inline)
    for (const a of result.artifacts) files.push({ name: a.name.split('/').pop() || 'file', data: a.path });
    return lines(parts, files.length ? { files } : {});
  });
  return [text];
}

/** A notice: its title, then its lines in a code block (`chars` at most). */
const noticeParts = (notice: Notice, chars: number): Rich[] => [line(notice.title), ...(notice.lines.length ? [block(notice.lines.join('\n'), chars, 20)] : [])];
const noticeMessage = (notice: Notice) => fitted((chars) => lines(noticeParts(notice, chars)));

/** Matrix's {@link ThreadMarkup}. */
export const matrixMarkup: ThreadMarkup<MatrixMessage> = {
  progress: (p) => lines([line(progressText(p))]),
  partialCode(attempt, _last, code) {
    const tail = codeTail(code, 3000);
    const note = tail.omittedLines > 0 ? ` (${tail.omittedLines} earlier lines not shown)` : '';
    return lines([inline(strong(`Attempt ${attempt}`), line(`✍️ writing…${note}`)), block(tail.text, 3000, 40, 'python')]);
  },
  code(shown) {
    const title = inline(strong(`Attempt ${shown.attempt}`), line(TRIGGER_WORDS[shown.trigger]));
    if (!shown.code) return { edit: lines([title, line(`⚠️ ${boundLine(shown.error ?? 'no code in the reply', 500)}`)]) };
    const whole = lines([title, block(shown.code, shown.code.length + 1, Infinity, 'python')]);
    if (contentBytes(whole) <= CONTENT_BYTES) return { edit: whole };
    const size = `${shown.code.split('\n').length} lines, ${shown.code.length} characters: attached as a file`;
    return { edit: lines([inline(title, line(size))], { files: [{ name: `attempt-${shown.attempt}.py`, data: Buffer.from(shown.code) }] }) };
  },
  result: (view) => resultMessages(view.attempt, view.result),
  notice: noticeMessage,
  // no buttons: the offer says what to send (the sentence is the team's text: in a code block)
  memoryOffer: (o) => noticeMessage({ title: '📌 Remember for this channel? To have its next runs read requests this way, send !remember with:', lines: [o.sentence] }),
  improving(view) {
    const title = strong(`🔧 Auto-fix ${view.retry}/${view.maxRetries} · the error that caused it:`);
    return fitted((chars) => {
      const shown = block(view.reason, chars, 20);
      return lines([title, shown], shown.truncated ? { files: [{ name: `auto-fix-${view.retry}-error.txt`, data: Buffer.from(view.reason) }] } : {});
    });
  },
  // the choices are reactions on this message (src/chat/choice-keys.ts; docs/matrix.md says why some are added by the bot)
  final(run, workspace) {
    const keys = choiceKeys(run);
    const candidates = candidatesNotice(run);
    const save = choicesOf(run).some((c) => c.id === SAVE_PROGRAM_CHOICE) ? ' To keep it as a team program (run again by name, no LLM call): `!program save <name>` in this thread.' : '';
    const hint = `React ${RERUN_KEY} to ${run.status === 'generated' ? 'run it' : 'run it again'}; reply in this thread to improve it (files you send in the thread go to the sandbox).${save}`;
    const extra = { content: { [RUN_KEY]: run.id, [CHOICES_KEY]: offeredChoices(keys) }, reactions: [...keys.filter((k) => k.seeded).map((k) => k.key), RERUN_KEY] };
    return fitted((chars) => lines([strong(finalState(run)), ...(candidates ? noticeParts(candidates, chars) : []), ...(keys.length ? [line(choiceKeysHint(keys))] : []), line(hint), ...(workspace ? [line(boundLine(workspace, 600))] : [])], extra));
  },
  failure: (reason) => lines([line(`⚠️ ${reason}`)]),
  note: (text) => lines([line(`⚠️ ${text}`)]),
  withdrawn: (was, correction) => ({ body: `~~${plain(was)}~~ ${plain(correction)}`, html: `<del>${esc(was)}</del> ${esc(correction)}` }),
};
