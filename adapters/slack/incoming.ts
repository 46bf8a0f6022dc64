/**
 * Slack's side of the incoming port (src/chat/incoming-port.ts): who may ask where
 * (`slack.allowed_channels`, `slack.allowed_users`; empty = all), how the commands are spelled
 * (`slack.commands`), the answers' markup (requesters.ts), and Slack's traffic — slash commands,
 * mentions, direct messages, thread replies, buttons, the Improve modal — as neutral requests,
 * handed to the pipeline's entry (src/chat/ingress.ts: admission, the queue in memory or in Redis —
 * the handlers do not know which) by {@link receive}.
 *
 * Slack's text on the way in ({@link fromSlackText}). Slack escapes `&`, `<` and `>` as `&amp;`, `&lt;`, `&gt;` in
 * slash-command text and messages, and writes mentions, channels and links as `<…>` sequences
 * (https://docs.slack.dev/messaging/formatting-message-text#escaping, #linking-channels,
 * #mentioning-users). The agent gets plain text: sequences become readable names or plain text
 * (no `<@U…>` is ever sent back out, so nothing pings), and exactly those three entities are
 * unescaped, `&amp;` last (so `&amp;lt;` stays the text `&lt;`).
 */
import { accessRefusal } from '../../src/chat/access.js';
import { straightenQuotesInCode } from '../../src/chat/smart-quotes.js';
import type { ChatIngress, IncomingFile, IncomingPort, IncomingRequest, ReceiveOutcome, Requester, RequestKind } from '../../src/chat/incoming-port.js';
import type { App } from '../../src/app/app.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import type { SlackSettings } from './settings.js';
import type { SlackPoster } from './poster.js';
import { ephemeralRequester, slackAnswers } from './requesters.js';

/** What every Slack handler shares: the wired core (`/usage`, the DM pane's prompts), the settings, the poster, the log, the pipeline's entry. */
export interface SlackContext {
  app: App;
  settings: SlackSettings;
  poster: SlackPoster;
  log: ChatLog;
  ingress: ChatIngress<string>;
}

/** Slack's own part of a request: its workspace, and the slash command's `response_url` (answers only the requester sees, valid 30 min). */
export type SlackOrigin = { team: string | null; responseUrl: string | null };

/** The part of a Slack file object we read (https://docs.slack.dev/reference/objects/file-object). */
export interface SlackFile {
  id?: string;
  name?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
}

/** The conversation id of a Slack channel: `slack:<team>:<channel>`. */
export function conversationId(team: string | undefined, channel: string): string {
  return `slack:${team ?? 'T'}:${channel}`;
}

/**
 * Access (step 1 of admission), from the settings' lists (src/chat/access.ts).
 * @returns undefined when allowed, else the refusal shown (ephemerally) to the user.
 */
export function refusal(settings: Pick<SlackSettings, 'allowedChannels' | 'allowedUsers'>, channel: string, user: string): string | undefined {
  return accessRefusal({
    places: [{ key: 'slack.allowed_channels', allowed: settings.allowedChannels, ids: [channel], place: 'channel' }],
    people: { key: 'slack.allowed_users', allowed: settings.allowedUsers, ids: [user] },
  });
}

/** Slack's incoming port. */
export function slackIncoming(settings: SlackSettings): IncomingPort<string> {
  return {
    platform: 'slack',
    names: settings.commands,
    access: (request) => refusal(settings, request.where.channel, request.who.userId),
    markup: slackAnswers,
    threadNamed,
    historyLimit: settings.historyLimit,
  };
}

/** A thread named in `/show`'s text: a message permalink (`…/p1700000000000100`) or a ts (`1700000000.000100`). */
export function threadNamed(arg: string): string | undefined {
  const permalink = /\/p(\d{10})(\d{6})/.exec(arg);
  if (permalink) return `${permalink[1]}.${permalink[2]}`;
  return /^\d{10}\.\d{6}$/.test(arg) ? arg : undefined;
}

/** What a Slack delivery says, before it becomes a request. */
export interface SlackDelivery {
  team: string | undefined;
  channel: string;
  user: string;
  userName?: string;
  /** Plain text ({@link fromSlackText}). */
  text: string;
  /** Dedupe key, e.g. `slack:command:<trigger_id>`, `slack:event:<event_id>`. */
  deliveryId: string | undefined;
  /** The thread it was made in (its parent's ts), with what Slack says of that parent. */
  thread?: { ts: string; byApp: boolean };
  files?: SlackFile[];
  runId?: string;
  responseUrl?: string;
}

/** A Slack delivery as a neutral request. */
export function slackRequest(kind: RequestKind, d: SlackDelivery): IncomingRequest<SlackOrigin> {
  return {
    platform: 'slack',
    kind,
    deliveryId: d.deliveryId,
    who: { userId: d.user, key: `slack:${d.team ?? 'T'}:${d.user}`, ...(d.userName ? { userName: d.userName } : {}) },
    where: {
      conversation: conversationId(d.team, d.channel),
      channel: d.channel,
      ...(d.thread ? { thread: d.thread.ts, threadStart: { byApp: d.thread.byApp, at: Number(d.thread.ts) * 1000 || undefined } } : {}),
    },
    text: d.text,
    // downloaded later with the bot token (outgoing.ts)
    files: (d.files ?? []).map((f, i): IncomingFile => ({ name: f.name || f.id || `file-${i + 1}`, url: f.url_private_download ?? f.url_private ?? '', ...(f.size !== undefined ? { bytes: f.size } : {}) })),
    ...(d.runId ? { runId: d.runId } : {}),
    receivedAt: Date.now(),
    origin: { team: d.team ?? null, responseUrl: d.responseUrl ?? null },
  };
}

/** Hands a delivery to the pipeline; the requester is answered by `requester`, by default with an ephemeral message where they were (in the thread). */
export function receive(ctx: SlackContext, kind: RequestKind, d: SlackDelivery, requester?: Requester<string>): Promise<ReceiveOutcome> {
  return ctx.ingress.receive(slackRequest(kind, d), requester ?? ephemeralRequester(ctx.poster, d.channel, d.user, d.thread?.ts));
}

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
