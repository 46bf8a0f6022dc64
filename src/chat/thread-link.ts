/**
 * Which run a reply in a thread is for. A new run's thread is linked to its run (run-job.ts) as soon
 * as the app knows the thread's id, which is a moment after the platform shows the thread to people:
 * a reply sent in that moment, in a thread the app made, waits for the link, for as long as the
 * thread is younger than {@link LINK_SETTLES_WITHIN_MS}. Any other thread is looked up once.
 */
import type { HistoryStore } from '../history/types.js';

/** How old a thread the app made may be while its link to its run may still be on its way, in ms. */
export const LINK_SETTLES_WITHIN_MS = 30_000;

/** How often the store is asked meanwhile, in ms. */
const POLL_MS = 100;

/** What the platform says of a thread. */
export interface ThreadOrigin {
  /** The app started it (Slack: its parent message is the app's; Discord: the bot owns the thread). */
  madeByApp: boolean;
  /** When the platform made it, in ms since the epoch (Slack: the parent's ts; Discord: the thread id's snowflake); undefined: unknown. */
  madeAt: number | undefined;
}

/**
 * The id of the run a thread is linked to (see the module comment).
 * @returns undefined when the thread is no run's
 * @throws the store's errors
 */
export async function linkedRunId(store: HistoryStore, conversation: string, threadKey: string, origin: ThreadOrigin): Promise<string | undefined> {
  for (;;) {
    const runId = await store.threadRunId(conversation, threadKey);
    if (runId !== undefined) return runId;
    const young = origin.madeByApp && origin.madeAt !== undefined && Date.now() - origin.madeAt < LINK_SETTLES_WITHIN_MS;
    if (!young) return undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
