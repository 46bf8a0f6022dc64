/**
 * Starts the Slack adapter: the wired core, a Bolt app on HTTP (Bolt's HTTPReceiver serving
 * `/slack/events`) or Socket Mode (when `slack.app_token` is set), and the command and reply handlers.
 * Bolt: https://docs.slack.dev/tools/bolt-js/getting-started
 */
import type { Server } from 'node:http';
import { App as BoltApp, HTTPReceiver, LogLevel, SocketModeReceiver, type CustomRoute, type Logger } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import type { Config } from '../../src/config/schema.js';
import { createApp, type AppOverrides } from '../../src/app/app.js';
import { registerCommands } from './commands.js';
import { registerReplies } from './replies.js';
import { registerActions } from './actions.js';
import { registerMentions } from './mentions.js';
import { clientOptions, SlackPoster } from './poster.js';
import { slackSettings, type SlackSettings } from './settings.js';
import type { SlackContext } from './context.js';
import type { SandboxUnavailableError } from '../../src/sandbox/types.js';
import { JobQueue } from '../../src/queue/queue.js';
import { IngressOnlyLlm } from '../../src/queue/ingress-llm.js';
import { MemoryJobQueue } from '../../src/chat/memory-queue.js';
import type { ChatQueue } from '../../src/chat/job-queue.js';
import { Deliveries } from '../../src/chat/deliveries.js';
import { slackJobs } from './worker-jobs.js';
import { opsDeps } from '../../src/health/parts.js';
import { OPS_PATHS, opsRoutes, type OpsDeps } from '../../src/health/routes.js';
import { startOpsIfConfigured } from '../../src/health/start.js';

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
  const ingress = Boolean(config.queue.url);
  // queue mode: this process never runs code (workers do), so it needs neither an LLM nor the sandbox
  const core = await createApp(config, ingress ? { ...options, llm: options.llm ?? new IngressOnlyLlm() } : options);
  // refuse to serve when the sandbox cannot isolate here, rather than failing every run
  if (!ingress) {
    await core.executor.check().catch(async (err: unknown) => {
      await core.close();
      throw err;
    });
  }
  // queue mode: jobs go to Redis for workers; else to a queue in this process, run by the same job code
  const jobQueue = ingress
    ? await JobQueue.open(config, settings.maxQueuePerChannel).catch(async (err: unknown) => {
        await core.close();
        throw err;
      })
    : undefined;
  let queue: ChatQueue | undefined = jobQueue;
  // /healthz, /readyz, /metrics: on Bolt's HTTP server, and on the ops listener when ops.port is set
  const ops = opsDeps(config, core, { queue: jobQueue, runsCode: !ingress });
  const opsServer = await startOpsIfConfigured(config, ops).catch(async (err: unknown) => {
    await jobQueue?.close();
    await core.close();
    throw err;
  });
  const closeAll = async (graceMs?: number) => {
    await opsServer?.close();
    await queue?.close(graceMs);
    await core.close();
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
          customRoutes: opsCustomRoutes(ops),
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
  const log = options.logger ?? bolt.logger;
  queue ??= new MemoryJobQueue({ slack: slackJobs(core, config, log) }, settings.maxQueuePerChannel, (what, err) => log.error(`slack: ${what}`, err));
  const counted = queue;
  core.metrics?.watchQueue(() => counted.counts());
  const ctx: SlackContext = {
    core,
    settings,
    poster: new SlackPoster(new WebClient(settings.botToken, webOptions)),
    log,
    admitter: {
      deliveries: new Deliveries(core.store, settings.dedupeTtlMs, (err) => log.warn('slack: deduplication unavailable:', (err as Error).message)),
      queue,
      maxRequirementChars: core.agent.maxRequirementChars,
      onQueueError: (err) => log.error('slack: could not enqueue a job', err),
      budgets: core.budgets,
      metrics: core.metrics,
    },
  };
  registerCommands(bolt, ctx);
  registerReplies(bolt, ctx);
  registerActions(bolt, ctx);
  registerMentions(bolt, ctx);
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
    ingress,
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
