/**
 * What every renderer does the same way before its own markup: lines of inline pieces split and
 * flattened, a line fitted to a length measured *after* the renderer's escaping (the raw text is
 * cut, never the rendered markup), a button's label, a moment in UTC, the tail of code still being written, and the
 * words saying what was left out. Platform-neutral and pure.
 */
import { codeTail } from '../stream-edits.js';
import { cutChars } from '../../text/cut.js';
import { pieceText, type Action, type Block, type Inline, type Line, type ViewFile } from './blocks.js';

/** The same piece with other text (a time keeps its moment while its text is whole; cut, it is plain text). */
export function withText(piece: Inline, text: string): Inline {
  if (typeof piece === 'string') return text;
  if ('time' in piece) return text === piece.time ? piece : text;
  if ('strong' in piece) return { strong: text };
  if ('emphasis' in piece) return { emphasis: text };
  if ('code' in piece) return { code: text };
  if ('struck' in piece) return { struck: text };
  if ('link' in piece) return { link: text, url: piece.url };
  if ('person' in piece) return { person: text, ...(piece.id ? { id: piece.id } : {}) };
  return text;
}

/** A line's pieces split at each `'\n'` into lines (a piece that spans lines is split in two). */
export function splitLines(line: Line): Line[] {
  const out: Line[] = [[]];
  for (const piece of line) {
    const parts = pieceText(piece).split('\n');
    parts.forEach((part, i) => {
      if (i > 0) out.push([]);
      if (part !== '' || parts.length === 1) out.at(-1)!.push(withText(piece, part));
    });
  }
  return out;
}

/** A line as one line: every run of whitespace (newlines too) becomes one space. */
export function flatLine(line: Line): Line {
  return line.map((piece) => withText(piece, pieceText(piece).replace(/\s+/g, ' ')));
}

/**
 * A line rendered piece by piece within `max` characters of rendered text: when it does not fit,
 * the raw text of the piece that overflows is cut (whole code points) and ends with `…`, and the
 * pieces after it are left out. Never cuts rendered markup (no half entity, no open emphasis).
 * @param max characters of the rendered line, ≥ 0
 * @param render the platform's rendering of one piece (escaping included)
 */
export function fitLine(line: Line, max: number, render: (piece: Inline) => string): string {
  let out = '';
  for (const piece of line) {
    // two pieces' backticks never join into a fence
    const apart = (text: string) => (out.endsWith('`') && text.startsWith('`') ? `${ZWSP}${text}` : text);
    const shown = apart(render(piece));
    if (out.length + shown.length <= max) {
      out += shown;
      continue;
    }
    const raw = pieceText(piece);
    let lo = 0;
    let hi = raw.length;
    let best = '';
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const cut = apart(render(withText(piece, `${cutChars(raw, mid)}…`)));
      if (out.length + cut.length <= max) {
        best = cut;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return out + (best || (out.length + 1 <= max ? '…' : ''));
  }
  return out;
}

/** What a button says: the action's label on one line (its id when the label is blank), at most `max` characters (a platform's limit). */
export function actionLabel(action: Action, max: number): string {
  return cutChars(action.label.replace(/\s+/g, ' ').trim() || action.id, max);
}

/** A moment (ms since the epoch) as `YYYY-MM-DD HH:MM UTC`: where a platform cannot show it in the reader's time zone. */
export function utcMinute(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A zero-width space: keeps two runs of backticks apart without changing what people read. */
const ZWSP = '\u200b';

/** Most lines of code shown while it is being written. */
export const TAIL_LINES = 30;

/**
 * The end of code still being written: its last lines (at most {@link TAIL_LINES}) within
 * `maxChars` characters, and the words saying how many earlier lines are not shown ('' when none).
 */
export function codeTailShown(code: string, maxChars: number): { text: string; note: string } {
  const lines = code.split('\n');
  const recent = lines.slice(-TAIL_LINES).join('\n');
  const tail = codeTail(recent, maxChars);
  const omitted = lines.length - tail.text.split('\n').length;
  return { text: tail.text, note: omitted > 0 ? ` (${omitted} earlier lines not shown)` : '' };
}

/**
 * What a code block's label says when the code went into a file instead, e.g. ` · 120 lines,
 * attached as a file` after a label (`afterLabel`, default true), `120 lines, attached as a file` alone.
 */
export function attachedNote(code: string, afterLabel = true): string {
  const n = code.split('\n').length;
  return `${afterLabel ? ' · ' : ''}${n} line${n === 1 ? '' : 's'}, attached as a file`;
}

/**
 * The file a cut code or output block goes into whole: the block's `file` (default `code.txt`, or
 * `<stream>.txt`) holding the whole text (an output's `whole` when it is itself a cut copy).
 */
export function wholeFile(b: Extract<Block, { kind: 'code' | 'output' }>): ViewFile {
  if (b.kind === 'code') return { name: b.file ?? 'code.txt', data: Buffer.from(b.code) };
  return { name: b.file ?? `${b.stream}.txt`, data: b.whole ?? Buffer.from(b.text) };
}

/** The length in bytes of a file's data (0 for a host path, whose size the view says in `bytes`). */
export function dataBytes(data: Buffer | string): number {
  return typeof data === 'string' ? 0 : data.length;
}
