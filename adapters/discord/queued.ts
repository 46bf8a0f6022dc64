/**
 * Discord's jobs: what the gateway process puts on the chat queue (typed payloads by kind), and the
 * limit keys (`discord:<guild>:<channel>` — the conversation — and `discord:user:<user>`), shared by
 * ingress and processor. A job carries the interaction's token so that a worker can edit the
 * deferred response and send follow-ups while the token lives (15 minutes:
 * https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages).
 */
import type { LimitKey } from '../../src/chat/limits.js';
import type { JobKind } from './render.js';
import type { Place } from './gate.js';
import type { RemoteFile } from './attachments.js';

/** An interaction's token, as a worker needs it. */
export interface TokenRef {
  applicationId: string;
  /** The interaction token (a credential valid 15 minutes; kept in Redis only with the job). */
  token: string;
  /** `Date.now()` when the ingress received the interaction (the token's age counts from there). */
  receivedAt: number;
}

/** `/run` or `/generate` (job kind `run`); its interaction is deferred. */
export interface RunPayload extends TokenRef {
  kind: Extract<JobKind, 'run' | 'generate'>;
  requirement: string;
  userId: string;
  place: Place;
  conversation: string;
  /** The command's file option (downloaded into the sandbox's input files). */
  attachments?: RemoteFile[];
}

/** Re-run (button) or Improve (modal submit) of a run (job kind `action`); its interaction is deferred. */
export interface ActionPayload extends TokenRef {
  /** The interaction's channel (the run's thread, or the channel of an in-place run). */
  channelId: string;
  conversation: string;
  runId: string;
  userId: string;
  /** Undefined for a re-run. */
  feedback?: string;
}

/** A reply in a run's thread (job kind `reply`): improve with its text and attachments. */
export interface ReplyPayload {
  /** The thread. */
  channelId: string;
  conversation: string;
  runId: string;
  userId: string;
  text: string;
  attachments: RemoteFile[];
}

/** Discord's job kinds and their payloads. */
export interface DiscordJobKinds {
  run: RunPayload;
  action: ActionPayload;
  reply: ReplyPayload;
}

/** Any Discord job's payload. */
export type DiscordPayload = DiscordJobKinds[keyof DiscordJobKinds];

/** The limit key of a Discord job: per conversation (a thread counts for its channel) and per user. */
export function discordLimitKey(jobId: string, conversation: string, userId: string): LimitKey {
  return { jobId, channel: conversation, user: `discord:user:${userId}` };
}
