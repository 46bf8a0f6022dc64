/**
 * Slack's jobs in queue mode: what the ingress puts on the queue (payloads), and the limit keys
 * (`slack:<team>:<channel>`, `slack:<team>:<user>`), shared by ingress and worker.
 */
import type { LimitKey } from '../../src/queue/limits.js';
import type { ReplyRequest } from './jobs.js';

/** `/run` or `/generate` (job kind `run` / `generate`). */
export interface RunPayload {
  team: string | undefined;
  channel: string;
  user: string;
  userName: string | undefined;
  requirement: string;
  /** The slash command's response_url (ephemeral answers to the user, valid 30 min). */
  responseUrl: string;
}

/** A reply in a run's thread (job kind `reply`): the embedded mode's request, as JSON. */
export type ReplyPayload = ReplyRequest;

/** The limit key of a Slack job. */
export function slackLimitKey(jobId: string, team: string | undefined, channel: string, user: string): LimitKey {
  return { jobId, channel: `slack:${team ?? 'T'}:${channel}`, user: `slack:${team ?? 'T'}:${user}` };
}
