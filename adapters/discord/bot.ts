/**
 * The Discord bot: a discord.js Client with the intents it needs, no mentions by default, REST at
 * `discord.api_url` when set, wired to the handlers. Rate limits, reconnects and resumes are left
 * to discord.js.
 */
import { Client, Events, GatewayIntentBits, type ClientOptions } from 'discord.js';
import type { App } from '../../src/app/app.js';
import { createContext, settingsFrom, type BotContext, type DiscordSettings } from './context.js';
import { onInteraction, onMessage } from './handlers.js';
import { silentLogger, type Logger } from './log.js';
import { NO_MENTIONS, describe } from './surface.js';
import { DiscordStartupError, startupErrorFor } from './startup-error.js';
import type { JobQueue } from '../../src/queue/queue.js';

export { DiscordStartupError } from './startup-error.js';

/**
 * Guilds (channels, threads, roles), GuildMessages (messages in threads) and MessageContent
 * (privileged: the text of thread replies).
 * Source: https://discord.com/developers/docs/events/gateway#gateway-intents
 */
export const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent];

/** What the bot needs. */
export interface DiscordBotOptions {
  app: App;
  logger?: Logger;
  /** Overrides of the settings read from `app.config.discord` (tests). */
  settings?: Partial<DiscordSettings>;
  /** Extra discord.js client options (tests). */
  clientOptions?: Partial<ClientOptions>;
  /** Queue mode: enqueue jobs instead of running them (no sandbox check, no LLM call here). */
  queue?: JobQueue;
}

/** Builds the client options from the `discord` config section. */
export function clientOptionsFor(apiUrl: string | undefined): ClientOptions {
  return {
    intents: INTENTS,
    allowedMentions: NO_MENTIONS,
    ...(apiUrl ? { rest: { api: apiUrl } } : {}),
  };
}

/** Runs the bot on a core App. */
export class DiscordBot {
  readonly client: Client;
  readonly ctx: BotContext;
  private readonly logger: Logger;

  constructor(private readonly options: DiscordBotOptions) {
    const discord = options.app.config.discord;
    this.logger = options.logger ?? silentLogger;
    this.client = new Client({ ...clientOptionsFor(discord?.api_url), ...options.clientOptions });
    const settings = { ...settingsFrom(discord), ...options.settings };
    this.ctx = { ...createContext(options.app, this.client, this.logger, settings), ...(options.queue ? { queue: options.queue } : {}) };
    this.client.on(Events.InteractionCreate, (i) => void onInteraction(this.ctx, i));
    this.client.on(Events.MessageCreate, (m) => void onMessage(this.ctx, m));
    this.client.on(Events.Error, (err) => this.logger.error(`discord client error: ${describe(err)}`));
    this.client.on(Events.ShardError, (err) => this.logger.warn(`gateway connection error: ${describe(err)}`));
    this.client.on(Events.ShardReconnecting, () => this.logger.info('gateway: reconnecting'));
    this.client.on(Events.ShardResume, () => this.logger.info('gateway: resumed'));
  }

  /**
   * Logs in and resolves once the client is ready.
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate on this machine (not in queue mode).
   * @throws {DiscordStartupError} when the token is missing or refused, or the gateway refuses the
   *   intents (close code 4014: enable the Message Content intent, see docs/discord.md).
   */
  async start(): Promise<void> {
    const token = this.options.app.config.discord?.token;
    if (!token) throw new DiscordStartupError('discord.token is not set');
    // refuse to serve on a machine where the sandbox cannot isolate, rather than fail every run
    // (a queue-mode ingress runs no code: its workers check their own machines)
    if (!this.options.queue) await this.options.app.executor.check();
    let onDisconnect!: (event: { code: number }) => void;
    const refused = new Promise<never>((_, reject) => {
      onDisconnect = (event) => reject(startupErrorFor(event.code));
      this.client.once(Events.ShardDisconnect, onDisconnect);
    });
    const ready = new Promise<void>((resolve) => this.client.once(Events.ClientReady, () => resolve()));
    refused.catch(() => undefined);
    try {
      await Promise.race([this.client.login(token).then(() => ready), refused]);
    } catch (err) {
      await this.client.destroy().catch(() => undefined);
      throw err instanceof DiscordStartupError ? err : startupErrorFor(undefined, err);
    } finally {
      this.client.off(Events.ShardDisconnect, onDisconnect);
    }
  }

  /**
   * Stops taking requests, waits up to `graceMs` for running jobs to post their final message,
   * then disconnects.
   */
  async stop(graceMs = 60_000): Promise<void> {
    this.client.removeAllListeners(Events.InteractionCreate);
    this.client.removeAllListeners(Events.MessageCreate);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.ctx.jobs]), timeout]);
    await this.client.destroy();
  }
}
