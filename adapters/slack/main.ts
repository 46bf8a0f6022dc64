/**
 * `code-agent slack`: the Slack app on the core built for chat (src/app/chat-process.ts), until
 * SIGINT or SIGTERM. A Bolt app on HTTP (Bolt's HTTPReceiver serving `/slack/events`) or Socket
 * Mode (when `slack.app_token` is set), its handlers handing Slack's traffic to the pipeline, and
 * one log (the process's) for Bolt's lines and ours.
 * Bolt: https://docs.slack.dev/tools/bolt-js/getting-started
 */
import type { Server } from 'node:http';
import { App as BoltApp, HTTPReceiver, LogLevel, SocketModeReceiver, type CustomRoute, type Logger } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import type { Config } from '../../src/config/schema.js';
import type { App } from '../../src/app/app.js';
import { runChatProcess } from '../../src/app/chat-process.js';
import { startChatService, type ChatLog } from '../../src/app/chat-service.js';
import { OPS_PATHS, opsRoutes, type OpsDeps } from '../../src/health/routes.js';
import { registerCommands } from './commands.js';
import { registerMessages } from './messages.js';
import { registerClicks } from './clicks.js';
import { clientOptions, SlackPoster } from './poster.js';
import { slackSettings, type SlackSettings } from './settings.js';
import { slackIncoming, type SlackContext } from './incoming.js';
import { slackOutgoing } from './outgoing.js';

/** A running adapter. */
export interface SlackAdapter {
  settings: SlackSettings;
  /** The bound TCP port in HTTP mode (useful with `slack.port: 0`); undefined in Socket Mode. */
  port: number | undefined;
  /** True in queue mode (`queue.url`): this process only receives and enqueues. */
  ingress: boolean;
  /** Stops receiving and waits for running jobs (at most `graceMs`); the core is its owner's to close. */
  stop(graceMs?: number): Promise<void>;
}

/** The Slack app could not start; `message` says why and what to check. */
export class SlackStartupError extends Error {
  override name = 'SlackStartupError';
}

/** Bolt's logger interface (@slack/logger) on the process's log; the level is `log.level`'s, whatever Bolt asks. */
function boltLogger(log: ChatLog): Logger {
  return { debug: (...m) => log.debug?.(...m), info: log.info, warn: log.warn, error: log.error, setLevel: () => undefined, getLevel: () => LogLevel.INFO, setName: () => undefined };
}

/**
 * Starts the pipeline and the Bolt app on a built core, and starts receiving.
 * @throws {ConfigError} for missing tokens; {@link SandboxUnavailableError} when the sandbox cannot
 *   isolate; {@link SlackStartupError} when the token check (auth.test) fails or, in Socket Mode, the
 *   connection cannot be opened (apps.connections.open refused the app token, or failed for good);
 *   listen errors (port in use).
 */
export async function startSlackAdapter(app: App, log: ChatLog): Promise<SlackAdapter> {
  const settings = slackSettings(app.config);
  // the mode, the queue, the sandbox check and the ops listener: once for every platform
  const service = await startChatService(app, { incoming: slackIncoming(settings), outgoing: () => slackOutgoing(app.config, log), settings, log });
  const logger = boltLogger(log);
  const receiver =
    settings.mode === 'socket'
      ? // the Socket Mode client's own WebClient (apps.connections.open) uses the same Web API base;
        // only the URL, so its retry policy stays the library's (it retries reconnects longer)
        new SocketModeReceiver({ appToken: settings.appToken!, logger, installerOptions: { clientOptions: { slackApiUrl: settings.apiUrl } } })
      : new HTTPReceiver({ signingSecret: settings.signingSecret!, logger, customRoutes: opsCustomRoutes(service.ops) });
  // init() below checks the token (auth.test) where its failure can be reported, instead of a
  // background check whose rejection would crash the process
  const bolt = new BoltApp({ token: settings.botToken, receiver, logger, clientOptions: clientOptions(settings.apiUrl, logger), deferInitialization: true });
  let port: number | undefined;
  try {
    await bolt.init().catch((err: unknown) => {
      throw new SlackStartupError(
        `cannot start the Slack app: auth.test failed at ${settings.apiUrl}: ${(err as Error).message}. Check slack.bot_token (SLACK_BOT_TOKEN) and that Slack is reachable.`,
      );
    });
    const ctx: SlackContext = { app, settings, poster: new SlackPoster(new WebClient(settings.botToken, clientOptions(settings.apiUrl, logger))), log, ingress: service.ingress };
    registerCommands(bolt, ctx);
    registerMessages(bolt, ctx);
    registerClicks(bolt, ctx);
    bolt.error(async (err) => log.error('slack: unhandled error', err));
    const started = (settings.mode === 'http' ? await bolt.start(settings.port) : await bolt.start()) as Server | undefined;
    const address = started?.address?.();
    port = typeof address === 'object' && address ? address.port : undefined;
  } catch (err) {
    await service.close();
    throw err instanceof SlackStartupError || settings.mode === 'http' ? err : socketStartError(settings, err);
  }
  return {
    settings,
    port,
    ingress: service.queueMode,
    async stop(graceMs = 10_000) {
      await bolt.stop().catch(() => undefined);
      await service.close(graceMs);
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

/**
 * `code-agent slack`: serves the app until SIGINT or SIGTERM.
 * @returns exit code 0 after a signal stopped it. @throws see {@link startSlackAdapter}
 */
export async function runSlack(config: Config): Promise<number> {
  slackSettings(config); // a missing token is said before anything starts
  return runChatProcess(config, 'slack', startSlackAdapter, {
    started(adapter) {
      const where = adapter.settings.mode === 'http' ? `HTTP on port ${adapter.port} (/slack/events)` : 'Socket Mode';
      process.stderr.write(`code-agent: Slack app running in ${where}${adapter.ingress ? ' as a queue ingress (workers run the jobs: code-agent worker)' : ''}\n`);
    },
    stopping: () => process.stderr.write('code-agent: stopping (waiting for running jobs)…\n'),
  });
}
