/**
 * Posting into Slack with the fallbacks Slack's errors call for:
 * - `msg_too_long` / `invalid_blocks`: the text goes out as a file in the thread instead;
 * - rate limits (HTTP 429 + Retry-After) are retried by the WebClient (see {@link clientOptions});
 * - `not_in_channel` / `channel_not_found` surface as {@link NotInChannelError} so the caller can
 *   tell the user to invite the app.
 *
 * Errors: https://docs.slack.dev/reference/methods/chat.postMessage#errors
 * Uploads: https://docs.slack.dev/messaging/working-with-files#uploading_files (files.getUploadURLExternal →
 * POST to upload_url → files.completeUploadExternal, done by WebClient.filesUploadV2)
 */
import { WebClient, LogLevel, type RetryOptions, type Logger } from '@slack/web-api';
import { messageBlocks, sectionsOf, type SlackOut, type Upload } from './renderer.js';

/**
 * Retries of one Web API call: up to 4 after the first, exponential from 0.5 s to 10 s.
 * On HTTP 429 the WebClient first waits the Retry-After seconds, then this policy applies.
 */
export const RETRY_POLICY: RetryOptions = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 10_000, randomize: true };

/** WebClient options shared by Bolt's client and ours. */
export function clientOptions(apiUrl: string, logger?: Logger) {
  return {
    slackApiUrl: apiUrl,
    retryConfig: RETRY_POLICY,
    rejectRateLimitedCalls: false,
    timeout: 30_000,
    ...(logger ? { logger } : { logLevel: LogLevel.ERROR }),
  };
}

/** The app is not a member of the channel (`not_in_channel`) or cannot see it (`channel_not_found`). */
export class NotInChannelError extends Error {
  override name = 'NotInChannelError';
}

/** Slack error code of a WebClient error, if any (`not_in_channel`, `msg_too_long`…). */
export function slackError(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

const FILE_FALLBACK = new Set(['msg_too_long', 'invalid_blocks', 'invalid_blocks_format']);
const NOT_IN_CHANNEL = new Set(['not_in_channel', 'channel_not_found', 'is_archived']);

/** Posts, updates and uploads for the adapter. Mentions are never parsed (`link_names: false`). */
export class SlackPoster {
  constructor(readonly client: WebClient) {}

  /**
   * Posts a message (mrkdwn sections, each ≤ 3000 characters, and its buttons) in a channel or
   * thread; its `plain` is the notification/fallback text (already escaped; default the sections
   * joined). Falls back to a file when Slack refuses the text as too long or its blocks as invalid.
   * @returns the message ts (or the fallback notice's ts).
   * @throws {NotInChannelError} when the app is not in the channel; other WebClient errors as is.
   */
  async post(channel: string, msg: SlackOut, threadTs?: string): Promise<string> {
    const plain = msg.plain ?? sectionsOf(msg).join('\n');
    const thread = threadTs ? { thread_ts: threadTs } : {};
    try {
      const res = await this.client.chat.postMessage({ channel, ...thread, text: plain, blocks: messageBlocks(msg), link_names: false, unfurl_links: false, unfurl_media: false });
      return res.ts as string;
    } catch (err) {
      const code = slackError(err);
      if (code && NOT_IN_CHANNEL.has(code)) throw new NotInChannelError(code, { cause: err });
      if (!code || !FILE_FALLBACK.has(code)) throw err;
      await this.upload(channel, threadTs, { filename: 'message.txt', content: plain, snippetType: 'text' });
      const res = await this.client.chat.postMessage({ channel, ...thread, text: `(Slack refused this message: ${code}; it is attached as message.txt)`, link_names: false });
      return res.ts as string;
    }
  }

  /** Replaces a message's text (its sections; buttons are not kept); errors other than "not in channel" are swallowed (the message stays as it was). */
  async update(channel: string, ts: string, msg: Pick<SlackOut, 'text'>): Promise<void> {
    // rate limits are retried by the client; a lost progress update is not worth failing a run
    try {
      await this.client.chat.update({ channel, ts, text: sectionsOf(msg).join('\n'), blocks: messageBlocks({ text: msg.text }), link_names: false });
    } catch (err) {
      const code = slackError(err);
      if (code && NOT_IN_CHANNEL.has(code)) throw new NotInChannelError(code, { cause: err });
    }
  }

  /** Uploads one file into a thread (three-step external upload). */
  async upload(channel: string, threadTs: string | undefined, file: Upload): Promise<void> {
    const source = file.path !== undefined ? { file: file.path } : { file: Buffer.from(file.content ?? '') };
    await this.client.filesUploadV2({
      channel_id: channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      filename: file.filename,
      title: file.title ?? file.filename,
      ...(file.snippetType ? { snippet_type: file.snippetType } : {}),
      ...source,
    } as Parameters<WebClient['filesUploadV2']>[0]);
  }

  /** A message only `user` sees (`mrkdwn`: already safe). Errors are swallowed (best effort). */
  async ephemeral(channel: string, user: string, mrkdwn: string, threadTs?: string): Promise<void> {
    await this.client.chat.postEphemeral({ channel, user, text: mrkdwn, ...(threadTs ? { thread_ts: threadTs } : {}) }).catch(() => undefined);
  }
}
