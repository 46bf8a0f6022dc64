/**
 * Queue mode's scheduler: each schedule is one BullMQ job scheduler
 * (https://docs.bullmq.io/guide/job-schedulers) on the ticks queue (`<queue.name>-schedules`),
 * `upsertJobScheduler(<schedule id>, { pattern: <cron>, tz: <zone> })`. Redis keeps it: BullMQ
 * makes exactly one job per tick (its id `repeat:<schedule id>:<tick ms>`) however many processes
 * upsert it, restarts included, and `removeJobScheduler` ends it. A tick due while no process took
 * jobs waits as one job and runs once when one does (BullMQ then computes the next tick from
 * then): that is queue mode's catch-up.
 *
 * Every queue-mode process (ingresses and workers) consumes the ticks queue: a tick job is only its
 * admission (src/schedules/admit-tick.ts: dedupe, budgets, limits), which turns it into a
 * chat job for the workers. A tick job whose process died is taken again after its lock expires
 * (`maxStalledCount` > 0): admission is idempotent (the tick's delivery id, the chat job's id).
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config/schema.js';
import { closeConnection, workerConnection } from './connection.js';
import { queueSettings } from './queue.js';
import type { Schedule } from '../history/programs.js';
import type { ScheduleBackend } from '../history/schedules.js';
import type { Scheduler } from '../schedules/scheduler.js';
import type { TickToAdmit } from '../schedules/admit-tick.js';

/** The data of a tick job (the tick's time is in its id). */
export interface TickJobData {
  scheduleId: string;
  conversationId: string;
}

/** How long a process's lock on a tick job lasts, in ms (a tick job is only its admission: short). */
export const TICK_LOCK_MS = 10_000;

/** How many times a tick is offered to admission while its channel's queue is full (every {@link TICK_ADMIT_BACKOFF_MS}). */
export const TICK_ADMIT_TRIES = 40;
/** The wait between two offers, in ms. */
export const TICK_ADMIT_BACKOFF_MS = 3_000;

/** How many times a tick job whose process died is taken again. */
export const TICK_STALLED_TRIES = 5;

/** The ticks queue's name for a chat queue's name. */
export function ticksQueueName(config: Config): string {
  return `${queueSettings(config).name}-schedules`;
}

/** When a tick job was due, ms since the epoch: from its id (`repeat:<id>:<ms>`), else its options. */
export function tickTimeOf(job: Pick<Job, 'id' | 'opts' | 'timestamp' | 'delay'>): number {
  const m = /:(\d{10,})$/.exec(job.id ?? '');
  if (m) return Number(m[1]);
  const prev = (job.opts as { prevMillis?: number }).prevMillis;
  return typeof prev === 'number' ? prev : job.timestamp + (job.delay ?? 0);
}

/** See the module comment: the job schedulers of the store's schedules. */
export class QueueScheduler implements Scheduler {
  private constructor(
    private readonly redis: Redis,
    private readonly queue: Queue<TickJobData>,
    private readonly schedules: ScheduleBackend,
  ) {}

  /** Connects to `queue.url`. @throws {ConfigError} without it */
  static open(config: Config, schedules: ScheduleBackend): QueueScheduler {
    const redis = workerConnection(queueSettings(config).url);
    redis.on('error', () => {
      /* each command reports its own failure */
    });
    const queue = new Queue<TickJobData>(ticksQueueName(config), { connection: redis });
    queue.on('error', () => {
      /* reported to the callers */
    });
    return new QueueScheduler(redis, queue, schedules);
  }

  async add(schedule: Schedule): Promise<void> {
    if (schedule.paused) return this.remove(schedule);
    await this.queue.upsertJobScheduler(
      schedule.id,
      { pattern: schedule.cron, tz: schedule.timezone },
      {
        name: 'tick',
        data: { scheduleId: schedule.id, conversationId: schedule.conversationId },
        // a tick the channel's queue bound refused is admitted again later (never lost for a busy channel)
        opts: { removeOnComplete: 1000, removeOnFail: 1000, attempts: TICK_ADMIT_TRIES, backoff: { type: 'fixed', delay: TICK_ADMIT_BACKOFF_MS } },
      },
    );
  }

  async remove(schedule: Pick<Schedule, 'id'>): Promise<void> {
    await this.queue.removeJobScheduler(schedule.id);
  }

  async start(): Promise<void> {
    const live = (await this.schedules.all()).filter((s) => !s.paused);
    const ids = new Set(live.map((s) => s.id));
    for (const s of live) await this.add(s);
    // a schedule removed while this process was away keeps no job scheduler
    for (const js of await this.queue.getJobSchedulers(0, -1)) {
      const id = js.key;
      if (id && !ids.has(id)) await this.queue.removeJobScheduler(id);
    }
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    await closeConnection(this.redis);
  }
}

/** A running consumer of the ticks queue. */
export interface TickConsumer {
  close(): Promise<void>;
}

/**
 * Consumes the ticks queue: each tick job is handed to `admit` (its admission as a chat job).
 * @param admit admits one tick; throws when it could not (a busy channel: the job is tried again later, at most {@link TICK_ADMIT_TRIES} times)
 */
export async function startTickConsumer(config: Config, admit: (tick: TickToAdmit) => Promise<void>, log: { error(message: string, err?: unknown): void }): Promise<TickConsumer> {
  const redis = workerConnection(queueSettings(config).url);
  const worker = new Worker<TickJobData>(
    ticksQueueName(config),
    async (job) => admit({ scheduleId: job.data.scheduleId, conversationId: job.data.conversationId, tickAt: tickTimeOf(job), offer: job.attemptsMade + 1 }),
    { connection: redis, concurrency: 4, lockDuration: TICK_LOCK_MS, stalledInterval: TICK_LOCK_MS / 2, maxStalledCount: TICK_STALLED_TRIES },
  );
  worker.on('failed', (job, err) => {
    if (job && job.attemptsMade < (job.opts.attempts ?? 1)) return; // tried again later
    log.error(`tick ${job?.id ?? '?'} could not be admitted`, err);
  });
  worker.on('error', (err) => log.error('ticks queue error', err));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await closeConnection(redis);
    },
  };
}
