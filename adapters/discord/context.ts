/**
 * What the bot's jobs share (the Discord client, settings from the config, a logger), and what its
 * handlers add: the core and the pipeline's entry (src/chat/ingress.ts: admission, the queue in memory
 * or in Redis — the handlers do not know which).
 */
import type { Client } from 'discord.js';
import type { App } from '../../src/app/app.js';
import { discordSchema, type Config } from '../../src/config/schema.js';
import type { AccessLists } from './incoming.js';
import type { ChatLog } from '../../src/app/chat-service.js';
import { INTERACTION_TOKEN_TTL_MS } from './surface.js';
import { chatSettings, type ChatSettings } from '../../src/chat/chat-settings.js';
import type { ChatIngress } from '../../src/chat/incoming-port.js';
import type { Deliveries } from '../../src/chat/deliveries.js';
import type { DiscordAnswer } from './answers.js';
import type { UsageAdmins } from '../../src/chat/usage-view.js';

/**
 * Where Discord serves attachments (https://discord.com/developers/docs/reference#image-formatting-image-base-url).
 * Downloads go nowhere else (plus the configured `discord.api_url` origin, for tests and proxies).
 */
export const DISCORD_FILE_ORIGINS = ['https://cdn.discordapp.com', 'https://media.discordapp.net'] as const;

/** Settings of the adapter, in the units the code uses (the shared chat keys: {@link ChatSettings}). */
export interface DiscordSettings extends ChatSettings {
  access: AccessLists;
  /** Who may use `/usage` (`discord.admin_users`, `discord.admin_roles`); both empty: nobody. */
  admins: UsageAdmins;
  /** Origins attachments are downloaded from (no credentials): Discord's file hosts, and the `discord.api_url` origin when set. */
  attachmentOrigins: string[];
  /** How long the interaction token is used, in ms (default 14 minutes). */
  interactionTokenTtlMs: number;
}

/** Reads the settings from the `discord` config section (the schema's defaults when absent). */
export function settingsFrom(section: Config['discord']): DiscordSettings {
  const discord = section ?? discordSchema.parse({});
  return {
    ...chatSettings(discord),
    access: { guilds: discord.allowed_guilds, channels: discord.allowed_channels, roles: discord.allowed_roles, users: discord.allowed_users },
    admins: { users: discord.admin_users, roles: discord.admin_roles, keys: 'discord.admin_users or discord.admin_roles' },
    attachmentOrigins: [...DISCORD_FILE_ORIGINS, ...(discord.api_url ? [new URL(discord.api_url).origin] : [])],
    interactionTokenTtlMs: INTERACTION_TOKEN_TTL_MS,
  };
}

/** Shared by the jobs (in the bot's process or a queue worker). */
export interface BotContext {
  client: Client;
  logger: ChatLog;
  settings: DiscordSettings;
}

/** Shared by the gateway handlers: the jobs' context and the pipeline's entry. */
export interface IngressContext extends BotContext {
  /** The wired core (`/usage` reads its ledger). */
  app: App;
  ingress: ChatIngress<DiscordAnswer>;
  /** Dedupe of deliveries answered outside the entry (the Improve modal, `/usage`). */
  deliveries: Pick<Deliveries, 'seen'>;
}
