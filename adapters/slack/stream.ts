/**
 * One attempt's streamed message in a Slack thread (src/chat/port.ts: AttemptStream), with
 * `chat.startStream` → `chat.appendStream`… → `chat.stopStream`
 * (https://docs.slack.dev/reference/methods/chat.startStream). The stream starts with its first
 * content (no empty message); the code is markdown in a fence (fence breaks neutralised, held back
 * while a run of backticks may still grow), capped at {@link STREAM_CODE_MAX} characters (the rest
 * attached as a file); results and notices go in as `blocks` chunks of the same mrkdwn sections
 * as today's messages; tasks as `task_update` chunks (titles at most {@link TASK_TITLE_MAX}); the
 * turn's last message as stopStream's `blocks` (its buttons too). Every `markdown_text` stays
 * within {@link STREAM_TEXT_MAX} after escaping. In a channel the stream names its recipient
 * (the requester and their team), as Slack requires.
 */
import type { WebClient } from '@slack/web-api';
import type { AttemptStream, TaskState } from '../../src/chat/port.js';
import { neutraliseFences } from '../../src/chat/format.js';
import { messageBlocks, section, sectionsOf, type SlackOut, type Upload } from './mrkdwn.js';
import { slackError } from './poster.js';

/** Slack's limit on a `markdown_text` argument or chunk, in characters. */
export const STREAM_TEXT_MAX = 12_000;
/** The most code one streamed message shows, in characters (after escaping); the rest is attached. */
export const STREAM_CODE_MAX = 10_000;
/** Slack's limit on a task_update title, in characters. */
export const TASK_TITLE_MAX = 256;
/** Slack's limit on the blocks of a message (and of stopStream's `blocks`). */
const BLOCKS_MAX = 50;

/** Where a stream goes and for whom. */
export interface StreamPlace {
  channel: string;
  threadTs: string;
  /** The requester (the stream's recipient in a channel). */
  user: string;
  /** The requester's team. */
  team: string;
}

/** Arguments of the stream methods (chunks as Slack takes them). */
type Args = { markdown_text?: string; chunks?: Record<string, unknown>[]; blocks?: unknown[] };

/** See the module comment. */
export class SlackStream implements AttemptStream<SlackOut> {
  private ts: string | undefined;
  /** A call failed: nothing more is appended (stop still closes it, unless Slack already did). */
  private cut = false;
  /** Closed (by stop, or by Slack: `message_not_in_streaming_state`). */
  private closed = false;
  /** The code given so far (whole) and the part of its escaped text already streamed. */
  private given = '';
  private sent = '';
  private fenceOpen = false;
  private capped = false;

  constructor(
    private readonly client: WebClient,
    private readonly place: StreamPlace,
    private readonly attempt: number,
    private readonly lastAttempt: number,
    private readonly upload: (files: Upload[] | undefined) => Promise<void>,
    /** Told of a failed call (a refusal is remembered for the workspace). */
    private readonly refused: (err: unknown) => void,
  ) {}

  async code(delta: string, done: boolean): Promise<boolean> {
    this.given += delta;
    if (this.capped) return done ? this.attachCode() : true;
    // trailing backticks may become a fence with the next delta: held back until then
    const escaped = neutraliseFences(done ? this.given : this.given.replace(/`+$/, ''));
    let fresh = escaped.slice(this.sent.length);
    if (escaped.length > STREAM_CODE_MAX) {
      this.capped = true;
      fresh = escaped.slice(this.sent.length, Math.max(escaped.lastIndexOf('\n', STREAM_CODE_MAX), this.sent.length));
    }
    let text = '';
    if (fresh) {
      text += (this.fenceOpen ? '' : '```\n') + fresh;
      this.fenceOpen = true;
      this.sent += fresh;
    }
    if (this.capped || done) text += this.closeFence().markdown_text ?? '';
    if (this.capped) text += `_… the code goes on: it is attached as attempt-${this.attempt}.py_\n`;
    if (text && !(await this.send({ markdown_text: text }))) return false;
    return this.capped && done ? this.attachCode() : true;
  }

  async append(msg: SlackOut): Promise<boolean> {
    const sections = sectionsOf(msg).filter((t) => t.length > 0);
    const ok = sections.length === 0 || (await this.send({ ...this.closeFence(), chunks: [{ type: 'blocks', blocks: sections.slice(0, BLOCKS_MAX).map(section) }] }));
    if (ok) await this.upload(msg.uploads);
    return ok;
  }

  async task(id: string, title: string, state: TaskState): Promise<boolean> {
    return this.send({ chunks: [{ type: 'task_update', id, title: [...title].slice(0, TASK_TITLE_MAX).join(''), status: state }] });
  }

  async stop(last?: SlackOut): Promise<boolean> {
    if (this.closed) return false;
    // nothing streamed: nothing to close (the caller posts `last` as a message of its own)
    if (this.ts === undefined) return !last;
    const blocks = last ? messageBlocks(last).slice(0, BLOCKS_MAX) : [];
    // a cut stream is closed with what it shows; `last` then goes in a message of its own
    const shown = this.cut ? [] : blocks;
    this.closed = true;
    try {
      await this.client.chat.stopStream({ channel: this.place.channel, ts: this.ts!, ...this.closeFence(), ...(shown.length ? { blocks: shown } : {}) } as Parameters<WebClient['chat']['stopStream']>[0]);
    } catch (err) {
      this.refused(err);
      return false;
    }
    if (this.cut) return !last;
    this.cut = true; // stopped: nothing more goes in
    if (last) await this.upload(last.uploads);
    return true;
  }

  /** The full code attached when the stream showed only its start. */
  private async attachCode(): Promise<boolean> {
    await this.upload([{ filename: `attempt-${this.attempt}.py`, content: this.given, snippetType: 'python' }]);
    return true;
  }

  /** The markdown that closes an open code fence (before anything else is appended). */
  private closeFence(): Args {
    if (!this.fenceOpen) return {};
    this.fenceOpen = false;
    return { markdown_text: `${this.sent.endsWith('\n') ? '' : '\n'}\`\`\`\n` };
  }

  /** Starts the stream with `args`, or appends them. @returns false (and the stream is cut) when Slack refused. */
  private async send(args: Args): Promise<boolean> {
    if (this.cut) return false;
    const { channel, threadTs, user, team } = this.place;
    try {
      if (this.ts === undefined) {
        const recipient = channel.startsWith('D') ? {} : { recipient_user_id: user, recipient_team_id: team };
        const header = `**Attempt ${this.attempt}/${this.lastAttempt}**\n`;
        const res = await this.client.chat.startStream({ channel, thread_ts: threadTs, ...recipient, ...args, markdown_text: header + (args.markdown_text ?? '') } as Parameters<WebClient['chat']['startStream']>[0]);
        this.ts = String(res.ts);
      } else {
        await this.client.chat.appendStream({ channel, ts: this.ts, ...args } as Parameters<WebClient['chat']['appendStream']>[0]);
      }
      return true;
    } catch (err) {
      this.cut = true;
      if (slackError(err) === 'message_not_in_streaming_state') this.closed = true;
      this.refused(err);
      return false;
    }
  }
}
