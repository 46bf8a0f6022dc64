/** The discord.js client options of the bot and of a queue worker's REST-only client. */
import { GatewayIntentBits, type ClientOptions } from 'discord.js';
import { NO_MENTIONS } from './surface.js';

/**
 * Guilds (channels, threads, roles), GuildMessages (messages in threads) and MessageContent
 * (privileged: the text of thread replies).
 * Source: https://discord.com/developers/docs/events/gateway#gateway-intents
 */
export const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent];

/** Builds the client options from the `discord` config section. */
export function clientOptionsFor(apiUrl: string | undefined): ClientOptions {
  return {
    intents: INTENTS,
    allowedMentions: NO_MENTIONS,
    ...(apiUrl ? { rest: { api: apiUrl } } : {}),
  };
}
