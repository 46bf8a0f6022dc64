/**
 * Our plain texts as views: a refusal, the queue position, a usage hint, a settle outcome, the
 * answer of `/show … remove`. These texts mark commands and ids with backticks (`` `/show <id>` ``);
 * the backticked spans become inline code and the rest stays plain, so that each platform shows
 * them as it shows every inline code. Nothing is escaped or cut here (the renderer does it once).
 */
import type { Block, Inline, Line, View } from './blocks.js';
import type { Notice } from '../verification.js';

/** A backticked span of one line: `` `…` `` with no backtick or line break inside. */
const CODE_SPAN = /`([^`\n]+)`/g;

/**
 * A plain text as a line: backticked spans become `{ code }` pieces, everything else plain strings
 * (line breaks kept as `'\n'` in them). Text without backticks is one plain piece.
 */
export function textLine(plain: string): Line {
  const out: Inline[] = [];
  let at = 0;
  for (const m of plain.matchAll(CODE_SPAN)) {
    if (m.index > at) out.push(plain.slice(at, m.index));
    out.push({ code: m[1]! });
    at = m.index + m[0].length;
  }
  if (at < plain.length || out.length === 0) out.push(plain.slice(at));
  return out;
}

/** A plain text (our words, maybe with the team's inline) as a view of one text block. */
export function textView(plain: string): View {
  return { blocks: [{ kind: 'text', text: textLine(plain) }] };
}

/**
 * A notice's blocks: its title (our words) as text, then its lines (the team's or a program's
 * text, untrusted) in one code block, inert. `keep`: how many of the lines to show (default all);
 * the others are counted in a last line `… and N more`.
 */
export function noticeBlocks(notice: Notice, keep = notice.lines.length): Block[] {
  const title: Block = { kind: 'text', text: textLine(notice.title) };
  if (notice.lines.length === 0) return [title];
  const shown = notice.lines.slice(0, Math.max(1, keep));
  const more = notice.lines.length - shown.length;
  const code = [...shown, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n');
  return [title, { kind: 'code', code, file: 'lines.txt' }];
}

/** A notice as a view (see {@link noticeBlocks}). */
export function noticeView(notice: Notice, keep?: number): View {
  return { blocks: noticeBlocks(notice, keep) };
}
