/**
 * A tick of a schedule becomes a chat job through the same admission as a person's request
 * (src/chat/admission.ts): dedupe by the delivery id `schedule:<id>:<tick time>` (so a tick made
 * twice, by two timers or a tick job taken again after its process died, is queued once; the tick
 * itself also knows the ticks it handled, src/schedules/tick.ts), the channel's and the creator's daily token
 * budgets, the channel's queue bound, the metrics of refusals; the job counts for the channel and
 * the schedule's creator, as their own requests do. No access check: the person was checked when
 * the schedule was made, and a tick has nobody to answer.
 */
import type { Admitter } from '../chat/admission.js';
import { admit } from '../chat/admission.js';
import { jobIdOf } from '../chat/job-queue.js';
import type { AdmissionResult } from '../chat/incoming-port.js';
import type { ScheduleBackend } from '../history/schedules.js';
import { tickRequest } from './tick-post.js';

/** Most tries of one tick whose worker stopped (the first included). */
export const MAX_TICK_TRIES = 3;

/** What became of a tick at admission: a schedule removed or paused meanwhile makes no job. */
export type TickAdmission = AdmissionResult | { outcome: 'gone' };

/** One tick to admit. */
export interface TickToAdmit {
  scheduleId: string;
  conversationId: string;
  /** When it was due, ms since the epoch. */
  tickAt: number;
  /** Ticks missed while no scheduler ran (this one runs for them). */
  missed?: number;
  /** A try after a worker stopped (2, 3…): a job of its own, not deduplicated (the tick's run knows whether it was posted). */
  retry?: number;
  /**
   * The offer to admission, from 2 on when an earlier one found the channel's queue full (admission
   * records the delivery id before it checks the bound: a later offer has an id of its own).
   */
  offer?: number;
}

/**
 * Admits one tick (see the module comment). Never throws for a refusal; throws when the store cannot
 * read the schedule.
 */
export async function admitTick(admitter: Admitter, schedules: ScheduleBackend, tick: TickToAdmit): Promise<TickAdmission> {
  const schedule = await schedules.get(tick.conversationId, tick.scheduleId);
  if (!schedule || schedule.paused) return { outcome: 'gone' };
  const request = tickRequest(schedule, tick.tickAt, tick.missed);
  if (tick.retry) request.scheduled = { ...request.scheduled!, retry: tick.retry };
  if (tick.offer && tick.offer > 1) request.deliveryId = `${request.deliveryId!}:offer${tick.offer}`;
  const jobId = jobIdOf(request.platform, 'tick', `${request.deliveryId!}${tick.retry ? `-try${tick.retry}` : ''}`);
  return admit(admitter, {
    refusal: undefined,
    request,
    deliveryId: tick.retry ? undefined : request.deliveryId,
    jobId,
    job: { platform: request.platform, kind: 'tick', limit: { jobId, channel: request.where.conversation, user: request.who.key ?? `${request.platform}:user:${request.who.userId}` }, payload: request },
  });
}
