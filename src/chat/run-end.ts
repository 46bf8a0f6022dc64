/**
 * A chat job whose agent call threw instead of ending its run (the history store refused a write,
 * e.g. its disk was full): the run must not stay `running` in the history once the job is over.
 * Shared by every chat platform.
 */
import type { HistoryStore, Run } from '../history/types.js';
import { givenUpHere } from '../history/stale-runs.js';
import { boundLine } from '../text/cut.js';

/** Longest reason kept in a run's `error`, in characters. */
const REASON_MAX_CHARS = 500;

/**
 * Ends a run that is still stored `running` as `failed` with `reason`. When the store refuses
 * (read or write), the run is given up in this process (a later read of it ends it, see
 * `givenUpHere`) and the returned note says so for the thread.
 * @param runId the run's id; undefined when the call threw before the run was stored (nothing to do)
 * @returns a plain-text note for the thread when the history could not be updated, else undefined.
 */
export async function endThrownRun(store: HistoryStore, conversationId: string, runId: string | undefined, reason: string): Promise<string | undefined> {
  if (!runId) return undefined;
  const error = boundLine(reason, REASON_MAX_CHARS);
  try {
    const run = await store.getRun(conversationId, runId);
    if (run?.status !== 'running') return undefined;
    const failed: Run = { ...run, status: 'failed', error, updatedAt: new Date().toISOString() };
    delete failed.runningIn;
    await store.saveRun(failed);
    return undefined;
  } catch (err) {
    givenUpHere(runId, error);
    return `The history could not record how this run ended (${boundLine((err as Error)?.message ?? String(err), 300)}). Nothing is running for it now; /history shows it as failed once the store accepts writes again.`;
  }
}
