/**
 * Discord's side of the incoming port (src/chat/incoming-port.ts): who may ask where (allowed
 * guilds, channels, roles and users from the `discord` config; an empty list does not restrict),
 * how the commands are spelled, the answers' markup (answers.ts), and Discord's traffic — slash
 * commands, buttons, modal submits, messages in a run's thread — as neutral requests.
 */
import { accessRefusal } from '../../src/chat/access.js';
import { ChannelType, type APIInteractionGuildMember, type Channel, type GuildMember } from 'discord.js';
import type { IncomingFile, IncomingPort, IncomingRequest, RequestKind } from '../../src/chat/incoming-port.js';
import { commandNames } from '../../src/chat/command-catalog.js';
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

/** Where a request was made. */
export interface Place {
  guildId: string | null;
  channelId: string;
  /** Parent channel id when the channel is a thread. */
  parentId: string | null;
  canThread: boolean;
}

/** Describes a channel by id and (when cached) its object. */
export function placeOf(guildId: string | null, channelId: string, channel: Channel | null | undefined): Place {
  const parentId = channel && channel.isThread() ? channel.parentId : null;
  const canThread = channel?.type === ChannelType.GuildText || channel?.type === ChannelType.GuildAnnouncement;
  return { guildId, channelId, parentId, canThread };
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

/** Access from the settings' lists (src/chat/access.ts). @returns undefined when allowed, else the reason to show the requester. */
export function checkAccess(lists: AccessLists, who: { userId: string; roleIds: string[] }, place: Omit<Place, 'canThread'>): string | undefined {
  return accessRefusal({
    places: [
      { key: 'discord.allowed_guilds', allowed: lists.guilds, ids: [place.guildId], place: place.guildId ? 'server' : 'direct message' },
      { key: 'discord.allowed_channels', allowed: lists.channels, ids: [place.channelId, place.parentId], place: 'channel' },
    ],
    people: { key: 'discord.allowed_users or discord.allowed_roles', allowed: [...lists.users, ...lists.roles], ids: [who.userId, ...who.roleIds] },
  });
}

/** Discord's incoming port. */
export function discordIncoming(settings: { access: AccessLists; historyLimit: number }): IncomingPort<DiscordAnswer> {
  return {
    platform: 'discord',
    names: commandNames('/'),
    access(request) {
      const origin = request.origin as DiscordOrigin;
      return checkAccess(settings.access, { userId: request.who.userId, roleIds: request.who.roleIds ?? [] }, { guildId: origin.guildId, channelId: request.where.channel, parentId: origin.parentId });
    },
    markup: discordAnswers,
    historyLimit: settings.historyLimit,
  };
}

/** What a Discord delivery says, before it becomes a request. */
export interface DiscordDelivery {
  place: Place;
  userId: string;
  /** The user's display name, when known (shown, e.g. "confirmed by …", never used to ping). */
  userName?: string;
  roleIds: string[];
  /** Plain text (incoming-text.ts). */
  text: string;
  /** Dedupe key: `discord:interaction:<id>` or `discord:message:<id>`. */
  deliveryId: string;
  files?: IncomingFile[];
  runId?: string;
  /** The interaction's application and token (absent for a message). */
  token?: { applicationId: string; token: string };
  /** A message in a thread: what Discord says of the thread. */
  threadStart?: { byApp: boolean; at: number | undefined };
}

/** A Discord delivery as a neutral request. */
export function discordRequest(kind: RequestKind, d: DiscordDelivery): IncomingRequest<DiscordOrigin> {
  const { place } = d;
  return {
    platform: 'discord',
    kind,
    deliveryId: d.deliveryId,
    who: { userId: d.userId, roleIds: d.roleIds, ...(d.userName ? { userName: d.userName } : {}) },
    where: {
      conversation: conversationId(place.guildId, place.channelId, place.parentId),
      channel: place.channelId,
      ...(d.threadStart ? { thread: place.channelId, threadStart: d.threadStart } : {}),
    },
    text: d.text,
    files: d.files ?? [],
    ...(d.runId ? { runId: d.runId } : {}),
    receivedAt: Date.now(),
    origin: { guildId: place.guildId, parentId: place.parentId, canThread: place.canThread, applicationId: d.token?.applicationId ?? null, token: d.token?.token ?? null },
  };
}
