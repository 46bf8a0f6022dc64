/**
 * One turn at a time per run: the agent takes the run's turn lease in the history store for the
 * length of a call (run, improve, execute), renewing it while the call goes on. A second call on
 * the same run — another reply, another worker on another host — waits for it (and says so once)
 * instead of working on the same workspace at the same time. A lease left by a process that was
 * killed is not renewed and expires after {@link TURN_LEASE_MS}.
 */
import { randomUUID } from 'node:crypto';
import type { HistoryStore } from '../../history/types.js';
import { thisProcess } from '../../history/process-identity.js';
import { InputError } from '../../config/errors.js';

/** How long a turn lease lasts without renewal, in ms (the longest a killed process blocks its run). */
export const TURN_LEASE_MS = 30_000;
/** How often a held lease is renewed, in ms. */
export const TURN_RENEW_MS = 10_000;
/** How often a waiting call tries to take the lease, in ms. */
export const TURN_POLL_MS = 250;

/** A turn lease held by this call. */
export interface HeldTurn {
  /** True when the call had to wait for another turn. */
  waited: boolean;
  /** Stops renewing and ends the lease (never throws). */
  release(): Promise<void>;
}

/** Another turn of the run went on longer than this call could wait; nothing was done. */
export class TurnBusyError extends InputError {
  override name = 'TurnBusyError';
}

/**
 * Takes the run's turn lease, waiting at most `waitMs` ms for another turn to end.
 * @param onQueued called once, when the lease is held by another turn (before waiting)
 * @throws {TurnBusyError} when the wait ends (or `signal` aborts) before the lease is free
 * @throws {HistoryError} when the store fails
 */
export async function takeTurn(
  store: HistoryStore,
  runId: string,
  options: { waitMs: number; signal?: AbortSignal; onQueued?: () => void; log?: (message: string) => void },
): Promise<HeldTurn> {
  const owner = `${thisProcess()}/${randomUUID()}`;
  const until = Date.now() + options.waitMs;
  let waited = false;
  while (!(await store.takeTurn(runId, owner, TURN_LEASE_MS))) {
    if (!waited) options.onQueued?.();
    waited = true;
    if (options.signal?.aborted) throw new TurnBusyError('cancelled while waiting for the current turn of this run to end');
    if (Date.now() >= until) {
      throw new TurnBusyError(
        `another request on this run was still going after ${Math.round(options.waitMs / 1000)} s; nothing was done: ask again when it has finished`,
      );
    }
    await new Promise((r) => setTimeout(r, TURN_POLL_MS));
  }
  const renew = setInterval(() => {
    store.takeTurn(runId, owner, TURN_LEASE_MS).then(
      (held) => {
        if (!held) options.log?.(`the turn lease of run ${runId} was lost (the store was unreachable longer than ${TURN_LEASE_MS / 1000} s)`);
      },
      (err: unknown) => options.log?.(`cannot renew the turn lease of run ${runId}: ${(err as Error).message}`),
    );
  }, TURN_RENEW_MS);
  renew.unref();
  return {
    waited,
    release: async () => {
      clearInterval(renew);
      await store.releaseTurn(runId, owner).catch((err: unknown) => options.log?.(`cannot end the turn lease of run ${runId}: ${(err as Error).message}`));
    },
  };
}
