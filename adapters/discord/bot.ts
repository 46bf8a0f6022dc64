/**
 * The Discord bot: a discord.js Client with the intents it needs, no mentions by default, REST at
 * `discord.api_url` when set, wired to the handlers. Rate limits, reconnects and resumes are left
 * to discord.js.
 */
import { Client, Events, type ClientOptions } from 'discord.js';
import type { App } from '../../src/app/app.js';
import { settingsFrom, type DiscordSettings, type IngressContext } from './context.js';
import { onInteraction, onMessage } from './handlers.js';
import { silentLogger, type Logger } from './log.js';
import { describe } from './surface.js';
import { clientOptionsFor } from './client-options.js';

export { INTENTS } from './client-options.js';
import { DiscordStartupError, startupErrorFor } from './startup-error.js';
import type { ChatQueue } from '../../src/chat/job-queue.js';
import { MemoryJobQueue } from '../../src/chat/memory-queue.js';
import { Deliveries } from '../../src/chat/deliveries.js';
import { discordJobs } from './worker-jobs.js';

export { DiscordStartupError } from './startup-error.js';


/** What the bot needs. */
export interface DiscordBotOptions {
  app: App;
  logger?: Logger;
  /** Overrides of the settings read from `app.config.discord` (tests). */
  settings?: Partial<DiscordSettings>;
  /** Extra discord.js client options (tests). */
  clientOptions?: Partial<ClientOptions>;
  /** Queue mode: jobs go to this queue for workers (no sandbox check, no LLM call here); default a queue in this process. */
  queue?: ChatQueue;
}


/** Runs the bot on a core App. */
export class DiscordBot {
  readonly client: Client;
  readonly ctx: IngressContext;
  private readonly logger: Logger;
  /** The in-memory queue this bot runs its jobs on (absent in queue mode: the caller owns that queue). */
  private readonly ownQueue: MemoryJobQueue | undefined;

  constructor(private readonly options: DiscordBotOptions) {
    const discord = options.app.config.discord;
    this.logger = options.logger ?? silentLogger;
    this.client = new Client({ ...clientOptionsFor(discord?.api_url), ...options.clientOptions });
    const settings = { ...settingsFrom(discord), ...options.settings };
    const { app } = options;
    const logger = this.logger;
    this.ownQueue = options.queue
      ? undefined
      : new MemoryJobQueue(
          { discord: discordJobs(app, app.config, logger, { client: this.client, settings, logger }) },
          settings.maxQueuePerChannel,
          (what, err) => logger.error(`${what}: ${(err as Error)?.stack ?? String(err)}`),
        );
    this.ctx = {
      app,
      client: this.client,
      logger,
      settings,
      admitter: {
        deliveries: new Deliveries(app.store, settings.dedupeTtlMs, (err) => logger.warn(`deduplication unavailable: ${(err as Error).message}`)),
        queue: options.queue ?? this.ownQueue!,
        maxRequirementChars: app.agent.maxRequirementChars,
        onQueueError: (err) => logger.error(`could not enqueue a job: ${describe(err)}`),
        budgets: app.budgets,
        metrics: app.metrics,
      },
    };
    const queue = this.ctx.admitter.queue;
    app.metrics?.watchQueue(() => queue.counts());
    this.client.on(Events.InteractionCreate, (i) => void onInteraction(this.ctx, i));
    this.client.on(Events.MessageCreate, (m) => void onMessage(this.ctx, m));
    this.client.on(Events.Error, (err) => this.logger.error(`discord client error: ${describe(err)}`));
    this.client.on(Events.ShardError, (err) => this.logger.warn(`gateway connection error: ${describe(err)}`));
    this.client.on(Events.ShardReconnecting, () => this.logger.info('gateway: reconnecting'));
    this.client.on(Events.ShardResume, () => this.logger.info('gateway: resumed'));
  }

  /** Jobs of this bot's own queue admitted and not yet ended (0 in queue mode: workers run them). */
  get runningJobs(): number {
    return this.ownQueue?.size ?? 0;
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
    await this.ownQueue?.close(graceMs);
    await this.client.destroy();
  }
}
