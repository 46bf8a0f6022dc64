/**
 * Slack's messages (https://docs.slack.dev/reference/events/message, `app_mention`): a reply in a
 * run's thread is a `reply` request (the pipeline finds the thread's run; other threads are not
 * ours). A message that mentions the app in a channel, or is sent to the app directly, starts a run,
 * so that files can come with the requirement (slash commands carry none): its text without the
 * app's mention is the requirement, its files input files; text starting with the program command
 * (`@code-agent /program revenue-by-region REGION=EU`) runs that team program with the files.
 *
 * The app's DM pane (Slack's agent view: https://docs.slack.dev/ai/developing-ai-apps): when a
 * person opens a conversation there (`assistant_thread_started`) or moves to another channel with it
 * open (`assistant_thread_context_changed`), the pane suggests prompts: the requests of the team
 * programs of the channel viewed, else {@link DEFAULT_PROMPTS}. A message in the pane's thread that
 * is no run's reply starts a run there, titled from its request (outgoing.ts). Needs the
 * `assistant:write` scope and the agent feature (manifest.yml); where Slack refuses, nothing is
 * suggested and runs work as in a DM. Bolt acks events before listeners run.
 */
import type { App as BoltApp } from '@slack/bolt';
import { cutChars, shortLine } from '../../src/text/cut.js';
import { conversationId, fromSlackText, receive, type SlackContext, type SlackFile } from './incoming.js';

/** Prompts of a pane with no team programs to suggest (Slack shows up to 4). */
export const DEFAULT_PROMPTS = [
  { title: 'Plot a function', message: 'plot sin(x) and cos(x) from 0 to 2π and attach the picture' },
  { title: 'Summarise a CSV', message: 'summarise the attached CSV: its rows, its columns and the sum of each numeric column' },
  { title: 'Compute an answer', message: 'list the prime numbers below 100 and print their sum' },
];

/** Slack's limit on suggested prompts (at most 4), and ours on a title's and a message's characters. */
const PROMPTS = { max: 4, title: 60, message: 1000 };

/** The fields of a message event (or an `app_mention`) we read. */
interface MessageLike {
  subtype?: string;
  bot_id?: string;
  user?: string;
  /** Slack's text (mentions as `<@U…>`). */
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

/** The envelope's ids (https://docs.slack.dev/apis/events-api/#callback-field). */
type Envelope = { team_id?: string; event_id?: string };

/** Subtypes that are a person's message (https://docs.slack.dev/reference/events/message#subtypes). */
const PERSON_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);

/** Leading mentions of the app (`<@UBOT>`, `<@UBOT|code-agent>`) are not part of the requirement. */
const LEADING_MENTIONS = /^(\s*<@[A-Z0-9]+(?:\|[^>]*)?>[\s,:]*)+/;

/** Starts the run a message asks for (`pane`: the DM pane's thread it was sent in, where the run lives). */
async function startFromMessage(ctx: SlackContext, body: Envelope, msg: MessageLike & { user: string; channel: string }, pane?: string): Promise<void> {
  const text = fromSlackText((msg.text ?? '').replace(LEADING_MENTIONS, '')).trim();
  const command = ctx.settings.commands.program;
  const program = text === command || text.startsWith(`${command} `);
  await receive(ctx, program ? 'program' : 'run', {
    team: body.team_id,
    channel: msg.channel,
    user: msg.user,
    text: program ? text.slice(command.length).trim() : text,
    deliveryId: body.event_id ? `slack:event:${body.event_id}` : undefined,
    files: msg.files,
    ...(pane ? { thread: { ts: pane, byApp: false } } : {}),
  });
}

/**
 * What the pane suggests: the requests of the viewed channel's team programs (newest versions), or
 * {@link DEFAULT_PROMPTS} when it has none or they cannot be read.
 */
export async function suggestedPrompts(ctx: Pick<SlackContext, 'app'>, team: string | undefined, viewed: string | undefined): Promise<{ title: string; message: string }[]> {
  const programs = viewed ? await ctx.app.store.programs?.list(conversationId(team, viewed)).catch(() => []) : [];
  if (!programs?.length) return DEFAULT_PROMPTS;
  return programs.slice(0, PROMPTS.max).map((p) => ({ title: shortLine(`Like ${p.name}`, PROMPTS.title), message: cutChars(p.versions.at(-1)?.request ?? p.name, PROMPTS.message) }));
}

/** Registers the message, mention and DM pane listeners. */
export function registerMessages(app: BoltApp, ctx: SlackContext): void {
  app.event('app_mention', async ({ event, body }) => {
    const e = event as MessageLike;
    // in a thread: a reply, when the thread is a run's
    if (e.user && e.channel && !e.bot_id && (!e.thread_ts || e.thread_ts === e.ts)) await startFromMessage(ctx, body as Envelope, { ...e, user: e.user, channel: e.channel });
  });
  app.event('message', async ({ event, body, context }) => {
    const msg = event as MessageLike;
    if (!PERSON_SUBTYPES.has(msg.subtype) || msg.bot_id || !msg.user || !msg.channel) return;
    const person = { ...msg, user: msg.user, channel: msg.channel };
    const direct = msg.channel_type === 'im';
    // not a reply: only a direct message to the app starts a run (in a channel, a mention does)
    if (!msg.thread_ts || msg.thread_ts === msg.ts) return direct ? startFromMessage(ctx, body as Envelope, person) : undefined;
    const { team_id: team, event_id: eventId } = body as Envelope;
    const received = await receive(ctx, 'reply', {
      team,
      channel: msg.channel,
      user: msg.user,
      text: fromSlackText(msg.text ?? ''),
      deliveryId: eventId ? `slack:event:${eventId}` : undefined,
      // a thread the app made a moment ago waits for its link: the run's job links it just after Slack shows it
      thread: { ts: msg.thread_ts, byApp: msg.parent_user_id !== undefined && msg.parent_user_id === context.botUserId },
      files: msg.files,
    });
    // the DM pane: a message in its thread that is no run's reply starts a run there
    if (received.outcome === 'ignored' && direct) await startFromMessage(ctx, body as Envelope, person, msg.thread_ts);
  });
  for (const name of ['assistant_thread_started', 'assistant_thread_context_changed'] as const) {
    app.event(name, async ({ event, body }) => {
      // https://docs.slack.dev/reference/events/assistant_thread_started
      const thread = (event as { assistant_thread?: { channel_id?: string; thread_ts?: string; context?: { channel_id?: string; team_id?: string } } }).assistant_thread;
      if (!thread?.channel_id || !thread.thread_ts) return;
      const prompts = await suggestedPrompts(ctx, thread.context?.team_id ?? (body as Envelope).team_id, thread.context?.channel_id);
      await ctx.poster.client.assistant.threads
        .setSuggestedPrompts({ channel_id: thread.channel_id, thread_ts: thread.thread_ts, title: 'Ask for code, or try one of these', prompts })
        .catch((err: unknown) => ctx.log.warn('slack: suggesting prompts failed:', (err as Error).message));
    });
  }
}
