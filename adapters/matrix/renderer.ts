/**
 * Matrix's renderer (src/chat/view/blocks.ts: ViewRenderer): a view as `m.room.message` events with
 * a plain `body` and a `formatted_body` in the spec's HTML subset (markup.ts: every text escaped,
 * `@room` broken, code and output in `<pre><code>`), each within {@link CONTENT_BYTES}; files are
 * posted after the message. Matrix has no buttons: a view's actions become reaction keys on the
 * message (src/chat/choice-keys.ts), named in a line that says what each does, and the event's
 * content names the run and the keys it offers so that a reaction can be read back.
 */
import { neutraliseFences } from '../../src/chat/format.js';
import { reactionOffer } from '../../src/chat/choice-keys.js';
import type { ThreadMarkup } from '../../src/chat/port.js';
import type { AnswerMarkup } from '../../src/chat/incoming-port.js';
import { answerMarkup } from '../../src/chat/view/answer-markup.js';
import type { Action, Inline, Line, ViewRenderer } from '../../src/chat/view/blocks.js';
import { threadMarkup } from '../../src/chat/view/thread-markup.js';
import { fitLine, utcMinute } from '../../src/chat/view/fit.js';
import { blockParts, type BlockPart, type PartRendering } from '../../src/chat/view/block-parts.js';
import { packInOrder } from '../../src/chat/view/pack.js';
import { block, CHOICES_KEY, CONTENT_BYTES, esc, lines, plain, RUN_KEY, type MatrixMessage, type Rich } from './markup.js';

/** Characters of one line of text (measured as HTML, after escaping), so that any line fits in an event. */
const LINE_MAX = 1500;
/** Characters of untrusted text in one code block: tried in this order until the view fits in one event. */
const BLOCK_CHARS = [4000, 2000, 1000, 500, 250];

/** One inline piece in both forms (HTML escaped; backticks in inline code become `'`). */
function inlineRich(piece: Inline): Rich {
  const text = (raw: string) => ({ body: neutraliseFences(plain(raw)), html: esc(raw) });
  if (typeof piece === 'string') return text(piece);
  const wrap = (raw: string, md: string, tag: string) => (raw ? { body: `${md}${text(raw).body}${md}`, html: `<${tag}>${esc(raw)}</${tag}>` } : { body: '', html: '' });
  if ('strong' in piece) return wrap(piece.strong, '**', 'strong');
  if ('emphasis' in piece) return wrap(piece.emphasis, '_', 'em');
  if ('struck' in piece) return wrap(piece.struck, '~~', 'del');
  if ('code' in piece) return piece.code ? { body: `\`${plain(piece.code.replace(/`/g, "'"))}\``, html: `<code>${esc(piece.code)}</code>` } : { body: '', html: '' };
  if ('link' in piece) {
    if (!/^https:\/\/[^\s<>"']+$/.test(piece.url)) return text(piece.link);
    return { body: `${text(piece.link).body} (${piece.url})`, html: `<a href="${esc(piece.url)}">${esc(piece.link)}</a>` };
  }
  if ('person' in piece) return wrap(piece.person, '**', 'strong');
  const at = Date.parse(piece.time);
  return text(Number.isNaN(at) ? piece.time : utcMinute(at));
}

/** A line in both forms, each within {@link LINE_MAX} characters. */
function lineRich(line: Line): Rich {
  return { body: fitLine(line, LINE_MAX, (p) => inlineRich(p).body), html: fitLine(line, LINE_MAX, (p) => inlineRich(p).html) };
}

/** The reaction keys of a view's actions, the line naming them, and what the event carries to read a reaction back. */
function reactions(actions: Action[]): { hint: Rich | undefined; extra: Pick<MatrixMessage, 'content' | 'reactions'> } {
  const { offered, rerun, seeded, hint } = reactionOffer(actions, '!program save <name>');
  const runId = actions[0]?.runId;
  const any = Object.keys(offered).length > 0 || rerun;
  return { hint: hint ? lineRich([hint]) : undefined, extra: runId && any ? { content: { [RUN_KEY]: runId, [CHOICES_KEY]: offered }, reactions: seeded } : {} };
}

/** Matrix's pieces of a block (src/chat/view/block-parts.ts): lines within {@link LINE_MAX}, code in `<pre><code>`. */
const rendering: PartRendering<Rich> = {
  line: lineRich,
  block,
  fits: (shown) => CONTENT_OVERHEAD + partBytes({ shown, files: [] }) <= CONTENT_BYTES,
  tailChars: 3000,
};

/** Bytes a part adds to an event's content, at most (its text as JSON strings, and a line break before each piece). */
const partBytes = (part: BlockPart<Rich>) => part.shown.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r.body)) + Buffer.byteLength(JSON.stringify(r.html)) + 6, 0);
/** Bytes of an event's content around its text (`{"body":…,"formatted_body":…}`). */
const CONTENT_OVERHEAD = 40;

/** Parts packed into messages of at most {@link CONTENT_BYTES}; files and `extra` go on the last one. */
function pack(all: BlockPart<Rich>[], extra: Pick<MatrixMessage, 'content' | 'reactions'>): MatrixMessage[] {
  const files = all.flatMap((p) => p.files);
  const groups = packInOrder(all.filter((p) => p.shown.length > 0), partBytes, CONTENT_BYTES - CONTENT_OVERHEAD).map((g) => g.flatMap((p) => p.shown));
  if (groups.length === 0) groups.push([{ body: files.length || extra.reactions ? '\u200b' : '(empty)', html: files.length || extra.reactions ? '\u200b' : '<em>(empty)</em>' }]);
  return groups.map((g, i) => (i === groups.length - 1 ? lines(g, { ...(files.length ? { files } : {}), ...extra }) : lines(g)));
}

/** Matrix's renderer. */
export const matrixRenderer: ViewRenderer<MatrixMessage> = {
  render(view) {
    const actions = view.blocks.flatMap((b) => (b.kind === 'actions' ? b.actions : []));
    const { hint, extra } = reactions(actions);
    // only an output's parts depend on the room given to code blocks: the others are rendered once
    const fixed = view.blocks.map((b) => (b.kind === 'output' ? undefined : blockParts(b, rendering, 0)));
    const build = (chars: number) => [...view.blocks.flatMap((b, i) => fixed[i] ?? blockParts(b, rendering, chars)), ...(hint ? [{ shown: [hint], files: [] }] : [])];
    // smaller code blocks are tried only while they can make the view fit in one event
    const fixedBytes = fixed.reduce((n, ps) => n + (ps ?? []).reduce((m, p) => m + partBytes(p), 0), CONTENT_OVERHEAD);
    for (const chars of BLOCK_CHARS) {
      const all = build(chars);
      if (!all.every((p) => CONTENT_OVERHEAD + partBytes(p) <= CONTENT_BYTES)) continue;
      const messages = pack(all, extra);
      if (messages.length === 1 || fixedBytes > CONTENT_BYTES) return messages;
    }
    return pack(build(BLOCK_CHARS.at(-1)!), extra);
  },
};

/** The messages of a run's thread on Matrix (src/chat/view/thread-markup.ts): no buttons, so the memory offer names `!remember`. */
export const matrixThreadMarkup: ThreadMarkup<MatrixMessage> = threadMarkup({ renderer: matrixRenderer, rememberCommand: '!remember' });

/** Matrix's answers to a requester (a refusal, `!history`, `!show`, `!remember`, `!memory`): src/chat/view/answer-markup.ts's views rendered here. */
export const matrixAnswers: AnswerMarkup<MatrixMessage> = answerMarkup(matrixRenderer);
