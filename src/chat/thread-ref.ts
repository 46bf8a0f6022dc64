/**
 * Where a chat job renders, as plain JSON (it travels on the queue and survives a worker's death):
 * the channel it posts in, the thread inside it when the platform threads by message (Slack), and
 * the run once it exists. One shape for every platform instead of strings packed per platform.
 */

/** A serialisable reference to a job's thread. */
export interface ThreadRef {
  /** The channel posted in: Slack's channel id, or Discord's thread (or channel, for in-place runs) id. */
  channel: string;
  /** Slack: the ts of the run's channel message (the thread's parent). Absent on Discord (the channel is the thread). */
  thread?: string;
  /** The run rendered there, once the agent stored it. */
  runId?: string;
}
