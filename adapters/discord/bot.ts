/**
 * The Discord bot: a discord.js Client with the intents it needs, no mentions by default, REST at
 * `discord.api_url` when set, wired to the handlers; clear startup errors instead of a silent bot.
 * Rate limits, reconnects and resumes are left to discord.js.
 */
import { Client, Events, type ClientOptions } from 'discord.js';
import type { App } from '../../src/app/app.js';
import { settingsFrom, type DiscordSettings, type IngressContext } from './context.js';
import { onInteraction, onMessage } from './handlers.js';
import { silentLog } from '../../src/log/logger.js';
import { errorLine } from '../../src/text/error-line.js';
import { clientOptionsFor } from './worker-channels.js';
import { startChatService, type ChatLog, type ChatService } from '../../src/app/chat-service.js';
import { discordIncoming } from './incoming.js';
import { discordOutgoing } from './outgoing.js';
import type { DiscordAnswer } from './answers.js';

export { INTENTS } from './worker-channels.js';

/** The bot could not connect; `message` says why and what to do. */
export class DiscordStartupError extends Error {
  override name = 'DiscordStartupError';
}

/**
 * What to do for the gateway close codes that end the connection for good.
 * Source: https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes
 */
const HELP: Record<number, string> = {
  4004: 'Discord refused the token (close code 4004 "Authentication failed"): check discord.token (Developer Portal → Bot → Reset Token).',
  4013: 'Discord refused the intents (close code 4013 "Invalid intent(s)").',
  4014:
    'Discord refused the Message Content intent (close code 4014 "Disallowed intent(s)"): open the Developer Portal → your application → Bot → Privileged Gateway Intents, turn on MESSAGE CONTENT INTENT, save, and start again (see docs/discord.md).',
};

/** The startup error for a gateway close code, or for an error thrown by `client.login()`. */
export function startupErrorFor(code: number | undefined, cause?: unknown): DiscordStartupError {
  const message = (cause as Error | undefined)?.message ?? '';
  if (code === undefined) {
    if (/disallowed intents/i.test(message)) code = 4014;
    else if (/invalid intents/i.test(message)) code = 4013;
    else if (/token/i.test(message) || (cause as { status?: number })?.status === 401) code = 4004;
  }
  const help = code !== undefined ? HELP[code] : undefined;
  return new DiscordStartupError(help ?? `cannot connect to Discord${code ? ` (gateway close code ${code})` : ''}: ${message || 'unknown error'}`, { cause });
}

/** What the bot needs. */
export interface DiscordBotOptions {
  app: App;
  logger?: ChatLog;
  /** Overrides of the settings read from `app.config.discord` (tests). */
  settings?: Partial<DiscordSettings>;
  /** Extra discord.js client options (tests). */
  clientOptions?: Partial<ClientOptions>;
  /** Start the ops listener (`ops.port`) with the bot (default false: the caller does, or there is none). */
  ops?: boolean;
}

/** Runs the bot on an App. */
export class DiscordBot {
  readonly client: Client;
  readonly ctx: IngressContext;
  private readonly logger: ChatLog;
  /** The pipeline (mode, queue, admission), once started. */
  private service: ChatService<DiscordAnswer> | undefined;

  constructor(private readonly options: DiscordBotOptions) {
    const discord = options.app.config.discord;
    this.logger = options.logger ?? silentLog;
    this.client = new Client({ ...clientOptionsFor(discord?.api_url), ...options.clientOptions });
    const settings = { ...settingsFrom(discord), ...options.settings };
    // the entry and the dedupe are the service's, made at start(); handlers run only after login
    const started = (): ChatService<DiscordAnswer> => {
      if (!this.service) throw new Error('the Discord bot has not started');
      return this.service;
    };
    this.ctx = {
      ...{ app: options.app, client: this.client, logger: this.logger, settings },
      ingress: { receive: (request, requester) => started().ingress.receive(request, requester) },
      deliveries: { seen: (id) => started().deliveries.seen(id) },
    };
    this.client.on(Events.InteractionCreate, (i) => void onInteraction(this.ctx, i));
    this.client.on(Events.MessageCreate, (m) => void onMessage(this.ctx, m));
    this.client.on(Events.Error, (err) => this.logger.error(`discord client error: ${errorLine(err)}`));
    this.client.on(Events.ShardError, (err) => this.logger.warn(`gateway connection error: ${errorLine(err)}`));
    this.client.on(Events.ShardReconnecting, () => this.logger.info('gateway: reconnecting'));
    this.client.on(Events.ShardResume, () => this.logger.info('gateway: resumed'));
  }

  /** Jobs of this bot's own queue admitted and not yet ended (0 in queue mode: workers run them). */
  get runningJobs(): number {
    return this.service?.runningJobs ?? 0;
  }

  /** True in queue mode (`queue.url`): this process only receives and enqueues. */
  get queueMode(): boolean {
    return this.service?.queueMode ?? false;
  }

  /**
   * Logs in and resolves once the client is ready.
   * @throws {SandboxUnavailableError} when the sandbox cannot isolate on this machine (not in queue mode);
   *   {@link ConfigError} in queue mode when Redis cannot be reached.
   * @throws {DiscordStartupError} when the token is missing or refused, or the gateway refuses the
   *   intents (close code 4014: enable the Message Content intent, see docs/discord.md).
   */
  async start(): Promise<void> {
    const token = this.options.app.config.discord?.token;
    if (!token) throw new DiscordStartupError('discord.token is not set');
    // the mode, the queue, the sandbox check (embedded): once for every platform
    const { settings } = this.ctx;
    this.service = await startChatService(this.options.app, {
      incoming: discordIncoming(settings),
      outgoing: (app) => discordOutgoing(app.config, this.logger, { client: this.client, settings, logger: this.logger }),
      settings,
      log: this.logger,
      ops: this.options.ops ?? false,
    });
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
      await this.service.close(0).catch(() => undefined);
      this.service = undefined;
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
    await this.service?.close(graceMs);
    await this.client.destroy();
  }
}
