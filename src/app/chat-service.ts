/**
 * A chat platform's process, wired once for every platform: the mode is chosen here and nowhere
 * else. Embedded (no `queue.url`): the sandbox is checked at start (a machine that cannot isolate
 * refuses to serve rather than fail every run) and jobs run on a queue in this process with the
 * platform's outgoing port. Queue mode: this process is an ingress — it never calls the LLM
 * ({@link IngressOnlyLlm}) nor runs code — and admitted jobs go to Redis for `code-agent worker`.
 * Either way the platform's transport hands its requests to one {@link ChatIngress}.
 */
import type { Config } from '../config/schema.js';
import { createApp, type App, type AppOverrides } from './app.js';
import { IngressOnlyLlm } from '../queue/ingress-llm.js';
import { JobQueue } from '../queue/queue.js';
import { MemoryJobQueue } from '../chat/memory-queue.js';
import type { ChatQueue, PlatformJobs } from '../chat/job-queue.js';
import { Deliveries } from '../chat/deliveries.js';
import type { Admitter } from '../chat/admission.js';
import { createIngress } from '../chat/ingress.js';
import { requestJobs } from '../chat/request-jobs.js';
import type { ChatIngress, IncomingPort } from '../chat/incoming-port.js';
import type { OutgoingPort } from '../chat/port.js';
import { opsDeps } from '../health/parts.js';
import type { OpsDeps } from '../health/routes.js';
import { startOpsIfConfigured } from '../health/start.js';
import type { OpsServer } from '../health/ops-server.js';
import { startRetention } from '../history/retention.js';
import { runDeletion } from '../chat/run-deletion.js';
import { startSchedules, type SchedulesService } from './schedules-service.js';
import type { TickJobs } from '../chat/request-jobs.js';
import type { ChatSettings } from '../chat/chat-settings.js';
import type { PartsLog } from '../log/logger.js';

/** Where the service logs (Bolt's logger, pino through src/log/logger.ts's `partsLog`: any with these three). */
export type ChatLog = PartsLog;

/** What a platform gives the service. */
export interface ChatPlatformSpec<A, M, R> {
  incoming: IncomingPort<A>;
  /** Its outgoing port for the jobs this process runs (embedded only; a worker builds its own). */
  outgoing: (app: App) => OutgoingPort<M, R>;
  /**
   * Its shared chat settings (src/chat/chat-settings.ts): the bound of jobs per channel
   * (`max_queue_per_channel`) and how long delivery ids are remembered (`dedupe_ttl_s`).
   */
  settings: Pick<ChatSettings, 'maxQueuePerChannel' | 'dedupeTtlMs'>;
  log: ChatLog;
  /** Start the ops listener (`ops.port`) here (default true). */
  ops?: boolean;
}

/** A platform's running pipeline. */
export interface ChatService<A> {
  /** The entry the transport hands its requests to. */
  ingress: ChatIngress<A>;
  /** True in queue mode: this process only receives and enqueues. */
  queueMode: boolean;
  /** Dedupe of deliveries answered outside the entry (e.g. an admin command). */
  deliveries: Deliveries;
  /** `/healthz`, `/readyz`, `/metrics` of this process (for a transport that serves HTTP itself). */
  ops: OpsDeps;
  /** Jobs admitted here and not yet ended (0 in queue mode: workers run them). */
  readonly runningJobs: number;
  /** Stops taking jobs, waits for running ones (at most `graceMs`), closes the queue and the ops listener (not the app). */
  close(graceMs?: number): Promise<void>;
}

/** The jobs of a platform on a app, with its outgoing port (the app's own process, or a worker). */
export function platformJobs<M, R>(app: App, port: OutgoingPort<M, R>, log: ChatLog, ticks?: TickJobs): PlatformJobs & { close(): Promise<void> } {
  const name = port.platform;
  return requestJobs(
    {
      agent: app.agent,
      store: app.store,
      onInternalError: (err) => log.error(`${name}: a job failed: ${(err as Error)?.stack ?? String(err)}`),
      onWarning: (what, err) => log.warn(`${name}: ${what} failed: ${(err as Error)?.message ?? String(err)}`),
    },
    port,
    ticks,
  );
}

/**
 * Builds the core of a chat process: in queue mode without an LLM (an ingress never calls it).
 * @throws what {@link createApp} throws
 */
export async function createChatApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const queueMode = Boolean(config.queue.url);
  return createApp(config, queueMode ? { ...overrides, llm: overrides.llm ?? new IngressOnlyLlm() } : overrides);
}

/**
 * Starts a platform's pipeline on a built core (see the module comment).
 * @throws {SandboxUnavailableError} (embedded) when the sandbox cannot isolate here; {@link ConfigError}
 *   (queue mode) when Redis cannot be reached; when the ops listener cannot listen.
 */
export async function startChatService<A, M, R>(app: App, spec: ChatPlatformSpec<A, M, R>): Promise<ChatService<A>> {
  const { config } = app;
  const queueMode = Boolean(config.queue.url);
  const platform = spec.incoming.platform;
  let memory: MemoryJobQueue | undefined;
  let redis: JobQueue | undefined;
  let queue: ChatQueue;
  // the tick jobs are known once the schedules start (below); the in-memory queue asks for them then
  let ticks: TickJobs | undefined;
  const lateTicks: TickJobs = { run: (port, request, job) => ticks!.run(port, request, job), retry: (request) => ticks!.retry(request) };
  if (queueMode) {
    redis = await JobQueue.open(config, spec.settings.maxQueuePerChannel);
    queue = redis;
  } else {
    await app.executor.check();
    const jobs = platformJobs(app, spec.outgoing(app), spec.log, lateTicks);
    memory = new MemoryJobQueue({ [platform]: jobs }, spec.settings.maxQueuePerChannel, (what, err) => spec.log.error(`${platform}: ${what}: ${(err as Error)?.stack ?? String(err)}`));
    queue = memory;
  }
  app.metrics?.watchQueue(() => queue.counts());
  const deliveries = new Deliveries(app.store, spec.settings.dedupeTtlMs, (err) => spec.log.warn(`${platform}: deduplication unavailable: ${(err as Error)?.message ?? String(err)}`));
  const admitter: Admitter = {
    deliveries,
    queue,
    maxRequirementChars: app.agent.maxRequirementChars,
    onQueueError: (err) => spec.log.error(`${platform}: could not enqueue a job: ${(err as Error)?.message ?? String(err)}`),
    budgets: app.budgets,
    metrics: app.metrics,
  };
  const ops = opsDeps(config, app, { queue: redis, runsCode: !queueMode });
  let opsServer: OpsServer | undefined;
  try {
    if (spec.ops !== false) opsServer = await startOpsIfConfigured(config, ops);
  } catch (err) {
    await queue.close();
    throw err;
  }
  let schedules: SchedulesService;
  try {
    schedules = await startSchedules(app, queueMode ? 'ingress' : 'embedded', admitter, { info: () => undefined, warn: spec.log.warn.bind(spec.log), error: spec.log.error.bind(spec.log) });
  } catch (err) {
    await opsServer?.close();
    await queue.close();
    throw err;
  }
  ticks = schedules.ticks;
  // the chat processes own the store: they sweep it by age (one of them per period, by a lease in the store)
  const r = config.retention;
  const stopRetention = app.keyvStore
    ? startRetention(app.keyvStore, { runsDays: r.runs_days, filesDays: r.files_days }, r.sweep_every_min * 60_000, {
        artifactRoot: app.artifactRoot,
        log: (m) => spec.log.info(m),
        warn: (m) => spec.log.warn(m),
        counted: (what) => app.metrics?.retentionDeleted.inc({ what }),
      })
    : () => undefined;
  const ingress = createIngress(
    {
      store: app.store,
      workspaces: app.agent,
      admitter,
      memory: app.agent.memory,
      programs: app.agent.programs,
      ...(schedules.commands ? { schedules: schedules.commands } : {}),
      ...(app.keyvStore
        ? { deleteRun: runDeletion({ store: app.keyvStore, artifactRoot: app.artifactRoot, log: (m) => spec.log.info(m), counted: () => app.metrics?.runsDeleted.inc({ platform }) }) }
        : {}),
    },
    spec.incoming,
  );
  return {
    ingress,
    queueMode,
    deliveries,
    ops,
    get runningJobs() {
      return memory?.size ?? 0;
    },
    async close(graceMs) {
      stopRetention();
      await schedules.close();
      await opsServer?.close();
      await queue.close(graceMs);
    },
  };
}
