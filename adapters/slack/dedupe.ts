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
