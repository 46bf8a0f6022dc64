/**
 * Where a job's messages go, with fallbacks so that a REST error never escapes and a job always
 * gets its final message out:
 * - {@link ChannelSurface}: the bot's own messages in a thread or channel (no time limit); if that
 *   fails, the interaction's follow-ups while its token lives.
 * - {@link Header}: a run's root message. An interaction's is its (deferred) reply, edited through
 *   the token while it lives, then through the channel as the bot's own message; when Discord
 *   refuses the token itself (404: the interaction or its webhook is unknown), or no interaction
 *   asked (a schedule's tick), the header is a new bot message in the channel, so that the run's
 *   thread can still be started from it.
 * Every message is sent with `allowed_mentions: { parse: [] }`: output never pings anyone.
 */
import { Routes, type BaseMessageOptions, type ChatInputCommandInteraction, type Client, type Message, type SendableChannels } from 'discord.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { discordRenderer, MESSAGE_CHARS, type Outgoing } from './renderer.js';
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
  const content = msg.content.length + note.length <= MESSAGE_CHARS ? msg.content : cutChars(msg.content.split('\n')[0]!.replace(/`/g, "'"), MESSAGE_CHARS - note.length);
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

/** An interaction's replies while its token may be used (undefined after that, or when no interaction asked). */
export type LiveToken = () => InteractionReplies | undefined;

/** The token of `replies` from `since` (`Date.now()` when the interaction arrived) for `ttlMs`. */
export function liveToken(replies: InteractionReplies | undefined, since: number, ttlMs = INTERACTION_TOKEN_TTL_MS): LiveToken {
  return () => (replies && Date.now() - since < ttlMs ? replies : undefined);
}

/** The bot's messages in a channel or thread, falling back to interaction follow-ups. Never throws. */
export class ChannelSurface {
  /**
   * @param channel where to post (a thread, or the channel for in-place replies); undefined when the
   *   bot cannot see it (e.g. an uncached DM): then only follow-ups are used
   * @param token for follow-ups while it lives
   */
  constructor(
    private readonly channel: SendableChannels | undefined,
    private readonly logger: ChatLog,
    private readonly token: LiveToken = () => undefined,
  ) {}

  /** @returns the posted message, or undefined when every way of posting failed (logged). */
  async post(msg: Outgoing): Promise<Message | undefined> {
    const first = await this.tryPost(msg);
    if (first.message || !msg.files?.length) return first.message;
    return (await this.tryPost(withoutFiles(msg, first.error))).message;
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
    const replies = this.token();
    if (replies) {
      try {
        return { message: await replies.followUp(toOptions(msg)), error: '' };
      } catch (err) {
        error = errorLine(err);
        this.logger.warn(`follow-up failed: ${error}`);
      }
    }
    return { error };
  }
}

/** A run's root message (see the module comment). Never throws. */
export class Header {
  private message: Message | undefined;
  /** Discord answered 404 for the interaction's reply, or no interaction asked: the header is the bot's own message. */
  private refused: boolean;

  /**
   * @param token the interaction's, whose reply is the header; none: a schedule's tick
   * @param channel where the header is posted as the bot's own message when there is no token to use
   */
  constructor(
    private readonly client: Client,
    private readonly logger: ChatLog,
    private readonly token: LiveToken | undefined,
    private readonly channel?: SendableChannels,
  ) {
    this.refused = token === undefined;
  }

  /**
   * Replaces the header's content: through the interaction token while it lives, else as the bot's
   * own message in the channel (a new one when none was posted yet and the token is refused or absent).
   * @returns the message, or undefined when it could not be posted or edited (logged).
   */
  async set(msg: Outgoing): Promise<Message | undefined> {
    const replies = this.refused ? undefined : this.token?.();
    if (replies) {
      try {
        return (this.message = await replies.editReply(toOptions(msg)));
      } catch (err) {
        this.logger.warn(`editing the interaction reply failed: ${errorLine(err)}`);
        this.refused = (err as { status?: number })?.status === 404; // Unknown Webhook 10015, Unknown Interaction 10062: the token cannot work again
      }
    }
    if (this.message) return (await editChannelMessage(this.client, this.message.channelId, this.message.id, msg, this.logger)) ? this.message : undefined;
    if (!this.refused || !this.channel) return undefined;
    this.message = await this.channel.send(toOptions(msg)).catch((err: unknown) => void this.logger.warn(`posting the header in channel ${this.channel!.id} failed: ${errorLine(err)}`));
    return this.message;
  }
}

/**
 * Edits one of the bot's messages through `PATCH /channels/:id/messages/:id` (no interaction token,
 * no gateway cache: works from a queue worker).
 * @returns false when Discord refused (logged).
 */
export async function editChannelMessage(client: Client, channelId: string, messageId: string, msg: Outgoing, logger: ChatLog): Promise<boolean> {
  const body = { content: msg.content, allowed_mentions: { parse: [], replied_user: false }, ...(msg.components ? { components: msg.components } : {}) };
  const done = await client.rest.patch(Routes.channelMessage(channelId, messageId), { body }).then(
    () => true,
    (err: unknown) => logger.warn(`editing message ${messageId} in ${channelId} failed: ${errorLine(err)}`),
  );
  return done === true;
}

/** Replies ephemerally (only the requester sees it) with an answer (answers.ts); never throws. */
export async function replyEphemeral(logger: ChatLog, interaction: { reply: ChatInputCommandInteraction['reply'] }, msg: Outgoing): Promise<void> {
  await interaction.reply({ ...toOptions(msg), flags: 'Ephemeral' }).catch((err: unknown) => logger.warn(`ephemeral reply failed: ${errorLine(err)}`));
}
