/**
 * The world of the fake Discord (test/fakes/discord-server.ts): snowflakes, the bot user, guilds,
 * channels (text, forum, threads), roles, members and messages, as Discord's JSON objects.
 * Shapes follow https://discord.com/developers/docs/resources/ (channel, message, guild).
 */

const DISCORD_EPOCH = 1420070400000n;
let increment = 0n;

/** A new, increasing snowflake id (timestamp in the high bits, as discord.js expects). */
export function snowflake(): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}

/** A Discord user object. */
export interface FakeUser {
  id: string;
  username: string;
  bot?: boolean;
}

/** Channel types used here. Source: https://discord.com/developers/docs/resources/channel#channel-object-channel-types */
export const CHANNEL = { text: 0, dm: 1, forum: 15, publicThread: 11 } as const;

/** A channel object (only the fields we use are typed). */
export interface FakeChannel {
  id: string;
  type: number;
  guild_id?: string;
  name?: string;
  parent_id?: string | null;
  [key: string]: unknown;
}

/** A stored message: Discord's JSON plus the uploaded files' bytes. */
export interface FakeMessage {
  id: string;
  channel_id: string;
  content: string;
  author: FakeUser;
  attachments: Array<{ id: string; filename: string; size: number; url: string; content_type?: string }>;
  components: unknown[];
  /** Bytes of each uploaded file, by filename. */
  files: Map<string, Buffer>;
  allowed_mentions?: unknown;
  /** Message edits applied after creation. */
  edits: number;
  [key: string]: unknown;
}

/** Everything the fake knows. */
export class FakeWorld {
  readonly bot: FakeUser = { id: snowflake(), username: 'code-agent', bot: true };
  readonly applicationId = snowflake();
  readonly guildId = snowflake();
  readonly channels = new Map<string, FakeChannel>();
  readonly messages = new Map<string, FakeMessage>();
  readonly roles: Array<{ id: string; name: string }> = [];
  readonly members = new Map<string, { user: FakeUser; roles: string[] }>();

  constructor() {
    this.roles.push({ id: this.guildId, name: '@everyone' });
  }

  addRole(name: string): string {
    const id = snowflake();
    this.roles.push({ id, name });
    return id;
  }

  addMember(username: string, roles: string[] = []): FakeUser {
    const user = { id: snowflake(), username };
    this.members.set(user.id, { user, roles });
    return user;
  }

  addChannel(name: string, type: number = CHANNEL.text, extra: Partial<FakeChannel> = {}): FakeChannel {
    const channel: FakeChannel = {
      id: snowflake(),
      type,
      guild_id: this.guildId,
      name,
      position: this.channels.size,
      permission_overwrites: [],
      parent_id: null,
      nsfw: false,
      ...extra,
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  addThread(parentId: string, name: string, ownerId = this.bot.id, id = snowflake()): FakeChannel {
    const thread: FakeChannel = {
      id,
      type: CHANNEL.publicThread,
      guild_id: this.guildId,
      parent_id: parentId,
      name,
      owner_id: ownerId,
      member_count: 1,
      message_count: 0,
      thread_metadata: {
        archived: false,
        auto_archive_duration: 1440,
        archive_timestamp: new Date().toISOString(),
        locked: false,
      },
    };
    this.channels.set(thread.id, thread);
    return thread;
  }

  /** Creates a message (as Discord stores it). */
  addMessage(channelId: string, author: FakeUser, body: Record<string, unknown>, files: Map<string, Buffer>, baseUrl: string, id = snowflake()): FakeMessage {
    const attachments = [...files.entries()].map(([filename, data]) => ({
      id: snowflake(),
      filename,
      size: data.length,
      url: `${baseUrl}/attachments/${id}/${encodeURIComponent(filename)}`,
      proxy_url: `${baseUrl}/attachments/${id}/${encodeURIComponent(filename)}`,
    }));
    const message: FakeMessage = {
      id,
      channel_id: channelId,
      ...(this.channels.get(channelId)?.guild_id ? { guild_id: this.guildId } : {}),
      author,
      content: typeof body.content === 'string' ? body.content : '',
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      embeds: [],
      pinned: false,
      type: 0,
      flags: typeof body.flags === 'number' ? body.flags : 0,
      components: Array.isArray(body.components) ? body.components : [],
      allowed_mentions: body.allowed_mentions,
      attachments,
      files,
      edits: 0,
    };
    this.messages.set(id, message);
    return message;
  }

  /** A message as JSON for the API (without the fake's bookkeeping). */
  json(message: FakeMessage): Record<string, unknown> {
    const { files: _files, edits: _edits, allowed_mentions: _am, ...rest } = message;
    return rest;
  }

  /** A member object as the gateway sends it. */
  memberJson(userId: string): Record<string, unknown> {
    const m = this.members.get(userId);
    return {
      user: m?.user ?? { id: userId, username: 'someone' },
      roles: m?.roles ?? [],
      joined_at: new Date(0).toISOString(),
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      nick: null,
      avatar: null,
      premium_since: null,
      communication_disabled_until: null,
      permissions: '2248473465835073',
    };
  }

  /** GUILD_CREATE's payload: channels, active threads, roles and members. */
  guildJson(): Record<string, unknown> {
    const all = [...this.channels.values()].filter((c) => c.guild_id === this.guildId);
    return {
      id: this.guildId,
      name: 'Fake guild',
      icon: null,
      owner_id: this.bot.id,
      unavailable: false,
      large: false,
      member_count: this.members.size + 1,
      joined_at: new Date(0).toISOString(),
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      mfa_level: 0,
      nsfw_level: 0,
      premium_tier: 0,
      system_channel_flags: 0,
      preferred_locale: 'en-US',
      features: [],
      emojis: [],
      stickers: [],
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      roles: this.roles.map((r, i) => ({
        id: r.id,
        name: r.name,
        color: 0,
        hoist: false,
        position: i,
        permissions: '2248473465835073',
        managed: false,
        mentionable: false,
        flags: 0,
      })),
      channels: all.filter((c) => c.type !== CHANNEL.publicThread),
      threads: all.filter((c) => c.type === CHANNEL.publicThread),
      members: [this.memberJson(this.bot.id), ...[...this.members.keys()].map((id) => this.memberJson(id))],
    };
  }
}
