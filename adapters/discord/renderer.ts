/**
 * Discord's renderer (src/chat/view/blocks.ts: ViewRenderer): a view as messages of at most 2000
 * characters of Markdown content, code and output in fenced code blocks (fences neutralised), at
 * most 5 rows of 5 buttons on the last message, and files attached to the message they belong to
 * (at most 10 a message, within Discord's sizes: file-batches.ts). Mentions in the text stay text:
 * every message is sent with no allowed mention (surface.ts `toOptions`).
 *
 * Limits: https://discord.com/developers/docs/resources/message#create-message (content ≤ 2000,
 * files ≤ 10), https://discord.com/developers/docs/interactions/message-components#action-rows.
 * Also a run's messages outside its thread: the thread's name, the run's root (its header) and the
 * answer to a Re-run or an Improve, composed once in src/chat/view/root-view.ts.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';
import { codeBlock, fitBlock, neutraliseFences } from '../../src/chat/format.js';
import type { ThreadMarkup } from '../../src/chat/port.js';
import type { Action, Block, Inline, Line, ViewRenderer } from '../../src/chat/view/blocks.js';
import { threadMarkup } from '../../src/chat/view/thread-markup.js';
import { actionLabel, attachedNote, codeTailShown, dataBytes, fitLine, flatLine, splitLines, wholeFile } from '../../src/chat/view/fit.js';
import { uploadNoticeLine } from '../../src/chat/view/upload-notice.js';
import { againView, rootView, threadTitle, type AgainSpec, type RootSpec } from '../../src/chat/view/root-view.js';
import { packFiles } from './file-batches.js';
import { customId } from './ids.js';
import { unknownBlock } from '../../src/chat/view/pack.js';

/**
 * Characters in one message's content.
 * Source: https://discord.com/developers/docs/resources/message#create-message (content: up to 2000 characters)
 */
export const MESSAGE_CHARS = 2000;

/** A file to attach: bytes in memory or a host path. */
export interface OutFile {
  name: string;
  data: Buffer | string;
}

/** One message to post or edit. `content` is at most {@link MESSAGE_CHARS} characters. */
export interface Outgoing {
  content: string;
  files?: OutFile[];
  components?: APIActionRowComponent<APIButtonComponent>[];
}

/** Buttons per action row, and rows per message. */
const ROW_BUTTONS = 5;
const ROWS = 5;
/** Characters of a code block's or an output's label. */
const LABEL_MAX = 600;
/** Least room an output's code block is given before it moves to a message of its own. */
const OUTPUT_MIN = 200;

/** One inline piece as Discord Markdown (fences neutralised; backticks in inline code become `'`). */
export function discordInline(piece: Inline): string {
  if (typeof piece === 'string') return neutraliseFences(piece);
  if ('strong' in piece) return piece.strong ? `**${neutraliseFences(piece.strong)}**` : '';
  if ('emphasis' in piece) return piece.emphasis ? `_${neutraliseFences(piece.emphasis)}_` : '';
  if ('code' in piece) return piece.code ? `\`${piece.code.replace(/`/g, "'")}\`` : '';
  if ('struck' in piece) return piece.struck ? `~~${neutraliseFences(piece.struck)}~~` : '';
  if ('link' in piece) return /^https:\/\/[^\s<>()]+$/.test(piece.url) ? `[${neutraliseFences(piece.link).replace(/[[\]]/g, '')}](<${piece.url}>)` : neutraliseFences(piece.link);
  if ('person' in piece) return piece.id && /^\d{15,25}$/.test(piece.id) ? `<@${piece.id}>` : piece.person ? `**${neutraliseFences(piece.person)}**` : '';
  const at = Date.parse(piece.time);
  return Number.isNaN(at) ? neutraliseFences(piece.time) : `<t:${Math.floor(at / 1000)}:R>`;
}

const oneLine = (line: Line, max: number) => fitLine(flatLine(line), max, discordInline);
const language = (lang: string | undefined) => (lang === 'python' ? 'py' : (lang ?? ''));

/** What one block adds: parts of content (joined by newlines), files, buttons. */
interface Part {
  text: string;
  files: OutFile[];
  /** A batch of a files block: one request within Discord's sizes, sharing its message with no other file. */
  batch?: boolean;
}

function button(action: Action): APIButtonComponent {
  // a candidate's suggested button is green (Success), as Discord's choice buttons always were
  const primary = action.id.startsWith('settle:') ? ButtonStyle.Success : ButtonStyle.Primary;
  const style = action.style === 'primary' ? primary : action.style === 'danger' ? ButtonStyle.Danger : ButtonStyle.Secondary;
  return { type: ComponentType.Button, style, label: actionLabel(action, 80), custom_id: customId(action.id, action.runId) };
}

/** The files of a files block: attached, and those Discord would refuse named with why. */
function filesPart(files: { name: string; data: Buffer | string; bytes?: number }[]): Part[] {
  const sized = files.map((f) => ({ name: f.name.split('/').pop() || 'file', data: f.data, bytes: f.bytes ?? dataBytes(f.data) }));
  const { batches, unsendable } = packFiles(sized);
  const parts: Part[] = batches.map((batch) => ({ text: '', files: batch.map((f) => ({ name: f.name, data: f.data })), batch: true }));
  for (const f of unsendable) parts.push({ text: oneLine(uploadNoticeLine([f], f.reason), MESSAGE_CHARS), files: [] });
  return parts;
}

/** The parts of one block; `share` is the room an output block is given. */
function parts(b: Exclude<Block, { kind: 'actions' }>, share: number): Part[] {
  const text = (t: string, files: OutFile[] = []): Part[] => [{ text: t, files }];
  switch (b.kind) {
    case 'heading':
      return text(oneLine(b.text, MESSAGE_CHARS));
    case 'text':
      return splitLines(b.text).map((line) => ({ text: fitLine(line, MESSAGE_CHARS, discordInline), files: [] }));
    case 'fields':
      return b.fields.map((f) => ({ text: `**${neutraliseFences(f.label)}:** ${oneLine(f.value, MESSAGE_CHARS - 200)}`, files: [] }));
    case 'code': {
      const label = b.label ? oneLine(b.label, LABEL_MAX) : '';
      if (b.tail) {
        const tail = codeTailShown(b.code, MESSAGE_CHARS - LABEL_MAX - 100);
        return text(`${label}${tail.note}\n${codeBlock(tail.text, language(b.language))}`);
      }
      const whole = `${label ? `${label}\n` : ''}${codeBlock(b.code, language(b.language))}`;
      if (whole.length <= MESSAGE_CHARS) return text(whole);
      return text(`${label}${attachedNote(b.code, label !== '')}`, [wholeFile(b)]);
    }
    case 'output': {
      const label = b.label ? `${oneLine(b.label, LABEL_MAX)}\n` : '';
      const fitted = fitBlock(b.text, share, { maxLines: b.maxLines ?? 40, wrap: (block) => `${label}${block}` });
      return text(fitted.text, fitted.truncated ? [wholeFile(b)] : []);
    }
    case 'files':
      return filesPart(b.files);
    default:
      return unknownBlock(b, 'Discord');
  }
}

/**
 * The room each output block gets: an even share of what the other blocks leave in one message,
 * or a whole message when that share would be under {@link OUTPUT_MIN} characters.
 */
function outputShare(blocks: Block[]): number {
  const outputs = blocks.filter((b) => b.kind === 'output').length;
  if (outputs === 0) return MESSAGE_CHARS;
  const rest = blocks.filter((b) => b.kind !== 'output' && b.kind !== 'actions').flatMap((b) => parts(b as Exclude<Block, { kind: 'actions' }>, MESSAGE_CHARS));
  const used = rest.reduce((n, p) => n + p.text.length + 1, 0);
  const share = Math.floor((MESSAGE_CHARS - used - outputs) / outputs);
  return share >= OUTPUT_MIN ? share : MESSAGE_CHARS;
}

/** Discord's renderer. */
export const discordRenderer: ViewRenderer<Outgoing> = {
  render(view) {
    const share = outputShare(view.blocks);
    const messages: Outgoing[] = [];
    const rows: APIButtonComponent[][] = [];
    const batched = new Set<Outgoing>();
    const add = (part: Part) => {
      const last = messages.at(-1);
      const files = last?.files?.length ?? 0;
      const joined = last && (last.content ? (part.text ? `${last.content}\n${part.text}` : last.content) : part.text);
      // a batch of files is one request within Discord's sizes (file-batches.ts): it shares its message with no other file
      const filesFit = part.files.length === 0 || (part.batch ? files === 0 : !(last && batched.has(last)) && files + part.files.length <= 10);
      if (last && joined !== undefined && joined.length <= MESSAGE_CHARS && filesFit) {
        last.content = joined;
        if (part.files.length) last.files = [...(last.files ?? []), ...part.files];
        if (part.batch) batched.add(last);
      } else {
        messages.push({ content: part.text, ...(part.files.length ? { files: part.files } : {}) });
        if (part.batch) batched.add(messages.at(-1)!);
      }
    };
    for (const b of view.blocks) {
      if (b.kind === 'actions') {
        for (let i = 0; i < b.actions.length; i += ROW_BUTTONS) rows.push(b.actions.slice(i, i + ROW_BUTTONS).map(button));
        continue;
      }
      for (const part of parts(b, share)) if (part.text || part.files.length) add(part);
    }
    if (messages.length === 0) messages.push({ content: rows.length ? '\u200b' : '_(empty)_' });
    if (rows.length) messages.at(-1)!.components = rows.slice(0, ROWS).map((components) => ({ type: ComponentType.ActionRow, components }));
    return messages;
  },
};

/** The messages of a run's thread on Discord (src/chat/view/thread-markup.ts): an edit cannot add files. */
export const discordThreadMarkup: ThreadMarkup<Outgoing> = threadMarkup({ renderer: discordRenderer, hasFiles: (msg) => (msg.files?.length ?? 0) > 0 });

/**
 * Characters in a thread name.
 * Source: https://discord.com/developers/docs/resources/channel#start-thread-from-message
 */
export const THREAD_NAME_CHARS = 100;

/** The thread's name: the requirement, at most {@link THREAD_NAME_CHARS} characters. */
export function threadName(requirement: string): string {
  return threadTitle(requirement, THREAD_NAME_CHARS);
}

/** A run's root message (its header in the channel, or a schedule's tick's). */
export function rootMessage(spec: RootSpec): Outgoing {
  return discordRenderer.render(rootView(spec))[0]!;
}

/** The answer to a Re-run or an Improve. */
export function againMessage(spec: AgainSpec): Outgoing {
  return discordRenderer.render(againView(spec))[0]!;
}
