/**
 * What the bot's jobs share (the core, the Discord client, settings from the config, a logger), and
 * what its handlers add: the pipeline's entry (src/chat/ingress.ts: admission, the queue in memory
 * or in Redis — the handlers do not know which).
 */
import type { Client } from 'discord.js';
import type { App } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import type { AccessLists } from './incoming.js';
import type { Logger } from './log.js';
import { INTERACTION_TOKEN_TTL_MS } from './surface.js';
import { DISCORD_FILE_ORIGINS, type DownloadLimits } from './attachments.js';
import type { ChatIngress } from '../../src/chat/incoming-port.js';
import type { Deliveries } from '../../src/chat/deliveries.js';
import type { DiscordAnswer } from './answers.js';

/** Settings of the adapter, in the units the code uses. */
export interface DiscordSettings {
  access: AccessLists;
  /** Who may use `/usage` (`discord.admin_users`, `discord.admin_roles`); both empty: nobody. */
  admins: { users: string[]; roles: string[] };
  maxQueuePerChannel: number;
  /** Largest attachment downloaded into the sandbox, in bytes. */
  maxInputFileBytes: number;
  /** Most attachments taken from one message. */
  maxInputFiles: number;
  /** Origins attachments are downloaded from: Discord's file hosts, and the `discord.api_url` origin when set. */
  attachmentOrigins: string[];
  /** How long interaction and message ids are remembered, in ms. */
  dedupeTtlMs: number;
  /** Runs listed by `/history` by default. */
  historyLimit: number;
  /** How long the interaction token is used, in ms (default 14 minutes). */
  interactionTokenTtlMs: number;
}

/** Reads the settings from the `discord` config section (defaults when absent). */
export function settingsFrom(discord: Config['discord']): DiscordSettings {
  return {
    access: {
      guilds: discord?.allowed_guilds ?? [],
      channels: discord?.allowed_channels ?? [],
      roles: discord?.allowed_roles ?? [],
      users: discord?.allowed_users ?? [],
    },
    admins: { users: discord?.admin_users ?? [], roles: discord?.admin_roles ?? [] },
    maxQueuePerChannel: discord?.max_queue_per_channel ?? 5,
    maxInputFileBytes: Math.round((discord?.max_input_file_mb ?? 10) * 1024 * 1024),
    maxInputFiles: discord?.max_input_files ?? 5,
    attachmentOrigins: [...DISCORD_FILE_ORIGINS, ...(discord?.api_url ? [new URL(discord.api_url).origin] : [])],
    dedupeTtlMs: (discord?.dedupe_ttl_s ?? 3600) * 1000,
    historyLimit: discord?.history_limit ?? 10,
    interactionTokenTtlMs: INTERACTION_TOKEN_TTL_MS,
  };
}

/** The download limits of attached files, from the settings. */
export function downloadLimits(settings: DiscordSettings): DownloadLimits {
  return { maxFiles: settings.maxInputFiles, maxBytes: settings.maxInputFileBytes, origins: settings.attachmentOrigins };
}

/** Shared by the jobs (in the bot's process or a queue worker). */
export interface BotContext {
  app: App;
  client: Client;
  logger: Logger;
  settings: DiscordSettings;
}

/** Shared by the gateway handlers: the jobs' context and the pipeline's entry. */
export interface IngressContext extends BotContext {
  ingress: ChatIngress<DiscordAnswer>;
  /** Dedupe of deliveries answered outside the entry (the Improve modal, `/usage`). */
  deliveries: Pick<Deliveries, 'seen'>;
}
