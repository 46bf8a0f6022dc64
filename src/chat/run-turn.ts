/**
 * Jobs on one run take turns. A reply, a Re-run or an Improve of a run whose job is still at work
 * (on another queue worker, say) waits until that job ends, instead of working from a run that is
 * being changed; the thread says it is queued. In one process the chat queue already runs a
 * channel's jobs in order, so there the turn comes at once.
 */
import type { HistoryStore, Run } from '../history/types.js';
import { setTimeout as delay } from 'node:timers/promises';

/** How often a waiting job reads the run again, in ms. */
export const TURN_POLL_MS = 250;

/** What the thread is told while a job waits for its run. */
export const WAITING_FOR_RUN = '⏳ Queued: this run is still at work; your request starts when it ends.';

/**
 * Waits until a run is no longer `running`.
 * @param timeoutMs the longest wait, in ms (then the job goes ahead with the run as it is)
 * @param onWait called once, when the job has to wait
 * @returns the run as stored when its turn came; undefined when it is not in the history
 * @throws the store's errors
 */
export async function waitForRunTurn(
  store: HistoryStore,
  conversationId: string,
  runId: string,
  options: { timeoutMs: number; onWait: () => Promise<void> },
): Promise<Run | undefined> {
  const until = Date.now() + options.timeoutMs;
  let told = false;
  for (;;) {
    const run = await store.getRun(conversationId, runId);
    if (!run || run.status !== 'running' || Date.now() >= until) return run;
    if (!told) {
      told = true;
      await options.onWait();
    }
    await delay(TURN_POLL_MS);
  }
}
