/**
 * Discord's side of the incoming port (src/chat/incoming-port.ts): who may ask where (allowed
 * guilds, channels, roles and users from the `discord` config; an empty list does not restrict),
 * how the commands are spelled, the answers' markup (answers.ts), and a delivery — a slash command,
 * a button, a modal submit, a message in a run's thread (handlers.ts) — as a neutral request, its
 * text as plain text.
 */
import { accessRefusal } from '../../src/chat/access.js';
import { ChannelType, cleanContent, type APIInteractionGuildMember, type Channel, type GuildMember, type TextBasedChannel } from 'discord.js';
import type { IncomingFile, IncomingPort, IncomingRequest, RequestKind } from '../../src/chat/incoming-port.js';
import { commandNames } from '../../src/chat/command-catalog.js';
import { straightenQuotesInCode } from '../../src/chat/smart-quotes.js';
import { discordAnswers, type DiscordAnswer } from './answers.js';

/** The access lists (ids as strings). */
export interface AccessLists {
  guilds: string[];
  channels: string[];
  roles: string[];
  users: string[];
}

/**
 * Discord's own part of a request: where it was made (the guild, the parent channel of a thread,
 * whether a thread can be started there), and the interaction's token, by which a job edits the
 * deferred response and sends follow-ups while it lives (15 minutes:
 * https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages).
 */
export type DiscordOrigin = {
  guildId: string | null;
  parentId: string | null;
  /** A thread can be started from a message here (a guild text or announcement channel). */
  canThread: boolean;
  applicationId: string | null;
  /** The interaction token (a credential valid 15 minutes; kept in Redis only with the job); null for a message. */
  token: string | null;
};

/** Whether a thread can be started from a message in `channel` (a guild text or announcement channel), when it is known. */
export function canThreadIn(channel: Channel | null | undefined): boolean {
  return channel?.type === ChannelType.GuildText || channel?.type === ChannelType.GuildAnnouncement;
}

/** Role ids of a member, whether discord.js cached it (GuildMember) or kept the raw API object. */
export function roleIdsOf(member: GuildMember | APIInteractionGuildMember | null | undefined): string[] {
  if (!member) return [];
  const roles = (member as { roles: unknown }).roles;
  if (Array.isArray(roles)) return roles.map(String);
  const cache = (roles as { cache?: Map<string, unknown> }).cache;
  return cache ? [...cache.keys()] : [];
}

/**
 * The conversation (history) of a channel: `discord:<guildId>:<channelId>`, or `discord:dm:<channelId>`
 * outside a guild. A thread belongs to its parent channel's conversation.
 */
export function conversationId(guildId: string | null | undefined, channelId: string, parentId?: string | null): string {
  return `discord:${guildId ?? 'dm'}:${parentId ?? channelId}`;
}

/** Where a request was made, as the access lists read it. */
export interface Place {
  guildId: string | null | undefined;
  channelId: string;
  /** Parent channel id when the channel is a thread. */
  parentId: string | null | undefined;
}

/** Access from the settings' lists (src/chat/access.ts). @returns undefined when allowed, else the reason to show the requester. */
export function checkAccess(lists: AccessLists, who: { userId: string; roleIds: string[] }, place: Place): string | undefined {
  return accessRefusal({
    places: [
      { key: 'discord.allowed_guilds', allowed: lists.guilds, ids: [place.guildId ?? null], place: place.guildId ? 'server' : 'direct message' },
      { key: 'discord.allowed_channels', allowed: lists.channels, ids: [place.channelId, place.parentId ?? null], place: 'channel' },
    ],
    people: { key: 'discord.allowed_users or discord.allowed_roles', allowed: [...lists.users, ...lists.roles], ids: [who.userId, ...who.roleIds] },
  });
}

/** {@link checkAccess} of a request. */
export function requestAccess(lists: AccessLists, request: IncomingRequest): string | undefined {
  const origin = request.origin as DiscordOrigin;
  return checkAccess(lists, { userId: request.who.userId, roleIds: request.who.roleIds ?? [] }, { guildId: origin.guildId, channelId: request.where.channel, parentId: origin.parentId });
}

/** Discord's incoming port. */
export function discordIncoming(settings: { access: AccessLists; historyLimit: number }): IncomingPort<DiscordAnswer> {
  return {
    platform: 'discord',
    names: commandNames('/'),
    access: (request) => requestAccess(settings.access, request),
    markup: discordAnswers,
    historyLimit: settings.historyLimit,
  };
}

/**
 * Discord text on the way in (a `/run` requirement, a thread reply, Improve feedback): mentions
 * (`<@id>`, `<@&id>`, `<#id>`) become readable names through discord.js's `cleanContent` where the
 * cache knows them (`channel`), plain words otherwise; typographic quotes inside code become
 * straight ones (src/chat/smart-quotes.ts). Nothing in the result can ping.
 * Mention syntax: https://discord.com/developers/docs/reference#message-formatting
 */
export function fromDiscordText(text: string, channel?: TextBasedChannel | null): string {
  const named = channel ? cleanContent(text, channel) : text;
  return straightenQuotesInCode(named.replace(/<@!?\d{15,21}>/g, '@user').replace(/<@&\d{15,21}>/g, '@role').replace(/<#\d{15,21}>/g, '#channel'));
}

/** What a Discord delivery says, before it becomes a request. */
export interface DiscordDelivery {
  guildId: string | null;
  channelId: string;
  /** The channel's object, when discord.js has it (a thread's parent, whether threads can start there). */
  channel: Channel | null | undefined;
  /** The user, with their name when it is to be shown (e.g. "confirmed by …"; never used to ping). */
  user: { id: string; username?: string };
  member: GuildMember | APIInteractionGuildMember | null | undefined;
  /** Dedupe key: `discord:interaction:<id>` or `discord:message:<id>` (ids.ts). */
  deliveryId: string;
  /** The interaction's application and token (absent for a message). */
  token?: { applicationId: string; token: string };
}

/** A Discord delivery as a neutral request: `text` is plain (see {@link fromDiscordText}); `threadStart`: a message in a thread, what Discord says of the thread. */
export function discordRequest(
  kind: RequestKind,
  d: DiscordDelivery,
  text: string,
  more: { files?: IncomingFile[]; runId?: string; threadStart?: { byApp: boolean; at: number | undefined } } = {},
): IncomingRequest<DiscordOrigin> {
  const parentId = d.channel?.isThread() ? d.channel.parentId : null;
  return {
    platform: 'discord',
    kind,
    deliveryId: d.deliveryId,
    who: { userId: d.user.id, roleIds: roleIdsOf(d.member), ...(d.user.username ? { userName: d.user.username } : {}) },
    where: {
      conversation: conversationId(d.guildId, d.channelId, parentId),
      channel: d.channelId,
      ...(more.threadStart ? { thread: d.channelId, threadStart: more.threadStart } : {}),
    },
    text,
    files: more.files ?? [],
    ...(more.runId ? { runId: more.runId } : {}),
    receivedAt: Date.now(),
    origin: { guildId: d.guildId, parentId, canThread: canThreadIn(d.channel), applicationId: d.token?.applicationId ?? null, token: d.token?.token ?? null },
  };
}
