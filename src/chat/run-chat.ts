/**
 * Where a run lives in chat, read the same way for every run: the typed {@link RunChat} a run
 * stores, or, for a run stored before it existed, the same read from its untyped `meta` strings
 * (Slack: `channel`, `threadTs`, `userName`; Discord: `channelId`, `threadId`, `headerChannelId`,
 * `headerMessageId`; both: `kind`), so that older histories still render.
 */
import type { Run, RunChat } from '../history/types.js';

/** The run's place in chat; undefined for a run that has none (the terminal's). */
export function chatOf(run: Pick<Run, 'chat' | 'meta'>): RunChat | undefined {
  if (run.chat) return run.chat;
  const m = run.meta;
  if (!m) return undefined;
  const kind = m.kind === 'generate' ? 'generate' : 'run';
  const userName = m.userName ? { userName: m.userName } : {};
  const header = m.headerChannelId && m.headerMessageId ? { header: { channel: m.headerChannelId, message: m.headerMessageId } } : {};
  if (m.channel && m.threadTs) return { thread: { channel: m.channel, thread: m.threadTs }, kind, ...userName, ...header };
  if (m.threadId) return { thread: { channel: m.threadId }, kind, ...userName, ...header };
  if (m.channelId) return { thread: { channel: m.channelId }, inPlace: true, kind, ...userName, ...header };
  return undefined;
}
