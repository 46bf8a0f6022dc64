/**
 * Once-only handling of chat deliveries, on two levels: in memory (answers at once, so an ack or a
 * deferral never waits) and in the history store (survives restarts and is shared by every process
 * on one store). Platforms retry deliveries they think were lost (Slack's X-Slack-Retry-Num, a
 * Discord gateway resume); a retried delivery keeps its id.
 */
import type { HistoryStore } from '../history/types.js';
import { RecentDeliveries } from './recent-deliveries.js';

/** Longest wait for the store before treating a delivery as new, in ms (an ack must stay fast). */
export const DEDUPE_TIMEOUT_MS = 1500;

/** Where a repeat was recognised. */
export type SeenIn = 'memory' | 'store';

/** See the module comment. */
export class Deliveries {
  private readonly recent: RecentDeliveries;

  /**
   * @param ttlMs how long ids are remembered, in ms
   * @param onStoreError told when the store could not answer (the delivery is then taken as new)
   */
  constructor(
    private readonly store: HistoryStore,
    private readonly ttlMs: number,
    private readonly onStoreError: (err: unknown) => void = () => undefined,
  ) {
    this.recent = new RecentDeliveries(ttlMs);
  }

  /**
   * Records a delivery id (e.g. `slack:event:Ev1`, `discord:interaction:123`).
   * @returns undefined the first time, else where it was seen before. A missing id, or a store that
   *   fails or takes longer than {@link DEDUPE_TIMEOUT_MS}, counts as new (better twice than never).
   */
  async seen(id: string | undefined): Promise<SeenIn | undefined> {
    if (!id) return undefined;
    if (!this.recent.first(id)) return 'memory';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), DEDUPE_TIMEOUT_MS);
    });
    const recorded = this.store.markEventSeen(id, this.ttlMs).catch((err: unknown) => {
      this.onStoreError(err);
      return true;
    });
    try {
      return (await Promise.race([recorded, timeout])) ? undefined : 'store';
    } finally {
      clearTimeout(timer);
    }
  }
}
