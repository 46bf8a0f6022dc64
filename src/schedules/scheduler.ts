/**
 * The scheduler: what makes ticks of the store's schedules, in one of two ways chosen with the
 * mode (src/app/chat-service.ts, src/app/worker-process.ts):
 *
 * - embedded: {@link TimerScheduler} (`timer.ts`), a timer in the process, over the same schedule
 *   records; a tick missed while no process ran is run once at start, and its post says so;
 * - queue mode: BullMQ job schedulers (src/queue/schedules.ts): each schedule is one job
 *   scheduler in Redis (`upsertJobScheduler(id, { pattern, tz })`), upserted by every ingress at
 *   start and when a schedule is made, so exactly one job is made per tick however many processes
 *   run; workers turn each tick into a chat job.
 *
 * Either way a tick becomes a chat job through the same admission as a person's request
 * (`admit-tick.ts`), and the job runs it (`tick.ts`).
 */
import type { Schedule } from '../history/programs.js';

/** What makes a schedule's ticks. */
export interface Scheduler {
  /** Starts (or restarts, with its current cron line and zone) the ticks of a schedule. Idempotent. */
  add(schedule: Schedule): Promise<void>;
  /** Stops the ticks of a schedule (removed or paused). Idempotent. */
  remove(schedule: Pick<Schedule, 'id' | 'conversationId'>): Promise<void>;
  /** Schedules every live, unpaused schedule of the store (once, at start), and drops ticks of schedules gone. */
  start(): Promise<void>;
  /** Stops making ticks. */
  close(): Promise<void>;
}
