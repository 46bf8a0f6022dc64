/**
 * Slack's text on the way in. Slack escapes `&`, `<` and `>` as `&amp;`, `&lt;`, `&gt;` in
 * slash-command text and messages, and writes mentions, channels and links as `<…>` sequences
 * (https://docs.slack.dev/messaging/formatting-message-text#escaping, #linking-channels,
 * #mentioning-users). The agent gets plain text: sequences become readable names or plain text
 * (no `<@U…>` is ever sent back out, so nothing pings), and exactly those three entities are
 * unescaped, `&amp;` last (so `&amp;lt;` stays the text `&lt;`).
 */
import { straightenQuotesInCode } from '../../src/chat/smart-quotes.js';

/** `<@U123|name>` / `<#C1|general>` / `<!here>` / `<https://x|label>` → plain text. */
function plainSequence(body: string): string {
  const [target = '', label] = splitLabel(body);
  if (target.startsWith('@')) return `@${label ?? target.slice(1)}`;
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  if (target.startsWith('!subteam^')) return label ?? '@group';
  if (target.startsWith('!date^')) return label ?? '';
  if (target.startsWith('!')) return `@${target.slice(1)}`;
  if (target.startsWith('mailto:')) return label ?? target.slice('mailto:'.length);
  return label && label !== target ? `${label} (${target})` : target;
}

function splitLabel(body: string): [string, string | undefined] {
  const bar = body.indexOf('|');
  return bar < 0 ? [body, undefined] : [body.slice(0, bar), body.slice(bar + 1)];
}

/**
 * Slack message or command text → the plain text the user typed (see the module doc); typographic
 * quotes inside code become straight ones (src/chat/smart-quotes.ts).
 */
export function fromSlackText(text: string): string {
  const plain = text
    .replace(/<([^<>]*)>/g, (_m, body: string) => plainSequence(body))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return straightenQuotesInCode(plain);
}
