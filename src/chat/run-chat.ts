/**
 * Where a run lives in chat, read the same way for every run: the typed {@link RunChat} a run
 * stores, or, for a run stored before it existed, the same read from its untyped `meta` strings
 * (Slack: `channel`, `threadTs`, `userName`; Discord: `channelId`, `threadId`, `headerChannelId`,
 * `headerMessageId`; both: `kind`), so that older histories still render.
 */
import type { Run, RunChat } from '../history/types.js';
import type { IncomingRequest } from './incoming-port.js';

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

/**
 * Where a new run of `request` lives in chat: its channel (and `thread` once known), what started
 * it (`generate`, a schedule's tick `scheduled`, else `run`), and who asked by the name the platform gave.
 */
export function newRunChat(request: IncomingRequest, thread?: string): RunChat {
  const userName = request.who.userName ? { userName: request.who.userName } : {};
  return { thread: { channel: request.where.channel, ...(thread ? { thread } : {}) }, kind: request.kind === 'generate' ? 'generate' : request.scheduled ? 'scheduled' : 'run', ...userName };
}
