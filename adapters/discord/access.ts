/**
 * Who may use the bot where: allowed guilds, channels, roles and users from the `discord` config.
 * An empty list does not restrict. Checked before anything else, so a refusal costs no LLM call.
 */

/** The access lists (ids as strings). */
export interface AccessLists {
  guilds: string[];
  channels: string[];
  roles: string[];
  users: string[];
}

/** Who asks and where. */
export interface Requester {
  userId: string;
  /** Null in a DM. */
  guildId: string | null;
  /** The channel (or thread) where the request was made. */
  channelId: string;
  /** The parent channel when `channelId` is a thread. */
  parentId?: string | null;
  /** The member's role ids (empty in a DM). */
  roleIds: string[];
}

/** Why a request was refused, in words for the user (ephemeral). */
export type AccessRefusal = string;

/** @returns undefined when allowed, else the reason to show the requester. */
export function checkAccess(lists: AccessLists, who: Requester): AccessRefusal | undefined {
  if (lists.guilds.length > 0 && (!who.guildId || !lists.guilds.includes(who.guildId))) {
    return who.guildId ? 'This server is not allowed to use the bot.' : 'The bot cannot be used in direct messages here.';
  }
  if (lists.channels.length > 0) {
    const ids = [who.channelId, who.parentId].filter((x): x is string => Boolean(x));
    if (!ids.some((id) => lists.channels.includes(id))) return 'The bot is not enabled in this channel.';
  }
  if (lists.roles.length > 0 || lists.users.length > 0) {
    const byUser = lists.users.includes(who.userId);
    const byRole = who.roleIds.some((r) => lists.roles.includes(r));
    if (!byUser && !byRole) return 'You do not have a role that may run code here.';
  }
  return undefined;
}
