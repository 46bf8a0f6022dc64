/**
 * Where a chat job renders, as plain JSON (it travels on the queue and survives a worker's death):
 * the channel it posts in, the thread inside it when the platform threads by message (Slack), and
 * the run once it exists. One shape for every platform instead of strings packed per platform.
 */

import type { ThreadPlace } from '../history/types.js';

/** A serialisable reference to a job's thread: where it is (the place a run stores, see RunChat) and its run. */
export interface ThreadRef extends ThreadPlace {
  /** The run rendered there (a new run's id is made, and set here, before the agent is called). */
  runId?: string;
}
