/**
 * The REST half of the fake Discord: the routes discord.js calls for this bot, under `/api/v10`.
 * Every call is recorded (method, route, JSON body or multipart `payload_json` + files, status).
 *
 * - `GET /gateway/bot` → the fake gateway's `ws://` URL
 * - `POST /interactions/:id/:token/callback` → initial response (a second one gets 400 / code 40060)
 * - `GET|PATCH /webhooks/:app/:token/messages/@original`, `POST /webhooks/:app/:token` (follow-ups);
 *   tokens can be expired (401 / code 50027) to test the 15-minute limit, or unknown to Discord
 *   (404 / code 10015 Unknown Webhook or 10062 Unknown Interaction, set `refused` on the record)
 * - `POST /channels/:id/messages`, `PATCH /channels/:id/messages/:id`
 * - `POST /channels/:id/messages/:id/threads` (400 / code 50024 inside a thread or a forum)
 * - `PUT /applications/:app/commands`, `PUT /applications/:app/guilds/:guild/commands`
 * - `GET /channels/:id` → the channel (404 Unknown Channel when the world has none)
 * - `GET /attachments/:message/:name` → bytes of an uploaded or scripted file
 * Error shapes: https://discord.com/developers/docs/reference#error-messages
 */
import type http from 'node:http';
import { CHANNEL, snowflake, type FakeMessage, type FakeUser, type FakeWorld } from './discord-state.js';

/** One recorded REST call. */
export interface RestCall {
  method: string;
  /** Path after `/api/v10`, without the query, e.g. `/channels/1/messages`. */
  path: string;
  query: URLSearchParams;
  /** JSON body, or the multipart `payload_json`. */
  body: Record<string, unknown> | undefined;
  /** Uploaded files (multipart). */
  files: Array<{ name: string; data: Buffer }>;
  status: number;
  /** `Date.now()` at arrival. */
  at: number;
}

/** An interaction the fake dispatched, and what the bot answered. */
export interface InteractionRecord {
  id: string;
  token: string;
  channelId: string;
  /** `Date.now()` when dispatched. */
  dispatchedAt: number;
  /** Callback types received (4 reply, 5 defer, 6 deferred update, 9 modal). */
  callbacks: Array<{ type: number; data: Record<string, unknown> | undefined; at: number }>;
  originalMessageId?: string;
  expired: boolean;
  /** Set: every webhook call with this token is answered 404 with this code (10015 Unknown Webhook, 10062 Unknown Interaction). */
  refused?: 10015 | 10062;
}

type Reply = { status: number; body?: unknown };
/** A fault to inject: the first call matching `match` gets `reply` instead (then the rule is used up, unless `times` > 1). */
export interface RestFault {
  match: (method: string, path: string) => boolean;
  reply: Reply;
  times?: number;
}

/** The REST router. */
export class FakeRest {
  readonly calls: RestCall[] = [];
  readonly interactions = new Map<string, InteractionRecord>();
  readonly faults: RestFault[] = [];
  /** Files served under `/attachments/…` for messages that users "sent". */
  readonly userFiles = new Map<string, Buffer>();
  baseUrl = '';
  gatewayUrl = '';

  constructor(
    private readonly world: FakeWorld,
    private readonly onThreadCreated: (thread: Record<string, unknown>) => void,
  ) {}

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname.startsWith('/attachments/')) return this.serveFile(url.pathname, res);
    const raw = await readBody(req);
    const path = url.pathname.replace(/^\/api\/v\d+/, '');
    const { body, files } = await parseBody(raw, req.headers['content-type'] ?? '');
    const call: RestCall = { method: req.method ?? 'GET', path, query: url.searchParams, body, files, status: 0, at: Date.now() };
    this.calls.push(call);
    const fault = this.faults.find((f) => f.match(call.method, path));
    const invalid = checkLimits(raw.length, body);
    let reply: Reply;
    if (invalid) {
      reply = invalid;
    } else if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
      reply = fault.reply;
    } else {
      reply = this.route(call);
    }
    call.status = reply.status;
    if (reply.body === undefined) res.writeHead(reply.status).end();
    else res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  }

  private route(call: RestCall): Reply {
    const { method, path, body, files } = call;
    const parts = path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
    const fileMap = new Map(files.map((f) => [f.name, f.data]));
    if (method === 'GET' && path === '/gateway/bot') {
      return ok({ url: this.gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 } });
    }
    if (parts[0] === 'interactions' && parts[3] === 'callback' && method === 'POST') {
      const record = this.interactions.get(parts[1]!);
      if (!record || record.token !== parts[2]) return error(404, 10062, 'Unknown interaction');
      if (record.callbacks.length > 0) return error(400, 40060, 'Interaction has already been acknowledged.');
      const type = Number(body?.type);
      const data = body?.data as Record<string, unknown> | undefined;
      record.callbacks.push({ type, data, at: Date.now() });
      if (type === 4 || type === 5) {
        const message = this.world.addMessage(record.channelId, this.world.bot, { ...(data ?? {}), content: data?.content ?? '' }, fileMap, this.baseUrl);
        record.originalMessageId = message.id;
      }
      return call.query.get('with_response') === 'true' ? ok({ interaction: { id: record.id, type } }) : { status: 204 };
    }
    if (parts[0] === 'webhooks') {
      const record = [...this.interactions.values()].find((r) => r.token === parts[2]);
      if (!record || record.expired) return error(401, 50027, 'Invalid Webhook Token');
      if (record.refused) return error(404, record.refused, record.refused === 10015 ? 'Unknown Webhook' : 'Unknown interaction');
      if (parts[3] === 'messages' && parts[4] === '@original') {
        const message = record.originalMessageId ? this.world.messages.get(record.originalMessageId) : undefined;
        if (!message) return error(404, 10008, 'Unknown Message');
        if (method === 'PATCH') applyEdit(message, body, fileMap, this.world, this.baseUrl);
        return ok(this.world.json(message));
      }
      if (method === 'POST' && parts.length === 3) {
        return ok(this.world.json(this.world.addMessage(record.channelId, this.world.bot, body ?? {}, fileMap, this.baseUrl)));
      }
    }
    if (parts[0] === 'channels') {
      const channel = this.world.channels.get(parts[1]!);
      if (!channel) return error(404, 10003, 'Unknown Channel');
      if (parts.length === 2 && method === 'GET') return ok(channel);
      // the typing indicator (https://discord.com/developers/docs/resources/channel#trigger-typing-indicator): 204, recorded in `calls`
      if (parts[2] === 'typing' && parts.length === 3 && method === 'POST') return { status: 204 };
      if (parts[2] === 'messages' && parts.length === 3 && method === 'POST') {
        return ok(this.world.json(this.world.addMessage(channel.id, this.world.bot, body ?? {}, fileMap, this.baseUrl)));
      }
      const message = parts[3] ? this.world.messages.get(parts[3]) : undefined;
      if (parts[2] === 'messages' && parts.length === 4 && method === 'PATCH') {
        if (!message || message.channel_id !== channel.id) return error(404, 10008, 'Unknown Message');
        applyEdit(message, body, fileMap, this.world, this.baseUrl);
        return ok(this.world.json(message));
      }
      if (parts[2] === 'messages' && parts[4] === 'threads' && method === 'POST') {
        if (channel.type !== CHANNEL.text) return error(400, 50024, 'Cannot execute action on this channel type');
        if (!message) return error(404, 10008, 'Unknown Message');
        const thread = this.world.addThread(channel.id, String(body?.name ?? 'thread'), this.world.bot.id, message.id);
        this.onThreadCreated({ ...thread, newly_created: true });
        return ok(thread);
      }
    }
    if (parts[0] === 'applications' && method === 'PUT') {
      const commands = Array.isArray(body) ? body : ((call.body as unknown as unknown[]) ?? []);
      return ok(commands.map((c) => ({ ...(c as object), id: snowflake(), application_id: parts[1], version: snowflake() })));
    }
    return error(404, 0, `fake Discord has no route ${method} ${path}`);
  }

  private serveFile(pathname: string, res: http.ServerResponse): void {
    const [, , messageId, name] = pathname.split('/');
    const data = this.userFiles.get(`${messageId}/${decodeURIComponent(name ?? '')}`) ?? this.world.messages.get(messageId ?? '')?.files.get(decodeURIComponent(name ?? ''));
    if (!data) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length }).end(data);
  }
}

function applyEdit(message: FakeMessage, body: Record<string, unknown> | undefined, files: Map<string, Buffer>, world: FakeWorld, baseUrl: string): void {
  if (!body) return;
  if (typeof body.content === 'string') message.content = body.content;
  if (Array.isArray(body.components)) message.components = body.components;
  if ('allowed_mentions' in body) message.allowed_mentions = body.allowed_mentions;
  if (files.size > 0) {
    const fresh = world.addMessage(message.channel_id, message.author as FakeUser, {}, files, baseUrl, message.id);
    message.attachments = fresh.attachments;
    message.files = files;
    world.messages.set(message.id, message);
  }
  message.edits += 1;
  message.edited_timestamp = new Date().toISOString();
}

/**
 * Discord's own limits, enforced like Discord does: a request over 25 MiB is refused with 413
 * (code 40005), message content over 2000 characters with 400 (code 50035, Invalid Form Body).
 * Sources: https://discord.com/developers/docs/reference#uploading-files ,
 * https://discord.com/developers/docs/resources/message#create-message (content: up to 2000 characters)
 */
export const MAX_REQUEST_BYTES = 25 * 1024 * 1024;
function checkLimits(bytes: number, body: Record<string, unknown> | undefined): Reply | undefined {
  if (bytes > MAX_REQUEST_BYTES) return error(413, 40005, 'Request entity too large');
  const data = (body?.data ?? body) as Record<string, unknown> | undefined;
  if (typeof data?.content === 'string' && data.content.length > 2000) {
    return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } } } };
  }
  return undefined;
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

/** Discord's error shape: `{ code, message }`. */
export function error(status: number, code: number, message: string): Reply {
  return { status, body: { code, message } };
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** JSON, or multipart/form-data with `payload_json` and `files[n]` (parsed by undici's FormData). */
async function parseBody(raw: Buffer, contentType: string): Promise<{ body: Record<string, unknown> | undefined; files: RestCall['files'] }> {
  if (raw.length === 0) return { body: undefined, files: [] };
  if (contentType.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
    const files: RestCall['files'] = [];
    let body: Record<string, unknown> | undefined;
    for (const [field, value] of form.entries()) {
      if (field === 'payload_json' && typeof value === 'string') body = JSON.parse(value) as Record<string, unknown>;
      else if (typeof value !== 'string') files.push({ name: value.name, data: Buffer.from(await value.arrayBuffer()) });
    }
    return { body, files };
  }
  try {
    return { body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>, files: [] };
  } catch {
    return { body: undefined, files: [] };
  }
}
