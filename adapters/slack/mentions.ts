/**
 * Runs started by a message instead of a slash command, so that files can come with the
 * requirement (slash commands carry no files): a message that mentions the app in a channel
 * (`app_mention`: https://docs.slack.dev/reference/events/app_mention), or a message sent to the
 * app directly (`message.im`). The text without the app's mention is the requirement; attached
 * files become input files. A mention inside a run's thread is a reply (replies.ts). A mention whose
 * text starts with the program command (`@code-agent /program revenue-by-region REGION=EU`) runs that
 * team program with the files attached (a slash command carries none).
 */
import type { App as BoltApp } from '@slack/bolt';
import type { SlackContext } from './context.js';
import { slackRequest, type SlackFile } from './incoming.js';
import { fromSlackText } from './incoming-text.js';
import { ephemeralRequester } from './requesters.js';

/** A message that starts a run. */
export interface StartingMessage {
  team: string | undefined;
  eventId: string | undefined;
  channel: string;
  user: string;
  /** Slack's text (mentions as `<@U…>`). */
  text: string;
  files: SlackFile[] | undefined;
  /** The DM pane's thread the message was sent in (the run lives there: assistant.ts). */
  thread?: string;
}

/** Leading mentions of the app (`<@UBOT>`, `<@UBOT|code-agent>`) are not part of the requirement. */
const LEADING_MENTIONS = /^(\s*<@[A-Z0-9]+(?:\|[^>]*)?>[\s,:]*)+/;

/** Hands the run a message asks for to the pipeline; the user is answered ephemerally (usage, refusal, busy, queued). */
export async function startFromMessage(ctx: SlackContext, msg: StartingMessage): Promise<void> {
  const text = fromSlackText(msg.text.replace(LEADING_MENTIONS, '')).trim();
  const command = ctx.settings.commands.program;
  const program = text === command || text.startsWith(`${command} `);
  const request = slackRequest(program ? 'program' : 'run', {
    team: msg.team,
    channel: msg.channel,
    user: msg.user,
    text: program ? text.slice(command.length).trim() : text,
    deliveryId: msg.eventId ? `slack:event:${msg.eventId}` : undefined,
    files: msg.files,
    ...(msg.thread ? { thread: { ts: msg.thread, byApp: false } } : {}),
  });
  await ctx.ingress.receive(request, ephemeralRequester(ctx.poster, msg.channel, msg.user, msg.thread));
}

/** Registers the `app_mention` listener. */
export function registerMentions(app: BoltApp, ctx: SlackContext): void {
  app.event('app_mention', async ({ event, body }) => {
    const e = event as { user?: string; text?: string; ts?: string; thread_ts?: string; channel?: string; bot_id?: string; files?: SlackFile[] };
    if (!e.user || !e.channel || e.bot_id) return;
    if (e.thread_ts && e.thread_ts !== e.ts) return; // in a thread: a reply, when the thread is a run's
    await startFromMessage(ctx, {
      team: (body as { team_id?: string }).team_id,
      eventId: (body as { event_id?: string }).event_id,
      channel: e.channel,
      user: e.user,
      text: e.text ?? '',
      files: e.files,
    });
  });
}
