/**
 * Slack's jobs: what the ingress puts on the chat queue (typed payloads by kind), and the limit keys
 * (`slack:<team>:<channel>`, `slack:<team>:<user>`), shared by ingress and processor.
 */
import type { LimitKey } from '../../src/chat/limits.js';
import type { SlackFile } from './inputs.js';

/** `/run` or `/generate`, or a message that mentions the app or is sent to it directly (job kind `run` / `generate`). */
export interface RunPayload {
  team: string | undefined;
  channel: string;
  user: string;
  userName: string | undefined;
  requirement: string;
  /** The slash command's response_url (ephemeral answers to the user, valid 30 min); absent for a message (answers are ephemeral messages). */
  responseUrl?: string;
  /** Files attached to the message that started the run (they become input files). */
  files?: SlackFile[];
}

/** A request on the run of a thread: a reply (or the Improve button's feedback), or a Re-run. */
export interface ThreadRequest {
  team: string | undefined;
  channel: string;
  /** The ts of the run's channel message (the thread's parent). */
  threadTs: string;
  user: string;
  /** The thread's run, when the ingress knew it (else the job reads the store's thread index). */
  runId?: string;
}

/** A reply in a run's thread, or the feedback typed after the Improve button (job kind `reply`). */
export interface ReplyPayload extends ThreadRequest {
  text: string;
  /** Files attached to the reply (they become input files). */
  files: SlackFile[] | undefined;
}

/** The Re-run button on a run's final message (job kind `rerun`). */
export type RerunPayload = ThreadRequest;

/** Slack's job kinds and their payloads. */
export interface SlackJobKinds {
  run: RunPayload;
  generate: RunPayload;
  reply: ReplyPayload;
  rerun: RerunPayload;
}

/** The limit key of a Slack job. */
export function slackLimitKey(jobId: string, team: string | undefined, channel: string, user: string): LimitKey {
  return { jobId, channel: `slack:${team ?? 'T'}:${channel}`, user: `slack:${team ?? 'T'}:${user}` };
}
