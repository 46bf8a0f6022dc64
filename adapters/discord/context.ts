/**
 * What every handler of the bot shares: the core, the Discord client, settings from the config,
 * the job limiter, and the set of running jobs (awaited on shutdown).
 */
import type { Client } from 'discord.js';
import type { App } from '../../src/app/app.js';
import type { Config } from '../../src/config/schema.js';
import { JobLimiter, type Refusal } from '../../src/chat/job-limiter.js';
import type { AccessLists } from './access.js';
import { RecentDeliveries } from '../../src/chat/recent-deliveries.js';
import type { Logger } from './log.js';
import { INTERACTION_TOKEN_TTL_MS } from './surface.js';
import { DISCORD_FILE_ORIGINS } from './attachments.js';
import type { JobQueue } from '../../src/queue/queue.js';

/** Settings of the adapter, in the units the code uses. */
export interface DiscordSettings {
  access: AccessLists;
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
    maxQueuePerChannel: discord?.max_queue_per_channel ?? 5,
    maxInputFileBytes: Math.round((discord?.max_input_file_mb ?? 10) * 1024 * 1024),
    maxInputFiles: discord?.max_input_files ?? 5,
    attachmentOrigins: [...DISCORD_FILE_ORIGINS, ...(discord?.api_url ? [new URL(discord.api_url).origin] : [])],
    dedupeTtlMs: (discord?.dedupe_ttl_s ?? 3600) * 1000,
    historyLimit: discord?.history_limit ?? 10,
    interactionTokenTtlMs: INTERACTION_TOKEN_TTL_MS,
  };
}

/** Shared by all handlers. */
export interface BotContext {
  app: App;
  client: Client;
  logger: Logger;
  settings: DiscordSettings;
  limiter: JobLimiter;
  /** Jobs in flight; `stop()` waits for them. */
  jobs: Set<Promise<unknown>>;
  /** Synchronous, in-memory dedupe in front of the store's. */
  recent: RecentDeliveries;
  /** Queue mode (`queue.url`): this process only receives and enqueues (adapters/discord/enqueue.ts). */
  queue?: JobQueue;
}

/** Creates the shared context. */
export function createContext(app: App, client: Client, logger: Logger, settings: DiscordSettings): BotContext {
  return {
    app,
    client,
    logger,
    settings,
    limiter: new JobLimiter(settings.maxQueuePerChannel),
    jobs: new Set(),
    recent: new RecentDeliveries(settings.dedupeTtlMs),
  };
}

/** A refusal of the job limiter in words (shown ephemerally, or as a reply in a thread). */
export function refusalText(reason: Refusal, maxQueue: number): string {
  return reason === 'user_busy'
    ? 'You already have a job running. Wait for it to finish, then try again.'
    : `This channel already has ${maxQueue} jobs waiting or running. Try again in a moment.`;
}

/** Keeps track of a job so shutdown can wait for it; its errors are logged, never thrown. */
export function track(ctx: BotContext, job: Promise<unknown>): void {
  const guarded = job.catch((err: unknown) => ctx.logger.error(`job failed: ${(err as Error)?.stack ?? String(err)}`));
  ctx.jobs.add(guarded);
  void guarded.finally(() => ctx.jobs.delete(guarded));
}
