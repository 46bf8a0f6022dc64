/**
 * Messages (`message.channels` / `message.groups` / `message.im` events): a reply in a run's thread
 * is an improve request with the reply's text as feedback; a message sent to the app directly (not
 * in a thread) starts a run (mentions.ts). Bolt acks events before listeners run.
 * https://docs.slack.dev/reference/events/message
 */
import type { App as BoltApp } from '@slack/bolt';
import { refusal } from './access.js';
import { conversationId, type SlackContext } from './context.js';
import type { SlackFile } from './inputs.js';
import { fromSlackText } from './incoming-text.js';
import { admitReply } from './enqueue.js';
import { startFromMessage } from './mentions.js';
import { linkedRunId } from '../../src/chat/thread-link.js';

/** The fields of a message event we read. */
interface MessageLike {
  subtype?: string;
  bot_id?: string;
  user?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  /** In a thread: who posted its parent message. */
  parent_user_id?: string;
  channel?: string;
  /** `im` for a direct message to the app. */
  channel_type?: string;
  files?: SlackFile[];
}

/** Subtypes that are a person's message (https://docs.slack.dev/reference/events/message#subtypes). */
const PERSON_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);

/** Registers the thread-reply listener. */
export function registerReplies(app: BoltApp, ctx: SlackContext): void {
  app.event('message', async ({ event, body, context }) => {
    const msg = event as MessageLike;
    if (!PERSON_SUBTYPES.has(msg.subtype) || msg.bot_id || !msg.user || !msg.channel) return;
    const team = (body as { team_id?: string }).team_id;
    const eventId = (body as { event_id?: string }).event_id;
    if (!msg.thread_ts || msg.thread_ts === msg.ts) {
      // not a reply: only a direct message to the app starts a run (in a channel, a mention does: mentions.ts)
      if (msg.channel_type === 'im') await startFromMessage(ctx, { team, eventId, channel: msg.channel, user: msg.user, text: msg.text ?? '', files: msg.files });
      return;
    }
    const { channel, user, thread_ts: threadTs } = msg;
    const conv = conversationId(team, channel);
    // only threads of our runs; cheap lookup before anything else (a thread the app made a moment ago
    // waits for its link: the run's job links it just after Slack shows it)
    const origin = { madeByApp: msg.parent_user_id !== undefined && msg.parent_user_id === context.botUserId, madeAt: Number(threadTs) * 1000 || undefined };
    const runId = await linkedRunId(ctx.core.store, conv, threadTs, origin);
    if (!runId) return;
    const request = { team, channel, threadTs, user, runId, text: fromSlackText(msg.text ?? ''), files: msg.files };
    const result = await admitReply(ctx, eventId, request, refusal(ctx.settings, channel, user));
    if (result.outcome !== 'duplicate' && result.text) await ctx.poster.ephemeral(channel, user, result.text, threadTs);
  });
}
