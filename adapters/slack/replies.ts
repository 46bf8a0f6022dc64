/**
 * Messages (`message.channels` / `message.groups` / `message.im` events): a reply in a run's thread
 * is a `reply` request (the pipeline finds the thread's run; other threads are not ours); a message
 * sent to the app directly (not in a thread) starts a run (mentions.ts). Bolt acks events before
 * listeners run. https://docs.slack.dev/reference/events/message
 */
import type { App as BoltApp } from '@slack/bolt';
import type { SlackContext } from './context.js';
import { slackRequest, type SlackFile } from './incoming.js';
import { fromSlackText } from './incoming-text.js';
import { startFromMessage } from './mentions.js';
import { ephemeralRequester } from './requesters.js';

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

/** Registers the message listener. */
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
    const request = slackRequest('reply', {
      team,
      channel: msg.channel,
      user: msg.user,
      text: fromSlackText(msg.text ?? ''),
      deliveryId: eventId ? `slack:event:${eventId}` : undefined,
      // a thread the app made a moment ago waits for its link: the run's job links it just after Slack shows it
      thread: { ts: msg.thread_ts, byApp: msg.parent_user_id !== undefined && msg.parent_user_id === context.botUserId },
      files: msg.files,
    });
    const received = await ctx.ingress.receive(request, ephemeralRequester(ctx.poster, msg.channel, msg.user, msg.thread_ts));
    // the app's DM pane (assistant.ts): a message in its thread that is no run's reply starts a run there
    if (received.outcome === 'ignored' && msg.channel_type === 'im') {
      await startFromMessage(ctx, { team, eventId, channel: msg.channel, user: msg.user, text: msg.text ?? '', files: msg.files, thread: msg.thread_ts });
    }
  });
}
