/**
 * `code-agent worker`: queue mode's worker (docs/deploy.md). Takes chat jobs from the queue at
 * `queue.url`, runs the agent and the sandbox, and posts to each platform's API with the same
 * job code as an app without a queue (which runs them on a queue in its own process). Runs until SIGINT or SIGTERM, then finishes its running jobs.
 */
import type { Config } from '../../src/config/schema.js';
import { ConfigError } from '../../src/config/load.js';
import { createApp } from '../../src/app/app.js';
import type { PlatformJobs } from '../../src/chat/job-queue.js';
import { queueSettings } from '../../src/queue/queue.js';
import { checkRedis, redactedUrl } from '../../src/queue/connection.js';
import { startQueueWorker } from '../../src/queue/worker.js';
import { keepRunningOnStrayErrors } from '../../src/chat/stray-errors.js';
import { createLogger, logParts } from '../../src/log/logger.js';
import { slackJobs } from '../slack/worker-jobs.js';
import { discordJobs } from '../discord/worker-jobs.js';
import { opsDeps } from '../../src/health/parts.js';
import { startOpsIfConfigured } from '../../src/health/start.js';
import type { OpsServer } from '../../src/health/ops-server.js';

const QUIET = new Set(['fatal', 'error', 'warn', 'silent']);

/**
 * Starts a worker and resolves with exit code 0 after a signal stopped it.
 * @throws {ConfigError} without `queue.url` or without any platform token (Slack's bot token, Discord's token); errors of createApp
 *   (no LLM, store unreachable); SandboxUnavailableError when the sandbox cannot isolate here.
 */
export async function runWorker(config: Config): Promise<number> {
  const settings = queueSettings(config);
  await checkRedis(settings.url);
  // warnings and errors always; info lines unless log.level is quieter
  const pino = createLogger({ name: 'worker', level: QUIET.has(config.log.level) ? 'warn' : config.log.level, format: config.log.format });
  const write = (line: string) => pino.error(line);
  const log = {
    info: (...msg: unknown[]) => logParts(pino, 'info', msg),
    warn: (...msg: unknown[]) => logParts(pino, 'warn', msg),
    error: (...msg: unknown[]) => logParts(pino, 'error', msg),
  };
  const core = await createApp(config, { warn: (m) => pino.warn(m) });
  let discord: ReturnType<typeof discordJobs> | undefined;
  let ops: OpsServer | undefined;
  try {
    await core.executor.check();
    const platforms: Record<string, PlatformJobs> = {};
    if (config.slack?.bot_token) platforms.slack = slackJobs(core, config, log);
    discord = config.discord?.token ? discordJobs(core, config, log) : undefined;
    if (discord) platforms.discord = discord;
    if (Object.keys(platforms).length === 0) {
      throw new ConfigError(
        'the worker has no platform to post to: set slack.bot_token (SLACK_BOT_TOKEN) and/or discord.token (DISCORD_TOKEN), as the ingress has them',
      );
    }
    const worker = await startQueueWorker(config, platforms, log);
    core.metrics?.watchQueue(() => worker.counts());
    // no HTTP server here: /healthz, /readyz and /metrics on ops.port when it is set
    ops = await startOpsIfConfigured(config, opsDeps(config, core, { queue: worker, runsCode: true })).catch(async (err: unknown) => {
      await worker.close();
      throw err;
    });
    keepRunningOnStrayErrors((err) => write(`unhandled error (the worker keeps running): ${(err as Error)?.stack ?? String(err)}`));
    process.stderr.write(
      `code-agent: worker running (queue "${settings.name}" at ${redactedUrl(settings.url)}, ${settings.concurrency} job(s) at once; ${Object.keys(platforms).join(', ')})\n`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    process.stderr.write('code-agent: worker stopping (finishing its running jobs)…\n');
    await worker.close();
  } finally {
    await ops?.close();
    await discord?.close().catch(() => undefined);
    await core.close();
  }
  return 0;
}
