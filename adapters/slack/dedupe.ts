/**
 * Once-only handling of Slack deliveries. Slack retries an event it thinks was not received
 * (header X-Slack-Retry-Num, https://docs.slack.dev/apis/events-api/#retries); a retried event keeps its
 * `event_id`. Slash commands have no event id: their `trigger_id` is unique per invocation.
 * Ids are kept in the history store with a TTL, so a retry after a restart is still recognised.
 */
import type { HistoryStore } from '../../src/history/types.js';

/** Longest wait for the store before treating a delivery as new, in ms (an ack must stay fast). */
export const DEDUPE_TIMEOUT_MS = 1500;

/**
 * @param kind `event` (event_id) or `command` (trigger_id)
 * @returns true the first time an id is seen, false for a repeat. When the id is missing or the
 *   store fails or is slow, returns true (better to run twice than never).
 */
export async function firstDelivery(store: HistoryStore, kind: 'event' | 'command', id: string | undefined, ttlMs: number): Promise<boolean> {
  if (!id) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), DEDUPE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([store.markEventSeen(`slack:${kind}:${id}`, ttlMs).catch(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Most ids kept in memory; the oldest are forgotten first (the store still knows them). */
export const RECENT_MAX = 10_000;

/**
 * In-memory first line of deduplication: answers synchronously, so an ack never waits for the
 * store. Ids are kept for `ttlMs` and at most {@link RECENT_MAX} of them.
 */
export class RecentDeliveries {
  private readonly seen = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  /** @returns true the first time `id` is seen (within the TTL), false for a repeat. */
  first(id: string | undefined): boolean {
    if (!id) return true;
    const now = Date.now();
    const until = this.seen.get(id);
    if (until !== undefined && until > now) return false;
    this.seen.delete(id);
    this.seen.set(id, now + this.ttlMs);
    if (this.seen.size > RECENT_MAX) this.seen.delete(this.seen.keys().next().value!);
    return true;
  }
}
