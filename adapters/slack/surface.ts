/**
 * Slack's agent surface, as far as this workspace offers it: the thread status
 * (`assistant.threads.setStatus`) and streamed messages (`chat.startStream` …), detected from
 * Slack's answers, never configured: the first refusal (`not_allowed`, `missing_scope`,
 * `unknown_method`, …) is remembered for the workspace (for `method_not_supported_for_channel_type`
 * and `channel_type_not_supported`, for that channel) and the thread shows today's posted and edited messages from then on.
 *
 * Rate limits (https://docs.slack.dev/apis/web-api/rate-limits): setStatus has a special limit and
 * is called only when the step changes (a few times per attempt); chat.startStream and
 * chat.stopStream are Tier 2 (20+ per minute), once per attempt; chat.appendStream is Tier 4
 * (100+ per minute), at most once per second per run (attempt-stream.ts); a 429 is retried after
 * its Retry-After by the WebClient (poster.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { ProgressLine, ThreadSigns } from '../../src/chat/port.js';
import { progressText } from '../../src/chat/progress-text.js';
import { slackError } from './poster.js';
import type { SlackOut, Upload } from './mrkdwn.js';
import { SlackStream, type StreamPlace } from './stream.js';

/** Slack's errors that say a method is not offered to this app here (not a passing failure). */
const PER_CHANNEL = new Set(['method_not_supported_for_channel_type', 'channel_type_not_supported']);

const REFUSALS = new Set([
  'not_allowed',
  'not_allowed_token_type',
  'missing_scope',
  'unknown_method',
  'method_not_supported_for_channel_type',
  'channel_type_not_supported',
  'feature_not_enabled',
  'access_denied',
  'team_access_not_granted',
]);

/** Whether a Slack error means the method is not offered (see {@link REFUSALS}). */
export function isRefusal(err: unknown): boolean {
  const code = slackError(err);
  return code !== undefined && REFUSALS.has(code);
}

/** The two parts of the surface, detected apart. */
export type SurfacePart = 'status' | 'stream';

/** What one process learnt of each workspace's surface (per team, and per channel for a channel type). */
export class SurfaceSupport {
  private readonly refused = new Map<string, string>();

  /** The refusal remembered for `part` in this team (or this channel), if any. */
  refusal(part: SurfacePart, team: string, channel: string): string | undefined {
    return this.refused.get(`${part}:${team}`) ?? this.refused.get(`${part}:${team}:${channel}`);
  }

  /** Remembers a refusal (`err` a WebClient error); false when `err` is not one. */
  remember(part: SurfacePart, team: string, channel: string, err: unknown): boolean {
    if (!isRefusal(err)) return false;
    const code = slackError(err)!;
    this.refused.set(PER_CHANNEL.has(code) ? `${part}:${team}:${channel}` : `${part}:${team}`, code);
    return true;
  }
}

/** Where a thread's signs go, and who they are for. */
export interface SignsPlace extends StreamPlace {
  support: SurfaceSupport;
}

/** The thread status's words: Slack shows them after the app's name ("code-agent is writing code…"). */
export function statusText(line: ProgressLine): string {
  switch (line.step) {
    case 'start':
      return 'is starting…';
    case 'checks':
      return 'is deriving checks from the request…';
    case 'writing':
      return `is writing code (attempt ${line.attempt}/${line.lastAttempt})…`;
    case 'running':
      return `is running attempt ${line.attempt}/${line.lastAttempt} in the sandbox…`;
    default:
      return 'is working…';
  }
}

/**
 * A Slack thread's signs of work (src/chat/port.ts: ThreadSigns): its status while the turn works,
 * cleared at the end, and each attempt streamed into one message. Never throws.
 */
export function slackSigns(client: WebClient, place: SignsPlace, upload: (files: Upload[] | undefined) => Promise<void>): ThreadSigns<SlackOut> {
  const { support, channel, threadTs, team } = place;
  let shown: string | undefined;
  return {
    async working(line) {
      if (support.refusal('status', team, channel)) return false;
      const status = line ? statusText(line) : '';
      if (status === (shown ?? '')) return shown !== undefined;
      if (!line && shown === undefined) return false;
      try {
        await client.assistant.threads.setStatus({
          channel_id: channel,
          thread_ts: threadTs,
          status,
          ...(line ? { loading_messages: [progressText(line)] } : {}),
        });
        shown = line ? status : undefined;
        return line !== undefined;
      } catch (err) {
        support.remember('status', team, channel, err);
        return false;
      }
    },
    async stream(attempt, lastAttempt) {
      if (support.refusal('stream', team, channel)) return undefined;
      return new SlackStream(client, place, attempt, lastAttempt, upload, (err) => support.remember('stream', team, channel, err));
    },
  };
}
