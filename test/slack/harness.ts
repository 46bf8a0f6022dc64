/**
 * One Slack test world: the fake Slack Web API, the fake OpenAI server, a temp dir for the store
 * and artifacts, and the real adapter (Bolt + real sandbox): on HTTP (HTTPReceiver on a free port,
 * deliveries signed and POSTed), or in Socket Mode (SocketModeReceiver connected to the fake's
 * Socket Mode endpoint, deliveries sent as envelopes on the socket).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { startSlackAdapter, type SlackAdapter } from '../../adapters/slack/main.js';
import { createChatApp } from '../../src/app/chat-service.js';
import { createLogger, partsLog } from '../../src/log/logger.js';
import { startFakeSlack, type FakeSlack, type SlackCall } from '../fakes/slack-api.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { sendCommand, sendEvent, sendInteraction, type AppResponse, type SlashFields } from '../fakes/slack-signed.js';
import type { SocketAck } from '../fakes/slack-socket.js';

export const SECRET = 'test-signing-secret';
export const TEAM = 'T0001';
/** The app-level token the fake Slack accepts (`apps.connections.open`). */
export const APP_TOKEN = 'xapp-test';

/** A fenced python reply as the LLM would write it. */
export const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;

/** The remote side of a world, without the adapter: the fakes, a temp dir, and the config pointing at them. */
export interface Fakes {
  slack: FakeSlack;
  llm: FakeOpenAi;
  dir: string;
  config: Config;
  /** Closes the fakes and removes the temp dir. */
  close(): Promise<void>;
}

/** Options of a thread reply (a `message` event in the run's thread). */
export interface ReplyOptions {
  user?: string;
  channel?: string;
  eventId?: string;
  /** HTTP: `X-Slack-Retry-Num`; Socket Mode: the envelope's `retry_attempt`. */
  retryNum?: number;
  files?: unknown[];
}

export interface World extends Fakes {
  adapter: SlackAdapter;
  /** The app's HTTP base; undefined in Socket Mode. */
  appUrl: string | undefined;
  /** Restarts the adapter on the same store (stop, start a new one). */
  restart(): Promise<void>;
  /** Sends a slash command over HTTP (signed). @throws in Socket Mode (use {@link World.socketCommand}). */
  command(fields: Partial<SlashFields> & { text: string }, headers?: Record<string, string>): Promise<AppResponse>;
  /** Sends a thread reply over HTTP (signed). @throws in Socket Mode (use {@link World.socketReply}). */
  reply(threadTs: string, text: string, options?: ReplyOptions): Promise<AppResponse>;
  /** Sends a slash command as a `slash_commands` envelope; resolves with the app's ack. */
  socketCommand(fields: Partial<SlashFields> & { text: string }): Promise<SocketAck>;
  /** Sends a thread reply as an `events_api` envelope; resolves with the app's ack. */
  socketReply(threadTs: string, text: string, options?: ReplyOptions): Promise<SocketAck>;
  /** Sends any Events API event over HTTP (signed), e.g. an `app_mention` or a direct message. */
  event(event: Record<string, unknown>, eventId?: string): Promise<AppResponse>;
  /** Sends an interaction payload (button click, modal submission) over HTTP (signed). */
  interact(payload: Record<string, unknown>): Promise<AppResponse>;
  /** Thread posts (chat.postMessage with thread_ts) in a thread. */
  threadPosts(threadTs: string): SlackCall[];
  /** Everything shown in a thread: its posts and the calls of its streamed messages (start, append, stop), in order. */
  threadMessages(threadTs: string): SlackCall[];
  /** The channel message ts of the n-th (0-based) run started in a channel. */
  rootTs(channel?: string, n?: number): Promise<string>;
  /** Waits for the n-th final message (its "Reply in this thread to …", or "❌ *Failed*") in a thread and the n-th final status of its channel message. */
  finished(threadTs: string, count?: number): Promise<SlackCall[]>;
  close(): Promise<void>;
}

/** Options of {@link startWorld}. */
export interface WorldOptions {
  replies?: FakeReply[];
  /** `agent.verify`; default `off`, so that scripted replies are all code. */
  verify?: 'off' | 'checks' | 'review' | 'both';
  slack?: Record<string, unknown>;
  maxRetries?: number;
  /** Socket Mode: `slack.app_token` is {@link APP_TOKEN} (unless `slack` sets another); no HTTP port. */
  socketMode?: boolean;
  /** `store` keys replacing the default (SQLite file and data dir in the world's temp dir). */
  store?: Record<string, unknown>;
  /** The config's `tools` section (none by default). */
  tools?: Record<string, unknown>;
  /** More top-level config sections (`ops`, `limits`, …). */
  config?: Record<string, unknown>;
  /** Whether the fake workspace offers Slack's agent surface (status, streams); default false (today's messages). */
  agentSurface?: boolean;
}

/** Starts the fakes and builds the config the adapter would run with. */
export async function startFakes(options: WorldOptions = {}): Promise<Fakes> {
  const dir = await mkdtemp(join(tmpdir(), 'slack-test-'));
  const slack = await startFakeSlack({ teamId: TEAM, appToken: APP_TOKEN, agentSurface: options.agentSurface ?? false });
  const llm = await startFakeOpenAi({ replies: options.replies ?? [] });
  const config = parseConfig(
    {
      llm: { provider: 'openai', base_url: llm.url, api_key: 'sk-test', model: 'fake-model', max_retries: 0, timeout_s: 20 },
      agent: { max_retries: options.maxRetries ?? 3, verify: options.verify ?? 'off' },
      sandbox: { timeout_s: 20, cpu_time_s: 20, memory_mb: 1024 },
      store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: join(dir, 'data'), ...options.store },
      log: { level: 'error' },
      ...(options.tools ? { tools: options.tools } : {}),
      ...options.config,
      slack: {
        bot_token: 'xoxb-test',
        signing_secret: SECRET,
        port: 0,
        api_url: slack.apiUrl,
        ...(options.socketMode ? { app_token: APP_TOKEN } : {}),
        ...options.slack,
      },
    },
    {},
  );
  return {
    slack,
    llm,
    dir,
    config,
    async close() {
      await Promise.all([slack.close(), llm.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The adapter on a core built for chat from `config`, as `code-agent slack` starts it
 * (src/app/chat-process.ts), its log at `log.level`; stopping it closes the core too.
 * @throws what the core or the adapter throws (the core is closed first)
 */
export async function startSlack(config: Config): Promise<SlackAdapter> {
  const app = await createChatApp(config);
  const log = partsLog(createLogger({ name: 'slack', level: config.log.level, format: 'json' }));
  const adapter = await startSlackAdapter(app, log).catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  return { ...adapter, stop: async (graceMs) => adapter.stop(graceMs).finally(() => app.close()) };
}

/** Starts the fakes and the adapter; if the adapter does not start, closes the fakes and rethrows. */
export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const fakes = await startFakes(options);
  const { slack, config } = fakes;
  let adapter = await startSlack(config).catch(async (err: unknown) => {
    await fakes.close();
    throw err;
  });
  const urlOf = (a: SlackAdapter) => (a.port === undefined ? undefined : `http://127.0.0.1:${a.port}`);
  const httpUrl = () => {
    if (!world.appUrl) throw new Error('this world runs in Socket Mode: send with socketCommand / socketReply');
    return world.appUrl;
  };
  const commandFields = (fields: Partial<SlashFields> & { text: string }): SlashFields => ({
    command: '/run',
    user_id: 'U_ALICE',
    user_name: 'alice',
    channel_id: 'C_MAIN',
    team_id: TEAM,
    response_url: slack.responseUrl(`r${Date.now()}`),
    ...fields,
  });
  const replyEvent = (threadTs: string, text: string, o: ReplyOptions) => ({
    type: 'message',
    channel: o.channel ?? 'C_MAIN',
    channel_type: 'channel',
    user: o.user ?? 'U_BOB',
    text,
    ts: `${Math.floor(Date.now() / 1000)}.${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`,
    thread_ts: threadTs,
    ...(o.files ? { subtype: 'file_share', files: o.files } : {}),
  });
  const world: World = {
    ...fakes,
    adapter,
    appUrl: urlOf(adapter),
    async restart() {
      await adapter.stop();
      adapter = await startSlack(config);
      world.adapter = adapter;
      world.appUrl = urlOf(adapter);
    },
    command: async (fields, headers) => sendCommand(httpUrl(), SECRET, commandFields(fields), headers),
    reply: async (threadTs, text, o = {}) =>
      sendEvent(httpUrl(), SECRET, replyEvent(threadTs, text, o), { eventId: o.eventId, retryNum: o.retryNum, teamId: TEAM }),
    event: async (event, eventId) => sendEvent(httpUrl(), SECRET, event, { eventId, teamId: TEAM }),
    interact: async (payload) => sendInteraction(httpUrl(), SECRET, payload),
    socketCommand: (fields) => slack.socket.slashCommand(commandFields(fields)),
    socketReply: (threadTs, text, o = {}) =>
      slack.socket.event(replyEvent(threadTs, text, o), { eventId: o.eventId, retryAttempt: o.retryNum, teamId: TEAM }),
    threadPosts: (threadTs) => slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === threadTs),
    threadMessages: (threadTs) => threadMessages(slack, threadTs),
    async rootTs(channel = 'C_MAIN', n = 0) {
      const roots = () => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === channel && !c.args.thread_ts && c.result?.ok);
      await slack.waitFor(() => roots().length > n, 10_000, 'the channel message');
      return String(roots()[n]!.result!.ts);
    },
    async finished(threadTs, count = 1) {
      return slack.waitFor(
        () => {
          const finals = world.threadMessages(threadTs).filter((c) => /Reply in this thread to|❌ \*Failed\*/.test(allText([c])) && c.method !== 'chat.update');
          const rootFinals = slack
            .callsOf('chat.update')
            .filter((c) => c.args.ts === threadTs && /Status:\* (✅|⚠️|❌|📝)/.test(String(c.args.text)));
          return finals.length >= count && rootFinals.length >= count ? finals : undefined;
        },
        60_000,
        `final message #${count} in thread ${threadTs}`,
      );
    },
    async close() {
      await adapter.stop(5000).catch(() => undefined);
      await fakes.close();
    },
  };
  return world;
}

/** A call's blocks' section texts. */
const blockTexts = (blocks: unknown) => ((blocks as { text?: { text?: string } }[] | undefined) ?? []).map((b) => b.text?.text ?? '');

/**
 * Text of all thread posts, joined (handy for assertions): a post's text and sections; a stream
 * call's markdown, its chunks (markdown, blocks, task titles) and its closing blocks.
 */
export function allText(calls: SlackCall[]): string {
  return calls
    .map((c) => {
      const chunks = ((c.args.chunks as Record<string, unknown>[] | undefined) ?? []).flatMap((k) =>
        k.type === 'blocks' ? blockTexts(k.blocks) : k.type === 'markdown_text' ? [String(k.text)] : k.type === 'task_update' ? [String(k.title)] : [],
      );
      return [String(c.args.text ?? ''), String(c.args.markdown_text ?? ''), ...chunks, ...blockTexts(c.args.blocks)].filter(Boolean).join('\n');
    })
    .join('\n');
}

/** Every call that showed something in a thread: its posts and its streams' calls, in order. */
export function threadMessages(slack: FakeSlack, threadTs: string): SlackCall[] {
  const streams = new Set(slack.agent.streams.filter((s) => s.threadTs === threadTs).map((s) => s.ts));
  return slack.calls.filter((c) => {
    if (!c.result?.ok) return false;
    if (c.method === 'chat.postMessage' || c.method === 'chat.startStream') return c.args.thread_ts === threadTs;
    return (c.method === 'chat.appendStream' || c.method === 'chat.stopStream') && streams.has(String(c.args.ts));
  });
}
