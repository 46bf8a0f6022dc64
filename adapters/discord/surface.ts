/**
 * Where a job's messages go, with fallbacks so that a REST error never escapes and a job always
 * gets its final message out:
 * - {@link ChannelSurface}: the bot's own messages in a thread or channel (no time limit); if that
 *   fails, the interaction's follow-ups while its token is valid.
 * - {@link Header}: the interaction's first message, edited through the interaction token while it
 *   is valid, then through the channel as the bot's own message. When Discord refuses the token
 *   itself (404: the interaction or its webhook is unknown), the header becomes a new bot message
 *   in the channel, so that the run's thread can still be started from it.
 * Every message is sent with `allowed_mentions: { parse: [] }`: output never pings anyone.
 */
import type { ChatInputCommandInteraction, Client, Message, BaseMessageOptions, SendableChannels } from 'discord.js';
import { Routes } from 'discord.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { discordRenderer, type Outgoing } from './renderer.js';
import { cutChars } from '../../src/text/cut.js';
import { uploadNoticeView } from '../../src/chat/view/upload-notice.js';
import { errorLine } from '../../src/text/error-line.js';

/**
 * How long an interaction token may be used for follow-ups and edits of the original response, in ms.
 * Discord keeps it valid for 15 minutes; we stop one minute early.
 * Source: https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages
 */
export const INTERACTION_TOKEN_TTL_MS = 14 * 60_000;

/** No mention in our messages pings anyone (users, roles, @everyone, replied user). */
export const NO_MENTIONS = { parse: [] as [], repliedUser: false };

/** discord.js send/edit options for a message. */
export function toOptions(msg: Outgoing): BaseMessageOptions {
  return {
    content: msg.content,
    allowedMentions: NO_MENTIONS,
    ...(msg.files ? { files: msg.files.map((f) => ({ attachment: f.data, name: f.name })) } : {}),
    ...(msg.components ? { components: msg.components } : {}),
  };
}

/**
 * Without attachments, with the notice naming the files and why (src/chat/view/upload-notice.ts:
 * when an upload was refused, e.g. too large): the notice always fits (it is bounded to about 1,000
 * characters), the content is shortened for it (Discord: 2000 characters).
 */
export function withoutFiles(msg: Outgoing, reason: string): Outgoing {
  const files = (msg.files ?? []).map((f) => ({ name: f.name }));
  const note = `\n${discordRenderer.render(uploadNoticeView(files, reason))[0]!.content}`;
  // a cut inside a code block would unbalance its fence: keep only the first line when it does not fit
  const content = msg.content.length + note.length <= 2000 ? msg.content : cutChars(msg.content.split('\n')[0]!.replace(/`/g, "'"), 2000 - note.length);
  return { content: content + note, ...(msg.components ? { components: msg.components } : {}) };
}

/**
 * What a job does with an interaction's token: follow-ups and edits of the original response. A
 * gateway process passes the interaction itself; a queue worker, which has only the token, an
 * `InteractionWebhook` (see adapters/discord/worker-channels.ts).
 */
export interface InteractionReplies {
  followUp(options: BaseMessageOptions): Promise<Message>;
  editReply(options: BaseMessageOptions): Promise<Message>;
}

/** Posts and edits messages; never throws. */
export interface Surface {
  /** @returns the posted message, or undefined when every way of posting failed (logged). */
  post(msg: Outgoing): Promise<Message | undefined>;
  /** @returns false when the edit failed (logged). */
  edit(message: Message, msg: Outgoing): Promise<boolean>;
}

/** The bot's messages in a channel or thread, falling back to interaction follow-ups. */
export class ChannelSurface implements Surface {
  /**
   * @param channel where to post (a thread, or the channel for in-place replies); undefined when the
   *   bot cannot see it (e.g. an uncached DM): then only follow-ups are used
   * @param interaction for follow-ups while its token is valid
   * @param tokenSince `Date.now()` when the interaction arrived
   */
  constructor(
    private readonly channel: SendableChannels | undefined,
    private readonly logger: ChatLog,
    private readonly interaction?: InteractionReplies,
    private readonly tokenSince = Date.now(),
    private readonly tokenTtlMs = INTERACTION_TOKEN_TTL_MS,
  ) {}

  async post(msg: Outgoing): Promise<Message | undefined> {
    const sent = await this.tryPost(msg);
    if (sent.message || !msg.files?.length) return sent.message;
    return (await this.tryPost(withoutFiles(msg, sent.error))).message;
  }

  private async tryPost(msg: Outgoing): Promise<{ message?: Message; error: string }> {
    let error = 'no channel';
    if (this.channel) {
      try {
        return { message: await this.channel.send(toOptions(msg)), error: '' };
      } catch (err) {
        error = errorLine(err);
        this.logger.warn(`posting in channel ${this.channel.id} failed: ${error}`);
      }
    }
    if (this.interaction && Date.now() - this.tokenSince < this.tokenTtlMs) {
      try {
        return { message: await this.interaction.followUp(toOptions(msg)), error: '' };
      } catch (err) {
        error = errorLine(err);
        this.logger.warn(`follow-up failed: ${error}`);
      }
    }
    return { error };
  }

  async edit(message: Message, msg: Outgoing): Promise<boolean> {
    // plain REST (PATCH /channels/:id/messages/:id): works without the gateway's caches (queue workers)
    return editChannelMessage(message.client, message.channelId, message.id, msg, this.logger);
  }
}

/** The first message of a job: the interaction's (deferred) reply. */
export class Header {
  private message: Message | undefined;
  /** Discord answered 404 for the interaction's reply: the token is not tried again. */
  private refused = false;
  private channel: SendableChannels | undefined;

  constructor(
    private readonly client: Client,
    private readonly interaction: InteractionReplies,
    private readonly logger: ChatLog,
    private readonly tokenSince = Date.now(),
    private readonly tokenTtlMs = INTERACTION_TOKEN_TTL_MS,
  ) {}

  /** The header message once known (after the first successful {@link set}). */
  get posted(): Message | undefined {
    return this.message;
  }

  /** Where the header is posted as the bot's own message when Discord refuses the interaction's token. */
  fallBackTo(channel: SendableChannels | undefined): void {
    this.channel = channel;
  }

  /**
   * Replaces the header's content: through the interaction token while valid, else as the bot's own
   * message in the channel (a new one when the token was refused before any edit went through).
   * @returns the message, or undefined when it could not be edited (logged).
   */
  async set(msg: Outgoing): Promise<Message | undefined> {
    if (!this.refused && Date.now() - this.tokenSince < this.tokenTtlMs) {
      try {
        this.message = await this.interaction.editReply({ ...toOptions(msg), content: msg.content });
        return this.message;
      } catch (err) {
        this.logger.warn(`editing the interaction reply failed: ${errorLine(err)}`);
        this.refused = isNotFound(err);
      }
    }
    if (this.message) {
      const ok = await editChannelMessage(this.client, this.message.channelId, this.message.id, msg, this.logger);
      return ok ? this.message : undefined;
    }
    if (this.refused && this.channel) {
      try {
        this.message = await this.channel.send(toOptions(msg));
        return this.message;
      } catch (err) {
        this.logger.warn(`posting the header in channel ${this.channel.id} failed: ${errorLine(err)}`);
      }
    }
    return undefined;
  }
}

/**
 * Whether Discord answered 404 (e.g. Unknown Webhook 10015, Unknown Interaction 10062, Unknown
 * Message 10008): retrying the same call cannot succeed.
 * Source: https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
 */
export function isNotFound(err: unknown): boolean {
  return (err as { status?: number })?.status === 404;
}

/**
 * Edits one of the bot's messages through `PATCH /channels/:id/messages/:id` (no interaction token).
 * @returns false when Discord refused (logged).
 */
export async function editChannelMessage(
  client: Client,
  channelId: string,
  messageId: string,
  msg: Outgoing,
  logger: ChatLog,
): Promise<boolean> {
  try {
    await client.rest.patch(Routes.channelMessage(channelId, messageId), {
      body: { content: msg.content, allowed_mentions: { parse: [], replied_user: false }, ...(msg.components ? { components: msg.components } : {}) },
    });
    return true;
  } catch (err) {
    logger.warn(`editing message ${messageId} in ${channelId} failed: ${errorLine(err)}`);
    return false;
  }
}

/** Replies ephemerally (only the requester sees it) with an answer (answers.ts); never throws. */
export async function replyEphemeral(logger: ChatLog, interaction: { reply: ChatInputCommandInteraction['reply'] }, msg: Outgoing): Promise<void> {
  try {
    await interaction.reply({ ...toOptions(msg), flags: 'Ephemeral' });
  } catch (err) {
    logger.warn(`ephemeral reply failed: ${errorLine(err)}`);
  }
}
