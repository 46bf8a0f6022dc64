/**
 * One tick of a schedule at a time, across processes: a lease in the history store
 * (`HistoryStore.takeTurn`, atomic on every backend) on `schedule:<conversation>:<id>`, renewed
 * while the tick runs. Shorter than a run's turn lease: a tick whose worker was killed holds up the
 * next ones for at most {@link SCHEDULE_LEASE_MS}.
 */
import { randomUUID } from 'node:crypto';
import type { HistoryStore } from '../history/types.js';
import { thisProcess } from '../history/process-identity.js';

/** How long the lease lasts without renewal, in ms. */
export const SCHEDULE_LEASE_MS = 8_000;
/** How often a held lease is renewed, in ms. */
const RENEW_MS = 2_000;
/** How often a waiting tick tries to take it, in ms. */
const POLL_MS = 200;

/** The lease of a schedule, held by one tick. */
export interface HeldLease {
  release(): Promise<void>;
}

/**
 * Takes the schedule's lease, waiting at most `waitMs` ms.
 * @throws Error when the wait ends before the lease is free; the store's errors
 */
export async function takeScheduleLease(store: HistoryStore, key: string, waitMs: number, warn: (message: string) => void): Promise<HeldLease> {
  const owner = `${thisProcess()}/${randomUUID()}`;
  const until = Date.now() + waitMs;
  while (!(await store.takeTurn(key, owner, SCHEDULE_LEASE_MS))) {
    if (Date.now() >= until) throw new Error(`the previous tick of ${key} was still going after ${Math.round(waitMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const renew = setInterval(() => {
    store.takeTurn(key, owner, SCHEDULE_LEASE_MS).then(
      (held) => (held ? undefined : warn(`the lease of ${key} was lost`)),
      (err: unknown) => warn(`cannot renew the lease of ${key}: ${(err as Error).message}`),
    );
  }, RENEW_MS);
  renew.unref();
  return {
    release: async () => {
      clearInterval(renew);
      await store.releaseTurn(key, owner).catch((err: unknown) => warn(`cannot end the lease of ${key}: ${(err as Error).message}`));
    },
  };
}
