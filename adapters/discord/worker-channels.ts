/**
 * The discord.js clients: the bot's options (its intents, no mentions, REST at `discord.api_url`),
 * and Discord without the gateway, for a queue worker: a client that never logs in (REST only, with the bot token), channels looked up through `GET /channels/:id`, threads started
 * through `POST /channels/:id/messages/:id/threads`, and an interaction's token used through an
 * `InteractionWebhook` (follow-ups and edits of the original response, valid 15 minutes:
 * https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages).
 */
import { Client, GatewayIntentBits, InteractionWebhook, Routes, ThreadAutoArchiveDuration, type Channel, type ClientOptions, type Message, type SendableChannels } from 'discord.js';
import { NO_MENTIONS, type InteractionReplies } from './surface.js';

/**
 * Guilds (channels, threads, roles), GuildMessages (messages in threads) and MessageContent
 * (privileged: the text of thread replies).
 * Source: https://discord.com/developers/docs/events/gateway#gateway-intents
 */
export const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent];

/** The client options for the `discord` config section's `api_url`. */
export function clientOptionsFor(apiUrl: string | undefined): ClientOptions {
  return { intents: INTENTS, allowedMentions: NO_MENTIONS, ...(apiUrl ? { rest: { api: apiUrl } } : {}) };
}

/** A REST-only client (no gateway connection); `destroy()` it when done. */
export function restOnlyClient(token: string, apiUrl: string | undefined): Client {
  const client = new Client(clientOptionsFor(apiUrl));
  client.rest.setToken(token);
  return client;
}

/**
 * Looks a channel up by id (`GET /channels/:id`). The worker knows no guild: `allowUnknownGuild`
 * builds the channel without one, and such channels are not cached (a worker sees many threads over
 * its life; messages are edited through plain REST, see surface.ts).
 * @returns undefined when Discord refuses (unknown channel, missing access, a DM it does not show).
 */
export async function channelById(client: Client, id: string): Promise<Channel | undefined> {
  try {
    return (await client.channels.fetch(id, { allowUnknownGuild: true })) ?? undefined;
  } catch {
    return undefined;
  }
}

/** {@link channelById} when messages can be sent there. */
export async function sendableById(client: Client, id: string): Promise<SendableChannels | undefined> {
  const channel = await channelById(client, id);
  return channel?.isSendable() ? channel : undefined;
}

/**
 * Starts a public thread from a message (archived after a day without activity).
 * Source: https://discord.com/developers/docs/resources/channel#start-thread-from-message
 * @throws the REST error when Discord refuses, or an Error when the new thread cannot be looked up.
 */
export async function startThreadFrom(client: Client, message: Pick<Message, 'channelId' | 'id'>, name: string): Promise<SendableChannels> {
  const thread = (await client.rest.post(Routes.threads(message.channelId, message.id), {
    body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay },
  })) as { id: string };
  const channel = await sendableById(client, thread.id);
  if (!channel) throw new Error(`the new thread ${thread.id} could not be looked up`);
  return channel;
}

/** Follow-ups and edits of the original response through an interaction's token. */
export function tokenReplies(client: Client, applicationId: string, token: string): InteractionReplies {
  // the webhook only uses the client's REST (typed for a logged-in client)
  const webhook = new InteractionWebhook(client as Client<true>, applicationId, token);
  return {
    followUp: (options) => webhook.send(options),
    editReply: (options) => webhook.editMessage('@original', options),
  };
}
