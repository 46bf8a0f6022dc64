/**
 * The fake Slack's agent surface (test/fakes/slack-api.ts): the thread status, suggested prompts
 * and title of an app's threads (`assistant.threads.setStatus`, `…setSuggestedPrompts`,
 * `…setTitle`) and streamed messages (`chat.startStream` → `chat.appendStream`… →
 * `chat.stopStream`), with the rules Slack documents:
 *
 * - https://docs.slack.dev/reference/methods/assistant.threads.setStatus: `channel_id`, `thread_ts`
 *   and `status` required (an empty status clears it); at most 10 `loading_messages`;
 * - https://docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts: `channel_id`
 *   and 1–4 `prompts`, each with a `title` and a `message`;
 * - https://docs.slack.dev/reference/methods/assistant.threads.setTitle: `channel_id`, `thread_ts`, `title`;
 * - https://docs.slack.dev/reference/methods/chat.startStream: `channel` and `thread_ts` (a stream
 *   is a reply), and outside a DM (a channel id not starting with `D`) `recipient_user_id` and
 *   `recipient_team_id`; `markdown_text` at most 12,000 characters; `task_update` / `plan_update`
 *   titles at most 256 characters, a task's status one of pending, in_progress, complete, error;
 * - chat.appendStream (`markdown_text` or `chunks` required) and chat.stopStream only on a stream
 *   still open (`message_not_in_streaming_state`); stopStream's `blocks` at most 50, a section's
 *   text at most 3,000 characters; chat.update on an open stream: `streaming_state_conflict`.
 *
 * An older workspace, or an app without the agent feature, refuses them all (default `not_allowed`,
 * see {@link AgentSurface.refuse}).
 */

/** One streamed message, as the fake keeps it. */
export interface FakeStream {
  channel: string;
  ts: string;
  threadTs: string;
  /** The markdown text appended so far (every markdown_text and markdown_text chunk, in order). */
  text: string;
  /** Every chunk sent, in order. */
  chunks: Record<string, unknown>[];
  /** stopStream's blocks, once stopped. */
  blocks?: unknown[];
  open: boolean;
  startedAt: number;
  stoppedAt?: number;
}

/** The state of a thread's agent surface: its status (`''`: cleared), title and prompts. */
export interface FakeAssistantThread {
  status?: string;
  title?: string;
  prompts?: { title: string; message: string }[];
}

/** The methods of the agent surface. */
export const AGENT_METHODS = [
  'assistant.threads.setStatus',
  'assistant.threads.setSuggestedPrompts',
  'assistant.threads.setTitle',
  'chat.startStream',
  'chat.appendStream',
  'chat.stopStream',
] as const;

/** An `ok: false` answer. */
export class SlackApiError extends Error {}

/** Slack's limits on streamed text (chat.startStream, appendStream, stopStream). */
export const STREAM_TEXT_LIMIT = 12_000;
/** Slack's limit on a task_update / plan_update title. */
export const TASK_TITLE_LIMIT = 256;

const TASK_STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);

/** The agent surface of one fake Slack. */
export class AgentSurface {
  readonly streams: FakeStream[] = [];
  readonly threads = new Map<string, FakeAssistantThread>();
  /** The error the surface's methods answer with, or undefined when they are served. */
  refused: string | undefined;

  constructor(
    private readonly nextTs: () => string,
    private readonly checkBlocks: (blocks: unknown) => void,
    refused?: string,
  ) {
    this.refused = refused;
  }

  /** Refuses every method of the surface with `error` (an older workspace: `not_allowed`); undefined serves them again. */
  refuse(error: string | undefined = 'not_allowed'): void {
    this.refused = error;
  }

  /** The thread's status, title and prompts (`channel`/`threadTs`). */
  thread(channel: string, threadTs: string | undefined): FakeAssistantThread {
    const key = `${channel}/${threadTs ?? ''}`;
    let t = this.threads.get(key);
    if (!t) this.threads.set(key, (t = {}));
    return t;
  }

  /** The stream at `channel`/`ts`, if one was started there. */
  stream(channel: unknown, ts: unknown): FakeStream | undefined {
    return this.streams.find((s) => s.channel === channel && s.ts === ts);
  }

  /** Streams started but never stopped. */
  openStreams(): FakeStream[] {
    return this.streams.filter((s) => s.open);
  }

  /** chat.update's rule: an open stream cannot be edited. */
  checkUpdate(channel: unknown, ts: unknown): void {
    if (this.stream(channel, ts)?.open) throw new SlackApiError('streaming_state_conflict');
  }

  /** The handlers of the surface's methods, for the fake's method table. */
  handlers(): Record<string, (a: Record<string, unknown>) => Record<string, unknown>> {
    const guard = <T>(f: (a: Record<string, unknown>) => T) => (a: Record<string, unknown>) => {
      if (this.refused) throw new SlackApiError(this.refused);
      return f(a);
    };
    return {
      'assistant.threads.setStatus': guard((a) => {
        required(a, 'channel_id', 'thread_ts');
        if (typeof a.status !== 'string') throw new SlackApiError('invalid_arguments');
        const loading = a.loading_messages;
        if (loading !== undefined && (!Array.isArray(loading) || loading.length > 10)) throw new SlackApiError('invalid_arguments');
        this.thread(String(a.channel_id), String(a.thread_ts)).status = a.status;
        return {};
      }),
      'assistant.threads.setSuggestedPrompts': guard((a) => {
        required(a, 'channel_id');
        const prompts = a.prompts as { title?: unknown; message?: unknown }[] | undefined;
        if (!Array.isArray(prompts) || prompts.length < 1 || prompts.length > 4) throw new SlackApiError('invalid_arguments');
        if (prompts.some((p) => typeof p.title !== 'string' || !p.title || typeof p.message !== 'string' || !p.message)) throw new SlackApiError('invalid_arguments');
        this.thread(String(a.channel_id), a.thread_ts as string | undefined).prompts = prompts as { title: string; message: string }[];
        return {};
      }),
      'assistant.threads.setTitle': guard((a) => {
        required(a, 'channel_id', 'thread_ts', 'title');
        this.thread(String(a.channel_id), String(a.thread_ts)).title = String(a.title);
        return {};
      }),
      'chat.startStream': guard((a) => {
        required(a, 'channel', 'thread_ts');
        const channel = String(a.channel);
        if (!channel.startsWith('D')) {
          if (!a.recipient_user_id) throw new SlackApiError('missing_recipient_user_id');
          if (!a.recipient_team_id) throw new SlackApiError('missing_recipient_team_id');
        }
        const stream: FakeStream = { channel, ts: this.nextTs(), threadTs: String(a.thread_ts), text: '', chunks: [], open: true, startedAt: Date.now() };
        this.add(stream, a);
        this.streams.push(stream);
        return { channel, ts: stream.ts };
      }),
      'chat.appendStream': guard((a) => {
        required(a, 'channel', 'ts');
        const stream = this.openStream(a);
        if (a.markdown_text === undefined && a.chunks === undefined) throw new SlackApiError('invalid_arguments');
        this.add(stream, a);
        return { channel: stream.channel, ts: stream.ts };
      }),
      'chat.stopStream': guard((a) => {
        required(a, 'channel', 'ts');
        const stream = this.openStream(a);
        this.checkBlocks(a.blocks);
        this.add(stream, a);
        stream.blocks = (a.blocks as unknown[] | undefined) ?? [];
        stream.open = false;
        stream.stoppedAt = Date.now();
        return { channel: stream.channel, ts: stream.ts, message: { ts: stream.ts, text: stream.text } };
      }),
    };
  }

  private openStream(a: Record<string, unknown>): FakeStream {
    const stream = this.stream(a.channel, a.ts);
    if (!stream) throw new SlackApiError('message_not_found');
    if (!stream.open) throw new SlackApiError('message_not_in_streaming_state');
    return stream;
  }

  /** Checks and appends a call's markdown_text and chunks. */
  private add(stream: FakeStream, a: Record<string, unknown>): void {
    const text = a.markdown_text;
    if (text !== undefined && (typeof text !== 'string' || text.length > STREAM_TEXT_LIMIT)) throw new SlackApiError(typeof text === 'string' ? 'msg_too_long' : 'invalid_arguments');
    const chunks = a.chunks as Record<string, unknown>[] | undefined;
    if (chunks !== undefined && !Array.isArray(chunks)) throw new SlackApiError('invalid_chunks');
    for (const c of chunks ?? []) checkChunk(c, this.checkBlocks);
    if (typeof text === 'string') stream.text += text;
    for (const c of chunks ?? []) {
      stream.chunks.push(c);
      if (c.type === 'markdown_text') stream.text += String(c.text);
    }
  }
}

/** Slack's `invalid_arguments` when an argument is missing or empty. */
function required(a: Record<string, unknown>, ...names: string[]): void {
  for (const n of names) if (a[n] === undefined || a[n] === '') throw new SlackApiError('invalid_arguments');
}

/** One chunk, checked as Slack does (`invalid_chunks`). */
function checkChunk(c: Record<string, unknown>, checkBlocks: (blocks: unknown) => void): void {
  switch (c.type) {
    case 'markdown_text':
      if (typeof c.text !== 'string' || c.text.length > STREAM_TEXT_LIMIT) throw new SlackApiError('invalid_chunks');
      return;
    case 'task_update':
      if (typeof c.id !== 'string' || !c.id || typeof c.title !== 'string' || c.title.length > TASK_TITLE_LIMIT) throw new SlackApiError('invalid_chunks');
      if (!TASK_STATUSES.has(String(c.status))) throw new SlackApiError('invalid_chunks');
      return;
    case 'plan_update':
      if (typeof c.title !== 'string' || c.title.length > TASK_TITLE_LIMIT) throw new SlackApiError('invalid_chunks');
      return;
    case 'blocks':
      if (!Array.isArray(c.blocks)) throw new SlackApiError('invalid_chunks');
      checkBlocks(c.blocks);
      return;
    default:
      throw new SlackApiError('invalid_chunks');
  }
}
