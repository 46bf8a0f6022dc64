/**
 * Matrix's renderer (src/chat/view/blocks.ts: ViewRenderer): a view as `m.room.message` events with
 * a plain `body` and a `formatted_body` in the spec's HTML subset (markup.ts: every text escaped,
 * `@room` broken, code and output in `<pre><code>`), each within {@link CONTENT_BYTES}; files are
 * posted after the message. Matrix has no buttons: a view's actions become reaction keys on the
 * message (src/chat/choice-keys.ts), named in a line that says what each does, and the event's
 * content names the run and the keys it offers so that a reaction can be read back.
 */
import { neutraliseFences } from '../../src/chat/format.js';
import { choiceKeysHint, keyOfChoice, offeredChoices, RERUN_KEY, type ChoiceKey } from '../../src/chat/choice-keys.js';
import { SAVE_PROGRAM_CHOICE } from '../../src/chat/settle-view.js';
import type { ThreadMarkup } from '../../src/chat/port.js';
import type { Action, Block, Inline, Line, ViewRenderer } from '../../src/chat/view/blocks.js';
import { threadMarkup } from '../../src/chat/view/thread-markup.js';
import { attachedNote, codeTailShown, fitLine, flatLine, splitLines, utcMinute, wholeFile } from '../../src/chat/view/fit.js';
import { block, CHOICES_KEY, CONTENT_BYTES, esc, lines, plain, RUN_KEY, type MatrixMessage, type OutFile, type Rich } from './markup.js';

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

/** A group of pieces kept in one message (a label and its code block), with the files it brings. */
interface Part {
  rich: Rich[];
  files: OutFile[];
}

/** The reaction keys of a view's actions, the line naming them, and what the event carries to read a reaction back. */
function reactions(actions: Action[]): { hint: Rich | undefined; extra: Pick<MatrixMessage, 'content' | 'reactions'> } {
  const keys: ChoiceKey[] = actions.flatMap((a) => {
    const key = keyOfChoice(a.id);
    return key ? [{ id: a.id, label: a.label, key, seeded: a.id.startsWith('settle:') }] : [];
  });
  const rerun = actions.find((a) => a.id === 'rerun');
  const runId = actions[0]?.runId;
  const sentences = [
    choiceKeysHint(keys),
    rerun ? `React ${RERUN_KEY} to ${rerun.label.toLowerCase()} it.` : '',
    actions.some((a) => a.id === SAVE_PROGRAM_CHOICE) ? 'To keep it as a team program (run again by name, no LLM call): `!program save <name>` in this thread.' : '',
  ].filter(Boolean);
  const seeded = [...keys.filter((k) => k.seeded).map((k) => k.key), ...(rerun ? [RERUN_KEY] : [])];
  return {
    hint: sentences.length ? lineRich([sentences.join(' ')]) : undefined,
    extra: runId && (keys.length || rerun) ? { content: { [RUN_KEY]: runId, [CHOICES_KEY]: offeredChoices(keys) }, reactions: seeded } : {},
  };
}

/** The parts of one block; `chars`: characters of untrusted text in a code block. */
function parts(b: Exclude<Block, { kind: 'actions' }>, chars: number): Part[] {
  const one = (rich: Rich[], files: OutFile[] = []): Part[] => [{ rich, files }];
  switch (b.kind) {
    case 'heading':
      return one([lineRich(flatLine(b.text))]);
    case 'text':
      return splitLines(b.text).map((line) => ({ rich: [lineRich(line)], files: [] }));
    case 'fields':
      return b.fields.map((f) => ({ rich: [lineRich([{ strong: `${f.label}:` }, ' ', ...flatLine(f.value)])], files: [] }));
    case 'code': {
      const label = b.label ? [lineRich(flatLine(b.label))] : [];
      const lang = b.language ?? '';
      if (b.tail) {
        const tail = codeTailShown(b.code, 3000);
        const head = b.label ? lineRich([...flatLine(b.label), tail.note]) : lineRich([tail.note]);
        return one([head, block(tail.text, 3001, 40, lang)]);
      }
      const whole = [...label, block(b.code, b.code.length + 1, Infinity, lang)];
      if (CONTENT_OVERHEAD + partBytes({ rich: whole, files: [] }) <= CONTENT_BYTES) return one(whole);
      const note = lineRich([...(b.label ? flatLine(b.label) : []), attachedNote(b.code, Boolean(b.label))]);
      return one([note], [wholeFile(b)]);
    }
    case 'output': {
      const shown = block(b.text, chars, b.maxLines ?? 40);
      const files = shown.truncated ? [wholeFile(b)] : [];
      return one([...(b.label ? [lineRich(flatLine(b.label))] : []), shown], files);
    }
    case 'files':
      return one([], b.files.map((f) => ({ name: f.name.split('/').pop() || 'file', data: f.data })));
    default:
      return unknownBlock(b);
  }
}

/** Compile-time proof that every kind of block is rendered. */
function unknownBlock(b: never): never {
  throw new Error(`block without a Matrix rendering: ${JSON.stringify(b)}`);
}

/** Bytes a part adds to an event's content, at most (its text as JSON strings, and a line break before each piece). */
const partBytes = (part: Part) => part.rich.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r.body)) + Buffer.byteLength(JSON.stringify(r.html)) + 6, 0);
/** Bytes of an event's content around its text (`{"body":…,"formatted_body":…}`). */
const CONTENT_OVERHEAD = 40;

/** Parts packed into messages of at most {@link CONTENT_BYTES}; files and `extra` go on the last one. */
function pack(all: Part[], extra: Pick<MatrixMessage, 'content' | 'reactions'>): MatrixMessage[] {
  const groups: { rich: Rich[]; bytes: number }[] = [];
  const files: OutFile[] = [];
  for (const part of all) {
    files.push(...part.files);
    if (part.rich.length === 0) continue;
    const bytes = partBytes(part);
    const last = groups.at(-1);
    if (last && last.bytes + bytes <= CONTENT_BYTES) {
      last.rich.push(...part.rich);
      last.bytes += bytes;
    } else groups.push({ rich: [...part.rich], bytes: CONTENT_OVERHEAD + bytes });
  }
  if (groups.length === 0) groups.push({ rich: [{ body: files.length || extra.reactions ? '\u200b' : '(empty)', html: files.length || extra.reactions ? '\u200b' : '<em>(empty)</em>' }], bytes: 0 });
  return groups.map((g, i) => (i === groups.length - 1 ? lines(g.rich, { ...(files.length ? { files } : {}), ...extra }) : lines(g.rich)));
}

/** Matrix's renderer. */
export const matrixRenderer: ViewRenderer<MatrixMessage> = {
  render(view) {
    const actions = view.blocks.flatMap((b) => (b.kind === 'actions' ? b.actions : []));
    const { hint, extra } = reactions(actions);
    // only an output's parts depend on the room given to code blocks: the others are rendered once
    const fixed = view.blocks.map((b) => (b.kind === 'actions' || b.kind === 'output' ? undefined : parts(b, 0)));
    const build = (chars: number) => [
      ...view.blocks.flatMap((b, i) => (b.kind === 'actions' ? [] : (fixed[i] ?? parts(b, chars)))),
      ...(hint ? [{ rich: [hint], files: [] }] : []),
    ];
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
