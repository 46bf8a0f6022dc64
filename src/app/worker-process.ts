/**
 * `code-agent worker`: queue mode's worker (docs/deploy.md). Takes chat jobs from the queue at
 * `queue.url`, runs the agent and the sandbox, and posts through each configured platform's
 * outgoing port with the same job code as an app without a queue (src/chat/request-jobs.ts).
 * Runs until SIGINT or SIGTERM, then finishes its running jobs.
 */
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import { createApp, type App } from './app.js';
import type { PlatformJobs } from '../chat/job-queue.js';
import type { OutgoingPort } from '../chat/port.js';
import { queueSettings } from '../queue/queue.js';
import { checkRedis, redactedUrl } from '../queue/connection.js';
import { startQueueWorker } from '../queue/worker.js';
import { keepRunningOnStrayErrors } from '../chat/stray-errors.js';
import { createLogger, logParts } from '../log/logger.js';
import { opsDeps } from '../health/parts.js';
import { startOpsIfConfigured } from '../health/start.js';
import type { OpsServer } from '../health/ops-server.js';
import { platformJobs, type ChatLog } from './chat-service.js';
import { JobQueue } from '../queue/queue.js';
import { Deliveries } from '../chat/deliveries.js';
import { chatSettings } from '../chat/chat-settings.js';
import type { Admitter } from '../chat/admission.js';
import type { TickJobs } from '../chat/request-jobs.js';
import { startSchedules, type SchedulesService } from './schedules-service.js';
import { untilStopSignal } from './stop-signal.js';

/** The per-channel queue bound and dedupe time a worker admits ticks with: the first configured platform's. */
function tickAdmission(config: Config): { maxPerChannel: number; dedupeTtlMs: number } {
  const chat = chatSettings(config.slack ?? config.discord ?? config.matrix);
  return { maxPerChannel: chat.maxQueuePerChannel, dedupeTtlMs: chat.dedupeTtlMs };
}

/**
 * A platform's outgoing port for a worker, from the config; undefined when the config does not set
 * the platform up (no token). @throws {ConfigError} when it is set up wrongly
 */
export type OutgoingFactory = (config: Config, app: App, log: ChatLog) => OutgoingPort<unknown, unknown> | undefined;

const QUIET = new Set(['fatal', 'error', 'warn', 'silent']);

/**
 * Starts a worker and resolves with exit code 0 after a signal stopped it.
 * @throws {ConfigError} without `queue.url` or without any platform token (Slack's bot token, Discord's token); errors of createApp
 *   (no LLM, store unreachable); SandboxUnavailableError when the sandbox cannot isolate here.
 */
export async function runWorker(config: Config, outgoing: Record<string, OutgoingFactory>): Promise<number> {
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
  const app = await createApp(config, { warn: (m) => pino.warn(m) });
  const ports: Array<OutgoingPort<unknown, unknown>> = [];
  let ops: OpsServer | undefined;
  let tickQueue: JobQueue | undefined;
  let schedules: SchedulesService | undefined;
  try {
    await app.executor.check();
    // ticks of schedules are admitted here too (a worker consumes the ticks queue as ingresses do)
    const admission = tickAdmission(config);
    tickQueue = await JobQueue.open(config, admission.maxPerChannel);
    const admitter: Admitter = {
      deliveries: new Deliveries(app.store, admission.dedupeTtlMs, (err) => log.warn(`deduplication unavailable: ${(err as Error)?.message ?? String(err)}`)),
      queue: tickQueue,
      maxRequirementChars: app.agent.maxRequirementChars,
      onQueueError: (err) => log.error(`could not enqueue a tick: ${(err as Error)?.message ?? String(err)}`),
      budgets: app.budgets,
      metrics: app.metrics,
    };
    schedules = await startSchedules(app, 'worker', admitter, log);
    const ticks: TickJobs | undefined = schedules.ticks;
    const platforms: Record<string, PlatformJobs> = {};
    for (const [name, make] of Object.entries(outgoing)) {
      const port = make(config, app, log);
      if (!port) continue;
      ports.push(port);
      platforms[name] = platformJobs(app, port, log, ticks);
    }
    if (Object.keys(platforms).length === 0) {
      throw new ConfigError(
        `the worker has no platform to post to: set the token of one (${Object.keys(outgoing).join(', ')}: e.g. slack.bot_token, discord.token), as the ingress has it`,
      );
    }
    const worker = await startQueueWorker(config, platforms, log);
    app.metrics?.watchQueue(() => worker.counts());
    // no HTTP server here: /healthz, /readyz and /metrics on ops.port when it is set
    ops = await startOpsIfConfigured(config, opsDeps(config, app, { queue: worker, runsCode: true })).catch(async (err: unknown) => {
      await worker.close();
      throw err;
    });
    keepRunningOnStrayErrors((err) => write(`unhandled error (the worker keeps running): ${(err as Error)?.stack ?? String(err)}`));
    process.stderr.write(
      `code-agent: worker running (queue "${settings.name}" at ${redactedUrl(settings.url)}, ${settings.concurrency} job(s) at once; ${Object.keys(platforms).join(', ')})\n`,
    );
    await untilStopSignal();
    process.stderr.write('code-agent: worker stopping (finishing its running jobs)…\n');
    await worker.close();
  } finally {
    await schedules?.close();
    await tickQueue?.close();
    await ops?.close();
    for (const port of ports) await port.close?.().catch(() => undefined);
    await app.close();
  }
  return 0;
}
