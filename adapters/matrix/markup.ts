/**
 * Matrix's message pieces (renderer.ts renders views with them): an `m.room.message` with a plain `body` (Markdown-like,
 * for clients without HTML) and a `formatted_body` in the HTML subset of the spec
 * (https://spec.matrix.org/v1.11/client-server-api/#mroommessage-msgtypes: `pre`, `code` with a
 * `language-*` class, `strong`, `br`, `blockquote`). Program output is untrusted: it is escaped,
 * stays inside code blocks, and is capped. Pure functions; nothing here talks to Matrix.
 */
import { capText, neutraliseFences } from '../../src/chat/format.js';
import type { ViewFile } from '../../src/chat/view/blocks.js';

/**
 * Bytes of one message's `body` and `formatted_body` as JSON, at most. The spec caps a whole event at
 * 65,536 bytes (https://spec.matrix.org/v1.11/client-server-api/#size-limits) and an edit carries the
 * content twice (`m.new_content` and its fallback), so each copy gets well under half of that.
 */
export const CONTENT_BYTES = 24_000;
/** The keys of a final message's content naming its run and the reactions it offers (key → choice id, src/chat/choice-keys.ts). */
export const RUN_KEY = 'org.code-agent.run_id';
export const CHOICES_KEY = 'org.code-agent.choices';

/** Text in both forms: plain (`body`) and Matrix HTML (`formatted_body`). */
export interface Rich {
  body: string;
  html: string;
  /** A block element (`pre`): no line break is added around it. */
  block?: boolean;
}

/** One message: its text, the files posted after it, more keys of its event's content, and the reactions the bot adds. */
export interface MatrixMessage extends Rich {
  files?: ViewFile[];
  content?: Record<string, unknown>;
  reactions?: string[];
}

const ZWSP = '\u200b';
/** Plain text as shown: `@room` broken (no room ping even in old clients). */
export const plain = (text: string) => text.replace(/@room\b/gi, (m) => `@${ZWSP}${m.slice(1)}`);
/** HTML-escaped plain text. */
export const esc = (text: string) => plain(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Untrusted text as a code block, capped at `maxChars` characters and `maxLines` lines (a marker says so), and whether it was cut. */
export function block(raw: string, maxChars: number, maxLines: number, language = ''): { shown: Rich; truncated: boolean } {
  const capped = capText(raw.replace(/\s+$/, ''), maxChars, maxLines);
  const text = capped.text || ' ';
  const cls = language ? ` class="language-${language}"` : '';
  return { shown: { body: `\`\`\`${language}\n${neutraliseFences(plain(text))}\n\`\`\``, html: `<pre><code${cls}>${esc(text)}</code></pre>`, block: true }, truncated: capped.truncated };
}

/** Pieces as lines of one message. */
export function lines(parts: Rich[], extra: Omit<MatrixMessage, keyof Rich> = {}): MatrixMessage {
  let html = '';
  parts.forEach((p, i) => (html += (i > 0 && !p.block && !parts[i - 1]!.block ? '<br>' : '') + p.html));
  return { body: parts.map((p) => p.body).join('\n'), html, ...extra };
}

/** Bytes of a message's text content as JSON. */
export const contentBytes = (m: Rich) => Buffer.byteLength(JSON.stringify({ body: m.body, formatted_body: m.html }));
