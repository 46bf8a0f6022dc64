/**
 * Discord text on the way in (a `/run` requirement, a thread reply, Improve feedback): mentions
 * (`<@id>`, `<@&id>`, `<#id>`) become readable names through discord.js's `cleanContent` where the
 * cache knows them, plain words otherwise; typographic quotes inside code become straight ones
 * (src/chat/smart-quotes.ts). Nothing in the result can ping (and every message we send carries
 * `allowed_mentions: { parse: [] }` besides).
 * Mention syntax: https://discord.com/developers/docs/reference#message-formatting
 */
import { cleanContent, type TextBasedChannel } from 'discord.js';
import { straightenQuotesInCode } from '../../src/chat/smart-quotes.js';

/** Text as the user meant it, for the agent. `channel` resolves names (optional). */
export function fromDiscordText(text: string, channel?: TextBasedChannel | null): string {
  const named = channel ? cleanContent(text, channel) : text;
  const plain = named
    .replace(/<@!?\d{15,21}>/g, '@user')
    .replace(/<@&\d{15,21}>/g, '@role')
    .replace(/<#\d{15,21}>/g, '#channel');
  return straightenQuotesInCode(plain);
}
