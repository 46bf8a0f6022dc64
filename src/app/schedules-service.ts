/**
 * Schedules wired once for every process kind (src/schedules):
 *
 * - an embedded chat app: the timer scheduler ({@link TimerScheduler}) over the store's schedules,
 *   ticks admitted on the app's in-memory queue and run by its own jobs;
 * - a queue-mode ingress: BullMQ job schedulers ({@link QueueScheduler}) upserted at start and by
 *   `/schedule`; it consumes the ticks queue (a tick is only admitted there, never run);
 * - a queue worker: it consumes the ticks queue too, and runs tick jobs like any chat job.
 *
 * A store that keeps no schedules gets none of it (the commands say so).
 */
import type { App } from './app.js';
import { slackSchema, type Config } from '../config/schema.js';
import type { Admitter } from '../chat/admission.js';
import type { TickJobs } from '../chat/request-jobs.js';
import type { ScheduleBackend } from '../history/schedules.js';
import type { Schedule } from '../history/programs.js';
import { InputError } from '../config/errors.js';
import { programMark } from '../programs/text.js';
import { ScheduleCommands, type ProgramLookup } from '../schedules/commands.js';
import { admitTick, MAX_TICK_TRIES, type TickToAdmit } from '../schedules/admit-tick.js';
import { runTick, type TickDeps } from '../schedules/tick.js';
import type { TickRunner } from '../schedules/tick-runner.js';
import type { Scheduler } from '../schedules/scheduler.js';
import { TimerScheduler } from '../schedules/timer.js';
import { QueueScheduler, startTickConsumer, TICK_ADMIT_BACKOFF_MS, TICK_ADMIT_TRIES, type TickConsumer } from '../queue/schedules.js';
import { workspaceLine } from '../chat/workspace-view.js';

/** Where the service logs. */
export interface SchedulesLog {
  info(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  error(...msg: unknown[]): void;
}

/** The schedules of one process. */
export interface SchedulesService {
  /** `/schedule`, `/schedules`, `/unschedule` (ingress and embedded app). */
  commands?: ScheduleCommands;
  /** The tick jobs (embedded app and worker). */
  ticks?: TickJobs;
  /** The mode's scheduler (embedded app and ingress). */
  scheduler?: Scheduler;
  close(): Promise<void>;
}

/** The team programs' runner as a tick needs it: the program prepared by name, run as a new run (no LLM call). */
export function programTickRunner(app: Pick<App, 'agent' | 'store'>): TickRunner {
  return {
    async run(schedule, runId) {
      const given = Object.fromEntries(Object.entries(schedule.params).map(([k, v]) => [k, String(v)]));
      let prepared;
      try {
        prepared = await app.agent.programs.prepare(schedule.conversationId, schedule.program, given);
      } catch (err) {
        if (err instanceof InputError) return { refused: err.message };
        throw err;
      }
      const run = await app.agent.runProgram(schedule.conversationId, prepared, { runId, requestedBy: schedule.createdBy });
      const manifest = await app.store.getWorkspace(schedule.conversationId, run.id).catch(() => ({ files: [] }));
      const inputs = manifest.files.filter((f) => f.origin.kind === 'input').map((f) => ({ name: f.name, hash: f.hash }));
      return { run, inputs, mark: programMark(run)?.text ?? `team program \`${schedule.program}\`` };
    },
  };
}

/** The program a `/schedule` names, checked by the team programs (its parameter values read by type). */
export function programLookup(app: Pick<App, 'agent'>): ProgramLookup {
  return async (conversationId, name, params) => {
    try {
      const prepared = await app.agent.programs.prepare(conversationId, name, params);
      return { params: prepared.values };
    } catch (err) {
      if (err instanceof InputError) return { refused: err.message };
      throw err;
    }
  };
}

/** How people resume a paused schedule on a platform (said in the pause's post). */
export function resumeText(config: Config, schedule: Pick<Schedule, 'id' | 'platform'>): string {
  const name = schedule.platform === 'slack' ? ((config.slack ?? slackSchema.parse({})).commands.schedules) : schedule.platform === 'matrix' ? '!schedules' : '/schedules';
  return `${name} resume ${schedule.id}`;
}

/** The tick jobs of a process that runs jobs. */
function tickJobs(app: App, schedules: ScheduleBackend, admit: (tick: TickToAdmit) => Promise<void>, log: SchedulesLog): TickJobs {
  const deps: TickDeps = {
    store: app.store,
    schedules,
    runner: programTickRunner(app),
    workspace: async (run) => workspaceLine(await app.agent.workspace(run)),
    resumeText: (s) => resumeText(app.config, s),
    warn: (what, err) => log.warn(`schedules: ${what}${err ? `: ${(err as Error)?.message ?? String(err)}` : ''}`),
    onOutcome: (s, tickAt, outcome) => log.info(`schedule ${s?.id ?? '?'} tick ${new Date(tickAt).toISOString()}: ${outcome}`),
  };
  return {
    async run(port, request, job) {
      await runTick(deps, port, request, job);
    },
    async retry(request) {
      const t = request.scheduled;
      if (!t) return;
      const next = (t.retry ?? 1) + 1;
      if (next > MAX_TICK_TRIES) return log.error(`schedule ${t.id}: the tick of ${new Date(t.tickAt).toISOString()} stopped with its worker ${MAX_TICK_TRIES} times; it is not tried again`);
      log.warn(`schedule ${t.id}: the worker of the tick of ${new Date(t.tickAt).toISOString()} stopped; trying it again (try ${next})`);
      await admit({ scheduleId: t.id, conversationId: request.where.conversation, tickAt: t.tickAt, ...(t.missed ? { missed: t.missed } : {}), retry: next }).catch((err: unknown) =>
        log.error(`schedule ${t.id}: the tick could not be tried again: ${(err as Error)?.message ?? String(err)}`),
      );
    },
  };
}

/**
 * Starts the schedules of a process (see the module comment).
 * @param role `embedded` (a chat app without a queue), `ingress` (queue mode's chat process) or `worker`
 * @param admitter how ticks are admitted (the process's queue, dedupe, budgets, metrics)
 * @throws the store's or Redis's errors at start
 */
export async function startSchedules(app: App, role: 'embedded' | 'ingress' | 'worker', admitter: Admitter, log: SchedulesLog): Promise<SchedulesService> {
  const schedules = app.store.schedules;
  if (!schedules) return { close: async () => undefined };
  /** Admits a tick once; throws when its channel's queue is full or the queue is down (to be offered again). */
  const admitOnce = async (tick: TickToAdmit) => {
    const result = await admitTick(admitter, schedules, tick);
    const when = new Date(tick.tickAt).toISOString();
    if (result.outcome === 'busy' || result.outcome === 'unavailable') throw new Error(`schedule ${tick.scheduleId}: the tick of ${when} waits: ${result.text}`);
    if (result.outcome === 'refused') log.warn(`schedule ${tick.scheduleId}: the tick of ${when} was not run: ${result.text}`);
  };
  /** In this process: offered again every few seconds while its channel is busy (queue mode: BullMQ's attempts do it). */
  const admit = async (tick: TickToAdmit) => {
    for (let tries = 1; ; tries++) {
      try {
        return await admitOnce({ ...tick, offer: tries });
      } catch (err) {
        if (tries >= TICK_ADMIT_TRIES) throw err;
        await new Promise((r) => setTimeout(r, TICK_ADMIT_BACKOFF_MS));
      }
    }
  };
  const ticks = role === 'ingress' ? undefined : tickJobs(app, schedules, admit, log);
  let scheduler: Scheduler | undefined;
  let consumer: TickConsumer | undefined;
  const warn = (what: string, err: unknown) => log.warn(`schedules: ${what}: ${(err as Error)?.message ?? String(err)}`);
  if (role === 'embedded') {
    scheduler = new TimerScheduler({ schedules, tick: admit, warn });
  } else {
    consumer = await startTickConsumer(app.config, admitOnce, { error: (m, err) => log.error(`schedules: ${m}${err ? `: ${(err as Error)?.message ?? String(err)}` : ''}`) });
    if (role === 'ingress') scheduler = QueueScheduler.open(app.config, schedules);
  }
  try {
    await scheduler?.start();
  } catch (err) {
    await scheduler?.close();
    await consumer?.close();
    throw err;
  }
  const limits = { maxPerConversation: app.config.schedules.max_per_channel };
  const zones = { timezone: app.config.schedules.timezone, channelZones: app.config.schedules.channel_timezones };
  const commands = scheduler ? new ScheduleCommands({ schedules, limits, zones, program: programLookup(app), scheduler }) : undefined;
  return {
    ...(commands ? { commands } : {}),
    ...(ticks ? { ticks } : {}),
    ...(scheduler ? { scheduler } : {}),
    async close() {
      await scheduler?.close();
      await consumer?.close();
    },
  };
}
