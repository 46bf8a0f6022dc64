/**
 * Starts the Slack adapter: the wired core, a Bolt app on HTTP (Bolt's HTTPReceiver serving
 * `/slack/events`) or Socket Mode (when `slack.app_token` is set), and the command and reply handlers.
 * Bolt: https://docs.slack.dev/tools/bolt-js/getting-started
 */
import type { Server } from 'node:http';
import { App as BoltApp, HTTPReceiver, LogLevel, SocketModeReceiver, type CustomRoute, type Logger } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import type { Config } from '../../src/config/schema.js';
import type { AppOverrides } from '../../src/app/app.js';
import { registerCommands } from './commands.js';
import { registerReplies } from './replies.js';
import { registerActions } from './actions.js';
import { registerChoices } from './choices.js';
import { registerMentions } from './mentions.js';
import { registerAssistant } from './assistant.js';
import { clientOptions, SlackPoster } from './poster.js';
import { slackSettings, type SlackSettings } from './settings.js';
import type { SlackContext } from './context.js';
import { slackIncoming } from './incoming.js';
import { slackOutgoing } from './outgoing.js';
import { createChatApp, startChatService, type ChatLog } from '../../src/app/chat-service.js';
import { OPS_PATHS, opsRoutes, type OpsDeps } from '../../src/health/routes.js';

/** A running adapter. */
export interface SlackAdapter {
  settings: SlackSettings;
  /** The bound TCP port in HTTP mode (useful with `slack.port: 0`); undefined in Socket Mode. */
  port: number | undefined;
  /** True in queue mode (`queue.url`): this process only receives and enqueues. */
  ingress: boolean;
  /** Stops receiving, waits for running jobs (at most `graceMs`), closes the store. */
  stop(graceMs?: number): Promise<void>;
}

/** The Slack app could not start; `message` says why and what to check. */
export class SlackStartupError extends Error {
  override name = 'SlackStartupError';
}

/** Options of {@link startSlackAdapter}. */
export interface SlackAdapterOptions extends AppOverrides {
  /** Bolt's and our logger; default Bolt's console logger at `log.level`. */
  logger?: Logger;
}

const LEVELS: Record<string, LogLevel> = {
  fatal: LogLevel.ERROR,
  error: LogLevel.ERROR,
  warn: LogLevel.WARN,
  info: LogLevel.INFO,
  debug: LogLevel.DEBUG,
  trace: LogLevel.DEBUG,
  silent: LogLevel.ERROR,
};

/**
 * Builds the core and the Bolt app and starts receiving.
 * @throws {ConfigError} for missing tokens; errors of createApp (no LLM, store unreachable);
 *   {@link SandboxUnavailableError} when the sandbox cannot isolate; {@link SlackStartupError} when
 *   the token check (auth.test) fails or, in Socket Mode, the connection cannot be opened
 *   (apps.connections.open refused the app token, or failed for good); listen errors (port in use).
 */
export async function startSlackAdapter(config: Config, options: SlackAdapterOptions = {}): Promise<SlackAdapter> {
  const settings = slackSettings(config);
  const app = await createChatApp(config, options);
  // Bolt's logger once Bolt is made (options.logger, else Bolt's own); jobs may log before that
  let logger: ChatLog = options.logger ?? console;
  const log: ChatLog = { info: (...m) => logger.info(...m), warn: (...m) => logger.warn(...m), error: (...m) => logger.error(...m) };
  // the mode, the queue, the sandbox check and the ops listener: once for every platform
  const service = await startChatService(app, {
    incoming: slackIncoming(settings),
    outgoing: () => slackOutgoing(config, log),
    settings,
    log,
  }).catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  const closeAll = async (graceMs?: number) => {
    await service.close(graceMs);
    await app.close();
  };
  const logLevel = LEVELS[config.log.level] ?? LogLevel.INFO;
  const webOptions = clientOptions(settings.apiUrl, options.logger);
  const receiver =
    settings.mode === 'socket'
      ? new SocketModeReceiver({
          appToken: settings.appToken!,
          logLevel,
          ...(options.logger ? { logger: options.logger } : {}),
          // the Socket Mode client's own WebClient (apps.connections.open) uses the same Web API base;
          // only the URL, so its retry policy stays the library's (it retries reconnects longer)
          installerOptions: { clientOptions: { slackApiUrl: settings.apiUrl } },
        })
      : new HTTPReceiver({
          signingSecret: settings.signingSecret!,
          logLevel,
          ...(options.logger ? { logger: options.logger } : {}),
          customRoutes: opsCustomRoutes(service.ops),
        });
  const bolt = new BoltApp({
    token: settings.botToken,
    receiver,
    logLevel,
    ...(options.logger ? { logger: options.logger } : {}),
    clientOptions: webOptions,
    // init() below checks the token (auth.test) where its failure can be reported, instead of
    // a background check whose rejection would crash the process
    deferInitialization: true,
  });
  try {
    await bolt.init();
  } catch (err) {
    await closeAll();
    throw new SlackStartupError(
      `cannot start the Slack app: auth.test failed at ${settings.apiUrl ?? 'https://slack.com/api/'}: ${(err as Error).message}. Check slack.bot_token (SLACK_BOT_TOKEN) and that Slack is reachable.`,
    );
  }
  logger = options.logger ?? bolt.logger;
  const ctx: SlackContext = { app, settings, poster: new SlackPoster(new WebClient(settings.botToken, webOptions)), log, ingress: service.ingress };
  registerCommands(bolt, ctx);
  registerReplies(bolt, ctx);
  registerActions(bolt, ctx);
  registerChoices(bolt, ctx);
  registerMentions(bolt, ctx);
  registerAssistant(bolt, ctx);
  bolt.error(async (err) => {
    log.error('slack: unhandled error', err);
  });

  let port: number | undefined;
  try {
    const started = (settings.mode === 'http' ? await bolt.start(settings.port) : await bolt.start()) as unknown;
    const address = (started as Server | undefined)?.address?.();
    port = typeof address === 'object' && address ? address.port : undefined;
  } catch (err) {
    await closeAll();
    if (settings.mode === 'socket') throw socketStartError(settings, err);
    throw err;
  }

  return {
    settings,
    port,
    ingress: service.queueMode,
    async stop(graceMs = 10_000) {
      await bolt.stop().catch(() => undefined);
      await closeAll(graceMs);
    },
  };
}

/** The ops endpoints as Bolt custom routes (https://docs.slack.dev/tools/bolt-js/concepts/custom-routes). */
function opsCustomRoutes(deps: OpsDeps): CustomRoute[] {
  const routes = opsRoutes(deps);
  return OPS_PATHS.map((path) => ({
    path,
    method: ['GET', 'HEAD'],
    handler: (req, res) => {
      routes[path](req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    },
  }));
}

/** Socket Mode could not connect at start; worded like the auth.test failure above. */
function socketStartError(settings: SlackSettings, err: unknown): SlackStartupError {
  return new SlackStartupError(
    `cannot start the Slack app: Socket Mode could not connect (apps.connections.open at ${settings.apiUrl}): ${(err as Error).message}. ` +
      'Check slack.app_token (SLACK_APP_TOKEN): an app-level token (xapp-…) with the connections:write scope, and that Slack is reachable.',
  );
}
