/**
 * Which conversation may use a tool or a source (`conversations:` in config): `all`, or a list of
 * conversation ids. An entry names a conversation by its whole id (`slack:T01:C0123`,
 * `discord:123:456`, `matrix:!abc:example.org`) or by its channel id alone (`C0123`, `456`,
 * `!abc:example.org`). The terminal (`cli:…`), the operator's own, may always use every configured
 * tool; without `conversations:` it is the only one.
 */

/** The Matrix conversation id prefix: `matrix:<room id>`, and a room id itself holds a `:` (`!abc:example.org`). */
const MATRIX_PREFIX = 'matrix:';

/**
 * The channel part of a conversation id: a Matrix room id whole (never its server name, which
 * every room on that server shares), else the last `:`-separated part (`slack:T01:C0123` → `C0123`).
 */
export function channelOf(conversationId: string): string {
  if (conversationId.startsWith(MATRIX_PREFIX)) return conversationId.slice(MATRIX_PREFIX.length);
  return conversationId.split(':').at(-1) ?? conversationId;
}

/** The conversation id prefix of the terminal (adapters/cli). */
export const TERMINAL_PREFIX = 'cli:';

/** True when `list` (unset, `all`, or ids) lets `conversationId` use the tool. */
export function conversationAllowed(list: 'all' | readonly string[] | undefined, conversationId: string): boolean {
  if (conversationId.startsWith(TERMINAL_PREFIX) || list === 'all') return true;
  if (list === undefined) return false;
  const channel = channelOf(conversationId);
  return list.some((entry) => entry === conversationId || entry === channel);
}

/** How a `conversations:` setting reads in `doctor`: `all conversations`, `the terminal only`, or the ids. */
export function describeConversations(list: 'all' | readonly string[] | undefined): string {
  if (list === 'all') return 'all conversations';
  if (list === undefined || list.length === 0) return 'the terminal only';
  return `the terminal and ${list.join(', ')}`;
}
