/**
 * What every platform says and records when a job's worker stopped before the job finished
 * (killed, machine lost; see src/queue/worker.ts): the run's `error`, the notice in its thread,
 * and the run marked failed instead of left "running".
 */
import type { HistoryStore, Run } from '../history/types.js';

/** The `error` of a run whose worker stopped, and the start of what its thread is told. */
export const WORKER_STOPPED = 'interrupted: the worker running it stopped before it finished (killed, or its machine was lost)';

/** The notice for the thread (plain text; each adapter escapes it for its markup). */
export const WORKER_STOPPED_NOTICE = `${WORKER_STOPPED}. Nothing is running for it now: ask again, or reply in the thread to improve the last result.`;

/**
 * Marks a run that is still `running` as failed with {@link WORKER_STOPPED}.
 * @returns the run as stored now (unchanged when it had already ended), or undefined without a run.
 * @throws the store's errors.
 */
export async function markInterrupted(store: HistoryStore, run: Run | undefined): Promise<Run | undefined> {
  if (run?.status !== 'running') return run;
  const failed: Run = { ...run, status: 'failed', error: WORKER_STOPPED, updatedAt: new Date().toISOString() };
  delete failed.runningIn;
  await store.saveRun(failed);
  return failed;
}
