/**
 * What every platform says and records when a job's worker stopped before the job finished
 * (killed, machine lost; see src/queue/worker.ts): the run's `error`, the notice in its thread,
 * and the run marked failed instead of left "running".
 */
import type { HistoryStore, Run } from '../history/types.js';
import { INTERRUPTED } from '../history/stale-runs.js';

/** The `error` of a run whose worker stopped, and the start of what its thread is told. */
export const WORKER_STOPPED = 'interrupted: the worker running it stopped before it finished (killed, or its machine was lost)';

/** The notice for the thread (plain text; each adapter escapes it for its markup). */
export const WORKER_STOPPED_NOTICE = `${WORKER_STOPPED}. Nothing is running for it now: ask again, or reply in the thread to improve the last result.`;

/**
 * What replaces the notice when the run went on and ended after all (its worker was only paused
 * past its lock, not stopped); plain text.
 */
export const FALSE_ALARM = 'Not interrupted after all: the worker running it was only paused, and the run went on to its end (its result is in this thread).';

/** Result of {@link markInterrupted}: `ended` when the run had already ended by itself (then nothing may be said). */
export interface Interruption {
  run: Run | undefined;
  ended: boolean;
}

/**
 * Marks a run that is still `running` as failed with {@link WORKER_STOPPED}. "Interrupted" is
 * said only of a run that did not finish: a run that already has its final status is left alone (one
 * found interrupted when it was read, its process gone from this host, did not finish either).
 * @returns the run as stored now (undefined without a run) and whether it had already ended.
 * @throws the store's errors.
 */
export async function markInterrupted(store: HistoryStore, run: Run | undefined): Promise<Interruption> {
  if (!run) return { run, ended: false };
  if (run.status !== 'running') return { run, ended: run.error !== INTERRUPTED };
  const failed: Run = { ...run, status: 'failed', error: WORKER_STOPPED, updatedAt: new Date().toISOString() };
  delete failed.runningIn;
  await store.saveRun(failed);
  return { run: failed, ended: false };
}
