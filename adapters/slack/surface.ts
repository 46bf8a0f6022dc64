/**
 * Slack's agent surface (src/chat/port.ts: ThreadSigns), as far as this workspace offers it: the
 * thread status (`assistant.threads.setStatus`) and one streamed message per attempt
 * (`chat.startStream` → `chat.appendStream`… → `chat.stopStream`:
 * https://docs.slack.dev/reference/methods/chat.startStream), detected from Slack's answers, never
 * configured: the first refusal (`not_allowed`, `missing_scope`, `unknown_method`, …) is remembered
 * for the workspace (for `method_not_supported_for_channel_type` and `channel_type_not_supported`,
 * for that channel) and the thread shows today's posted and edited messages from then on.
 *
 * A stream starts with its first content (no empty message); the code is markdown in a fence (fence
 * breaks neutralised, held back while a run of backticks may still grow), capped at
 * {@link STREAM_CODE_MAX} characters (the rest attached as a file); results and notices go in as
 * `blocks` chunks of the same mrkdwn sections as today's messages; tasks as `task_update` chunks
 * (titles at most {@link TASK_TITLE_MAX}); the turn's last message as stopStream's `blocks` (its
 * buttons too). Every `markdown_text` stays within {@link STREAM_TEXT_MAX} after escaping. In a
 * channel the stream names its recipient (the requester and their team), as Slack requires.
 *
 * Rate limits (https://docs.slack.dev/apis/web-api/rate-limits): setStatus has a special limit and
 * is called only when the step changes (a few times per attempt); chat.startStream and
 * chat.stopStream are Tier 2 (20+ per minute), once per attempt; chat.appendStream is Tier 4
 * (100+ per minute), at most once per second per run (attempt-stream.ts); a 429 is retried after
 * its Retry-After by the WebClient (poster.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { AttemptStream, ProgressLine, TaskState, ThreadSigns } from '../../src/chat/port.js';
import { neutraliseFences } from '../../src/chat/format.js';
import { progressText } from '../../src/chat/progress-text.js';
import { messageBlocks, section, sectionsOf, type SlackOut, type Upload } from './renderer.js';
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

/** Slack's errors that say a method is not offered to this app here (not a passing failure). */
const PER_CHANNEL = new Set(['method_not_supported_for_channel_type', 'channel_type_not_supported']);

const REFUSALS = new Set(['not_allowed', 'not_allowed_token_type', 'missing_scope', 'unknown_method', ...PER_CHANNEL, 'feature_not_enabled', 'access_denied', 'team_access_not_granted']);

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
  if (line.step === 'start') return 'is starting…';
  if (line.step === 'checks') return 'is deriving checks from the request…';
  if (line.step === 'writing') return `is writing code (attempt ${line.attempt}/${line.lastAttempt})…`;
  if (line.step === 'running') return `is running attempt ${line.attempt}/${line.lastAttempt} in the sandbox…`;
  return 'is working…';
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
