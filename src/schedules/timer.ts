/**
 * Embedded mode's scheduler: a timer in the process per schedule, over the schedule records of the
 * store (src/schedules/scheduler.ts). Each timer waits for the schedule's next tick (the
 * cron line in its zone, evaluated by cron-parser as BullMQ does), hands the tick on, and waits for
 * the next.
 *
 * Ticks missed while no process ran (the app was down at a tick's time): at start, a schedule whose
 * cron line fired since its last handled tick (or since it was made) runs ONCE at once, and its post
 * says how many runs were due meanwhile. Older ticks are not run one by one.
 *
 * Two embedded processes on one store (two terminals' sessions do not run schedules; two chat apps
 * without a queue would) both time every tick: the delivery id of a tick makes it run once.
 */
import type { Schedule } from '../history/programs.js';
import type { ScheduleBackend } from '../history/schedules.js';
import type { Scheduler } from './scheduler.js';
import type { TickToAdmit } from './admit-tick.js';
import { nextTicks } from './when.js';
import cronParser from 'cron-parser';

/** The longest a Node timer waits (2^31 − 1 ms, about 24.8 days); longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Most missed ticks counted for the catch-up's note (beyond it: "more than"). */
export const MAX_MISSED_COUNTED = 1000;

/** What the timer scheduler uses. */
export interface TimerDeps {
  schedules: ScheduleBackend;
  /** Hands a tick on (to admission). Its errors are told to `warn`. */
  tick(tick: TickToAdmit): Promise<void>;
  warn(what: string, err: unknown): void;
  /** The clock, ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * The ticks of a cron line after `after` and at or before `at`: the last of them and how many there
 * were (at most {@link MAX_MISSED_COUNTED}).
 */
export function missedTicks(cron: string, timezone: string, after: Date, at: Date): { last: Date; count: number } | undefined {
  const it = cronParser.parseExpression(cron, { tz: timezone, currentDate: after, endDate: at });
  let last: Date | undefined;
  let count = 0;
  while (count < MAX_MISSED_COUNTED && it.hasNext()) {
    last = it.next().toDate();
    count++;
  }
  return last ? { last, count } : undefined;
}

/** See the module comment. */
export class TimerScheduler implements Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly deps: TimerDeps) {
    this.now = deps.now ?? Date.now;
  }

  async start(): Promise<void> {
    const all = await this.deps.schedules.all();
    for (const schedule of all) {
      if (schedule.paused) continue;
      const since = new Date(schedule.state.lastTickAt ?? schedule.createdAt);
      const missed = missedTicks(schedule.cron, schedule.timezone, since, new Date(this.now()));
      if (missed) {
        // run once now, for every tick missed while no process ran
        this.hand({ scheduleId: schedule.id, conversationId: schedule.conversationId, tickAt: missed.last.getTime(), missed: missed.count });
      }
      await this.add(schedule);
    }
  }

  async add(schedule: Schedule): Promise<void> {
    this.clear(schedule.id);
    if (this.closed || schedule.paused) return;
    this.arm(schedule, this.now());
  }

  async remove(schedule: Pick<Schedule, 'id'>): Promise<void> {
    this.clear(schedule.id);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.timers.keys()]) this.clear(id);
  }

  /** Schedules ids with a timer (tests, /healthz). */
  get size(): number {
    return this.timers.size;
  }

  /** Waits for the next tick after `from` and hands it on, then arms the following one. */
  private arm(schedule: Schedule, from: number): void {
    let next: number;
    try {
      next = nextTicks(schedule.cron, schedule.timezone, new Date(from), 1)[0]!.getTime();
    } catch (err) {
      this.deps.warn(`reading the cron line of schedule ${schedule.id}`, err);
      return;
    }
    const wait = () => {
      const left = next - this.now();
      if (left > MAX_TIMER_MS) {
        this.set(schedule.id, setTimeout(wait, MAX_TIMER_MS));
        return;
      }
      this.set(
        schedule.id,
        setTimeout(() => {
          if (this.closed) return;
          this.hand({ scheduleId: schedule.id, conversationId: schedule.conversationId, tickAt: next });
          this.arm(schedule, next);
        }, Math.max(0, left)),
      );
    };
    wait();
  }

  private hand(tick: TickToAdmit): void {
    this.deps.tick(tick).catch((err: unknown) => this.deps.warn(`the tick of schedule ${tick.scheduleId} at ${new Date(tick.tickAt).toISOString()}`, err));
  }

  private set(id: string, timer: NodeJS.Timeout): void {
    timer.unref();
    this.timers.set(id, timer);
  }

  private clear(id: string): void {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
  }
}
