/**
 * Admission of a chat request, in one declared order for every platform and both modes:
 *
 * 1. access — who may ask where (the platform's lists); a refusal costs nothing else;
 * 2. the request — a new run's requirement within the agent's limit, the platform's own checks
 *    (e.g. the run a button names still exists);
 * 3. dedupe — a delivery seen before (in memory, then in the store) is dropped;
 * 4. budgets — a request that calls the LLM (not a Re-run) is refused while its channel's or its
 *    user's daily token budget is spent (`limits.budgets`, counted in the store: src/usage/budgets.ts);
 *    a store that cannot say lets it through;
 * 5. limits — one job per user, a bounded queue per channel; a request on an existing run (a reply,
 *    Re-run, Improve) is never refused for its busy user: it waits its turn. The admitted job goes
 *    on the queue.
 *
 * Every refusal is counted by reason (`code_agent_admissions_refused_total`).
 *
 * The platform turns the {@link AdmissionResult} into its answer (an ack, an ephemeral message, a
 * reply in the thread). Nothing here knows whether the queue is in memory or in Redis.
 */
import { accountOfJob, type ChatJobData, type ChatQueue } from './job-queue.js';
import type { Budgets } from '../usage/budgets.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Deliveries } from './deliveries.js';
import { busyText, couldNotQueueText, queuedText, tooLongText } from './messages.js';
import { startsRun, type AdmissionResult, type IncomingRequest } from './incoming-port.js';

/** What admission uses: the dedupe, the queue, the agent's requirement limit, and a log for queue errors. */
export interface Admitter {
  deliveries: Deliveries;
  queue: ChatQueue;
  /** Longest requirement the agent takes, in characters. */
  maxRequirementChars: number;
  onQueueError(err: unknown): void;
  /** The daily token budgets (step 4); undefined: none. */
  budgets?: Budgets;
  /** Counts refusals; undefined: not counted. */
  metrics?: Metrics;
}

/** One request to admit. */
export interface AdmissionRequest {
  /** Step 1: the platform's access decision (undefined: allowed), made by the caller from its lists. */
  refusal: string | undefined;
  /** Steps 2 and 4: what is asked (a new run's requirement is checked; a job on an existing run waits its turn). */
  request: Pick<IncomingRequest, 'kind' | 'text'>;
  /** Step 2: the platform's check of the request (undefined: valid, else why not). */
  check?: () => Promise<string | undefined>;
  /** Step 3: the delivery's id (e.g. `slack:command:<trigger_id>`); undefined: not deduplicated. */
  deliveryId: string | undefined;
  /** Step 4: the job (its limit key's `waitsForUser` is set here, from the request). */
  jobId: string;
  job: Omit<ChatJobData, 'enqueuedAt'>;
  /** Runs once the job is admitted, before it can start (see {@link ChatQueue.submit}). */
  beforeAdd?: (ahead: number) => Promise<void>;
}

export type { AdmissionResult } from './incoming-port.js';

/** Admits a request (see the module comment). Never throws. */
export async function admit(admitter: Admitter, req: AdmissionRequest): Promise<AdmissionResult> {
  const result = await decide(admitter, req);
  const reason = result.outcome === 'refused' ? result.step : result.outcome === 'busy' ? result.reason : result.outcome === 'unavailable' ? 'unavailable' : undefined;
  if (reason) admitter.metrics?.admissionsRefused.inc({ platform: req.job.platform, reason });
  return result;
}

async function decide(admitter: Admitter, req: AdmissionRequest): Promise<AdmissionResult> {
  if (req.refusal !== undefined) return { outcome: 'refused', step: 'access', text: req.refusal };
  const { request } = req;
  if (startsRun(request.kind) && request.text.length > admitter.maxRequirementChars) {
    return { outcome: 'refused', step: 'request', text: tooLongText(request.text.length, admitter.maxRequirementChars) };
  }
  const invalid = await req.check?.();
  if (invalid !== undefined) return { outcome: 'refused', step: 'request', text: invalid };
  const seenIn = await admitter.deliveries.seen(req.deliveryId);
  if (seenIn) return { outcome: 'duplicate', seenIn };
  // a re-run, a choice and a team program's run or save make no LLM call
  if (admitter.budgets && !['rerun', 'settle', 'program_run', 'program_save'].includes(request.kind)) {
    const spent = await admitter.budgets.refusal(accountOfJob(req.job)).catch(() => undefined);
    if (spent !== undefined) {
      admitter.metrics?.budgetRefusals.inc({ budget: spent.budget, stage: 'admission' });
      return { outcome: 'refused', step: 'budget', text: spent.text };
    }
  }
  try {
    const limit = { ...req.job.limit, ...(startsRun(request.kind) ? {} : { waitsForUser: true }) };
    const admission = await admitter.queue.submit(req.jobId, { ...req.job, limit }, req.beforeAdd);
    if (!admission.accepted) return { outcome: 'busy', reason: admission.reason, text: busyText(admission.reason) };
    return { outcome: 'queued', ahead: admission.ahead, text: admission.ahead > 0 ? queuedText(admission.ahead) : undefined };
  } catch (err) {
    admitter.onQueueError(err);
    return { outcome: 'unavailable', text: couldNotQueueText(err as Error) };
  }
}
