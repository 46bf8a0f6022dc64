/**
 * A local fake of Slack's Web API for tests and benches (node:http, no framework). The real
 * WebClient (Bolt's and ours) points at it with `slackApiUrl: fake.apiUrl`.
 *
 * It answers like Slack (https://docs.slack.dev/apis/web-api/): HTTP 200 with `{ ok: true, … }` or
 * `{ ok: false, error }`, and HTTP 429 with `Retry-After` for scripted rate limits. Implemented:
 * `auth.test`, `chat.postMessage`, `chat.update`, `chat.postEphemeral`, `chat.getPermalink`,
 * `conversations.replies` (from what was posted), `views.open` (a modal; `trigger_id` required,
 * title at most 24 characters), and the three-step upload:
 * `files.getUploadURLExternal` → POST bytes to the returned `upload_url` (on this server) →
 * `files.completeUploadExternal`. Also serves hosted files at `url_private` (bot token required) and
 * records posts to `response_url`s.
 *
 * The agent surface (thread status, suggested prompts, title, streamed messages) is served by
 * test/fakes/slack-agent.ts, with Slack's rules; `agent.refuse()` makes it an older workspace.
 * `auth.test` answers with the granted scopes in `x-oauth-scopes`, as Slack does.
 *
 * Every Web API call is recorded in `calls` (method, parsed args, time); scripted failures are
 * consumed in order per method (`failNext`).
 *
 * Socket Mode: `apps.connections.open` takes the app-level token (`xapp-…`; a bot token gets
 * `not_allowed_token_type`, any other `invalid_auth`) and returns a one-use WebSocket URL of
 * {@link FakeSlack.socket} (test/fakes/slack-socket.ts), served on this same port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseBody, type ParsedBody } from './slack-body.js';
import { FakeSlackSocket, type FakeSlackSocketOptions } from './slack-socket.js';
import { AgentSurface, SlackApiError } from './slack-agent.js';

/** One recorded Web API call. */
export interface SlackCall {
  method: string;
  /** Parsed arguments; JSON-encoded values (blocks, files) are decoded. */
  args: Record<string, unknown>;
  /** Bearer token sent, if any. */
  token: string | undefined;
  at: number;
  /** What the fake answered (set once answered). */
  result?: Record<string, unknown>;
}

/** A completed upload (step 3 done). */
export interface SlackUpload {
  fileId: string;
  filename: string;
  title?: string;
  bytes: Buffer;
  channel?: string;
  threadTs?: string;
  at: number;
}

/** A scripted failure: an `ok: false` error, or a 429 with Retry-After seconds. */
export type SlackFailure = { error: string } | { status: 429; retryAfter: number };

/** The running fake. */
export interface FakeSlack {
  /** Base URL of the Web API, ending in `/api/` (for `slackApiUrl`). */
  readonly apiUrl: string;
  /** Origin, e.g. `http://127.0.0.1:1234`. */
  readonly origin: string;
  readonly calls: SlackCall[];
  readonly uploads: SlackUpload[];
  /** The Socket Mode endpoint whose URLs `apps.connections.open` hands out. */
  readonly socket: FakeSlackSocket;
  /** Bodies posted to response URLs (`${origin}/response/<id>`). */
  readonly responses: { id: string; body: Record<string, unknown>; at: number }[];
  /** The agent surface: streams, thread statuses and titles, and `refuse()` for an older workspace. */
  readonly agent: AgentSurface;
  /** Calls of one method. */
  callsOf(method: string): SlackCall[];
  /** Fails the next call(s) of a method, in order. */
  failNext(method: string, ...failures: SlackFailure[]): void;
  /** Serves bytes at a `url_private` that requires the bot token; returns the Slack file object. */
  hostFile(name: string, bytes: Buffer): { id: string; name: string; size: number; url_private: string };
  /** A response_url on this server. */
  responseUrl(id: string): string;
  /** A `url_private` on this server that answers 302 to `to` (bot token required, like a file). */
  redirectTo(to: string): string;
  /** Resolves when `predicate` holds (checked every 20 ms), rejects after `timeoutMs`. */
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs?: number, what?: string): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link startFakeSlack}. */
export interface FakeSlackOptions {
  /** The bot token the fake accepts (default `xoxb-test`); the app token gets `not_allowed_token_type`, others `invalid_auth`. */
  token?: string;
  /** The app-level token `apps.connections.open` accepts (default `xapp-test`). */
  appToken?: string;
  teamId?: string;
  /** Options of the Socket Mode endpoint. */
  socket?: FakeSlackSocketOptions;
  /**
   * Whether the workspace offers the agent surface (default true); false: its methods answer
   * `not_allowed`, as for an app without the agent feature.
   */
  agentSurface?: boolean;
  /** The bot token's scopes, announced by `auth.test` (`x-oauth-scopes`). */
  scopes?: string[];
}

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const token = options.token ?? 'xoxb-test';
  const appToken = options.appToken ?? 'xapp-test';
  const teamId = options.teamId ?? 'T0001';
  const calls: SlackCall[] = [];
  const uploads: SlackUpload[] = [];
  const responses: FakeSlack['responses'] = [];
  const failures = new Map<string, SlackFailure[]>();
  const hosted = new Map<string, Buffer>();
  const redirects = new Map<string, string>();
  const pending = new Map<string, { filename: string; bytes?: Buffer }>();
  const messages: { channel: string; ts: string; thread_ts?: string; text?: string }[] = [];
  let seq = 0;
  let origin = '';
  let socket: FakeSlackSocket | undefined;
  // Slack's ts: the post's time in seconds, and a sequence that keeps it unique
  const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++seq).padStart(6, '0')}`;
  const agent = new AgentSurface(nextTs, checkBlocks, options.agentSurface === false ? 'not_allowed' : undefined);
  const scopes = options.scopes ?? ['chat:write', 'commands', 'files:read', 'files:write', 'app_mentions:read', 'im:history', 'assistant:write'];

  const handlers: Record<string, (args: Record<string, unknown>) => Record<string, unknown>> = {
    ...agent.handlers(),
    'apps.connections.open': () => ({ url: socket!.openUrl() }),
    'views.open': (a) => {
      const view = (typeof a.view === 'string' ? JSON.parse(a.view) : a.view) as { type?: string; title?: { text?: string } } | undefined;
      if (!a.trigger_id) throw new SlackApiError('invalid_arguments');
      if (view?.type !== 'modal' || !view.title?.text || view.title.text.length > 24) throw new SlackApiError('invalid_arguments');
      return { view: { id: `V${String(++seq).padStart(6, '0')}`, ...view } };
    },
    'auth.test': () => ({ url: 'https://fake.slack.com/', team: 'Fake', user: 'code-agent', team_id: teamId, user_id: 'UBOT', bot_id: 'BBOT' }),
    'chat.postMessage': (a) => {
      checkBlocks(a.blocks);
      const msg = { channel: String(a.channel), ts: nextTs(), ...(a.thread_ts ? { thread_ts: String(a.thread_ts) } : {}), text: a.text as string };
      messages.push(msg);
      return { channel: msg.channel, ts: msg.ts, message: { text: msg.text, ts: msg.ts } };
    },
    'chat.update': (a) => {
      agent.checkUpdate(a.channel, a.ts);
      checkBlocks(a.blocks);
      return { channel: a.channel, ts: a.ts, text: a.text };
    },
    'chat.postEphemeral': () => ({ message_ts: nextTs() }),
    'chat.getPermalink': (a) => ({ permalink: `https://fake.slack.com/archives/${a.channel}/p${String(a.message_ts).replace('.', '')}` }),
    'conversations.replies': (a) => ({
      messages: messages.filter((m) => m.channel === a.channel && (m.ts === a.ts || m.thread_ts === a.ts)),
      has_more: false,
    }),
    'files.getUploadURLExternal': (a) => {
      const id = `F${String(++seq).padStart(6, '0')}`;
      pending.set(id, { filename: String(a.filename) });
      return { upload_url: `${origin}/upload/${id}`, file_id: id };
    },
    'files.completeUploadExternal': (a) => {
      const files = (a.files as { id: string; title?: string }[]) ?? [];
      for (const f of files) {
        const p = pending.get(f.id);
        if (!p?.bytes) throw new SlackApiError('invalid_arguments');
        uploads.push({ fileId: f.id, filename: p.filename, title: f.title, bytes: p.bytes, channel: a.channel_id as string | undefined, threadTs: a.thread_ts as string | undefined, at: Date.now() });
        pending.delete(f.id);
      }
      return { files: files.map((f) => ({ id: f.id, title: f.title })) };
    },
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', origin);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (url.pathname.startsWith('/upload/')) {
        const p = pending.get(url.pathname.slice('/upload/'.length));
        if (!p) return send(404, 'unknown upload');
        const parsed: ParsedBody = parseBody(raw, req.headers['content-type']);
        p.bytes = parsed.file ?? raw;
        return send(200, `OK - ${p.bytes.length}`, { 'content-type': 'text/plain' });
      }
      if (url.pathname.startsWith('/redirect/')) {
        if (bearer !== token) return send(403, 'forbidden');
        const to = redirects.get(url.pathname);
        if (!to) return send(404, 'not found');
        res.writeHead(302, { location: to });
        return res.end();
      }
      if (url.pathname.startsWith('/files/')) {
        if (bearer !== token) return send(403, 'forbidden');
        const bytes = hosted.get(url.pathname);
        if (!bytes) return send(404, 'not found');
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(bytes);
      }
      if (url.pathname.startsWith('/response/')) {
        responses.push({ id: url.pathname.slice('/response/'.length), body: JSON.parse(raw.toString() || '{}'), at: Date.now() });
        return send(200, 'ok', { 'content-type': 'text/plain' });
      }
      const method = url.pathname.replace(/^\/api\//, '');
      const args = parseBody(raw, req.headers['content-type']).fields;
      const callToken = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
      const call: SlackCall = { method, args, token: callToken, at: Date.now() };
      calls.push(call);
      const failure = failures.get(method)?.shift();
      if (failure && 'status' in failure) return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(failure.retryAfter) });
      if (failure) return send(200, { ok: false, error: failure.error });
      // apps.connections.open takes the app-level token, every other method the bot token
      const expected = method === 'apps.connections.open' ? appToken : token;
      if (callToken !== expected) {
        const wrongType = callToken === token || callToken === appToken;
        return send(200, { ok: false, error: wrongType ? 'not_allowed_token_type' : 'invalid_auth' });
      }
      const handler = handlers[method];
      if (!handler) return send(200, { ok: false, error: 'unknown_method' });
      try {
        call.result = { ok: true, ...handler(args) };
        if (method === 'chat.startStream') messages.push({ channel: String(args.channel), ts: String(call.result.ts), thread_ts: String(args.thread_ts), text: '' });
        return send(200, call.result, method === 'auth.test' ? { 'x-oauth-scopes': scopes.join(',') } : {});
      } catch (err) {
        call.result = { ok: false, error: err instanceof SlackApiError ? err.message : 'internal_error' };
        return send(200, call.result);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  socket = new FakeSlackSocket(server, origin, options.socket);

  return {
    apiUrl: `${origin}/api/`,
    origin,
    calls,
    uploads,
    socket,
    responses,
    agent,
    callsOf: (method) => calls.filter((c) => c.method === method),
    failNext: (method, ...f) => failures.set(method, [...(failures.get(method) ?? []), ...f]),
    hostFile(name, bytes) {
      const id = `F${String(++seq).padStart(6, '0')}`;
      const path = `/files/${id}/${encodeURIComponent(name)}`;
      hosted.set(path, bytes);
      return { id, name, size: bytes.length, url_private: `${origin}${path}` };
    },
    responseUrl: (id) => `${origin}/response/${id}`,
    redirectTo(to) {
      const path = `/redirect/${++seq}`;
      redirects.set(path, to);
      return `${origin}${path}`;
    },
    async waitFor(predicate, timeoutMs = 30_000, what = 'condition') {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = predicate();
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`fake Slack: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      await socket!.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/**
 * Block Kit limits, enforced like Slack does (`invalid_blocks`): at most 50 blocks, a section's text
 * at most 3000 characters. Source: https://docs.slack.dev/reference/block-kit/blocks/section-block
 */
function checkBlocks(blocks: unknown): void {
  if (!Array.isArray(blocks)) return;
  if (blocks.length > 50) throw new SlackApiError('invalid_blocks');
  for (const b of blocks as { type?: string; text?: { text?: string } }[]) {
    if (b.type === 'section' && (b.text?.text?.length ?? 0) > 3000) throw new SlackApiError('invalid_blocks');
  }
}
