/**
 * Where a request was made, and access (allowed guilds, channels, roles, users): the first step of
 * admission (src/chat/admission.ts). Cheap; a refusal costs no LLM call.
 */
import { ChannelType, type Channel, type GuildMember, type APIInteractionGuildMember } from 'discord.js';
import { checkAccess, type Requester } from './access.js';
import type { BotContext } from './context.js';

/** Where a request was made. */
export interface Place {
  guildId: string | null;
  channelId: string;
  /** Parent channel id when the channel is a thread. */
  parentId: string | null;
  /** True when a thread can be started from a message here (guild text or announcement channel). */
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

/** @returns undefined when allowed, else the refusal to show. */
export function refusalFor(ctx: BotContext, userId: string, place: Place, roleIds: string[]): string | undefined {
  const who: Requester = { userId, guildId: place.guildId, channelId: place.channelId, parentId: place.parentId, roleIds };
  return checkAccess(ctx.settings.access, who);
}
