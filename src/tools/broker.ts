/**
 * The host-side broker of one execution: an HTTP server on a Unix socket (`broker.sock` in the
 * execution's tools folder, which the sandbox sees read-only; the sandbox itself keeps no network).
 * It serves:
 * - `POST /<route>` with a JSON body: a tool's route (`/sql`), answered in JSON;
 * - absolute-form requests (`GET http://host/path`): the HTTP tool, as a forward proxy;
 * - `CONNECT host:443`: https to an allowed host, terminated here with a certificate of the
 *   process's CA (mitm.ts), so the request inside is checked and forwarded like an http one.
 * Each call is checked against the conversation's rules, capped, and recorded; a refused call gets
 * a clear error at once (403/405/429/502/504 with a sentence saying which rule refused it).
 */
import http from 'node:http';
import https from 'node:https';
import { chmod, rm, writeFile } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { caCertificatePem, hostContext } from './mitm.js';
import { answerError, drainBody, forward, reasonPhrase, refuse, type Uploads } from './http/forward.js';
import { isRefusal, type CheckedTarget, type HttpPolicy } from './http/policy.js';
import { httpRecord, shortUrl } from './records.js';
import type { RouteHandler, RunningBroker, ToolBrokerStarter, ToolCallRecord } from './types.js';

/** The broker's socket in an execution's tools folder. */
export const BROKER_SOCKET = 'broker.sock';
/** The CA certificate in an execution's tools folder (only with an HTTP tool). */
export const BROKER_CA = 'ca.pem';
/** Largest JSON body of a route call, in bytes. */
export const MAX_ROUTE_BODY_BYTES = 1024 * 1024;
/**
 * The control route the sandbox's runner calls once the program ended, before the program's checks
 * run (`POST /.checks`; a tool's name cannot start with a dot): from then on the broker refuses
 * every call. Checks judge what the program printed; a check that fetched or queried the team's
 * systems itself would repeat the program's side effects (a second POST) or judge by a value of its own.
 */
export const CHECKS_ROUTE = '.checks';
/** Why a call made by the checks was refused. */
export const CHECKS_REFUSAL = "the checks may not call tools: they judge what the program printed and never reach the team's systems themselves";
/** Most records kept per execution (calls past it are still served and counted). */
export const MAX_RECORDS = 200;

/** Why an HTTP call past an execution's cap of `max` calls was refused. */
const tooManyHttpCalls = (max: number) => `this execution already made ${max} http calls, the most allowed (tools.http.max_calls)`;

/** What one execution's broker serves. */
export interface BrokerOptions {
  /** The HTTP tool's rules for the conversation, or undefined: no HTTP at all. */
  http?: HttpPolicy;
  /** Makes the routes of one execution, by name (`sql` → `POST /sql`); called at each start (per-execution counters). */
  routes?: () => Record<string, RouteHandler>;
}

/** Starts a broker per execution with the same options (the conversation's tools). */
export class ToolBroker implements ToolBrokerStarter {
  constructor(private readonly options: BrokerOptions) {}

  /**
   * Listens on `<dir>/broker.sock` (and writes `<dir>/ca.pem` with an HTTP tool).
   * @throws {Error} when the socket cannot be made
   */
  async start(dir: string): Promise<RunningBroker> {
    const session = new BrokerSession(this.options.http, this.options.routes?.() ?? {});
    if (this.options.http) await writeFile(join(dir, BROKER_CA), await caCertificatePem(), { mode: 0o644 });
    const path = join(dir, BROKER_SOCKET);
    await rm(path, { force: true });
    await new Promise<void>((resolve, reject) => {
      session.server.once('error', reject);
      session.server.listen(path, () => resolve());
    });
    await chmod(path, 0o666); // the sandbox's uid connects; only its own bind of the folder reaches it
    return { stop: () => session.stop(path) };
  }
}

/** One execution's server and records. */
class BrokerSession {
  readonly server: http.Server;
  private readonly records: ToolCallRecord[] = [];
  private calls = 0;
  /** Response bytes received from hosts so far, as they arrive (HTTP; cut responses too). */
  private received = 0;
  private readonly ended = new AbortController();
  /** Request bodies held at once (HTTP), at most one response cap in all. */
  private readonly uploads: Uploads;
  private readonly agents: { http: http.Agent; https: https.Agent };
  /** https tunnels: the server that reads the requests inside them. */
  private readonly tunnels: http.Server;
  private readonly tunnelTargets = new WeakMap<object, CheckedTarget>();
  private readonly sockets = new Set<Duplex>();
  /** Set once the program ended and its checks run: every call is refused from then on. */
  private checking = false;

  constructor(
    private readonly policy: HttpPolicy | undefined,
    private readonly routes: Record<string, RouteHandler>,
  ) {
    this.uploads = { held: 0, max: policy?.caps.maxResponseBytes ?? 0 };
    this.agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true, ca: policy?.upstreamCa }) };
    this.server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => void this.onRequest(req, res));
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.onConnect(req, socket, head));
    this.server.on('connection', (s: Duplex) => this.track(s));
    this.tunnels = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => void this.onTunnelRequest(req, res));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  async stop(path: string): Promise<ToolCallRecord[]> {
    this.ended.abort();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.tunnels.close();
    this.agents.http.destroy();
    this.agents.https.destroy();
    await rm(path, { force: true }).catch(() => undefined);
    return this.records;
  }

  /** Keeps a call's record, its summary redacted like what comes back (a reason may quote a server). */
  private record(r: ToolCallRecord): void {
    const redactor = this.policy?.redactor;
    if (this.records.length < MAX_RECORDS) this.records.push(redactor ? { ...r, summary: redactor.redactText(r.summary) } : r);
  }


  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    if (url === `/${CHECKS_ROUTE}` && req.method === 'POST') {
      this.checking = true;
      res.writeHead(204).end();
      return;
    }
    if (this.checking) return this.refuseChecks(req, res, url);
    if (url.startsWith('/')) return this.onRoute(req, res, url);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return refuse(req, res, 400, `not a URL: ${url.slice(0, 200)}`, MAX_ROUTE_BODY_BYTES);
    }
    if (target.protocol !== 'http:') return refuse(req, res, 400, `${target.protocol} requests go through CONNECT`, MAX_ROUTE_BODY_BYTES);
    await this.proxy(req, res, 'http', target);
  }

  /** A call made after the program ended (by its checks): refused and recorded. */
  private async refuseChecks(req: http.IncomingMessage, res: http.ServerResponse, label: string): Promise<void> {
    this.record(httpRecord((req.method ?? 'GET').toUpperCase(), label.slice(0, 200), 'refused: made by the checks', 0, 0));
    // the body is read first, as for every refusal: answered while it is still on its way, the
    // connection closes under it and the checks see "connection closed" instead of the refusal
    await refuse(req, res, 403, CHECKS_REFUSAL, this.policy?.caps.maxResponseBytes ?? MAX_ROUTE_BODY_BYTES);
  }

  /** The HTTP tool: one request, checked, forwarded, recorded. */
  private async proxy(req: http.IncomingMessage, res: http.ServerResponse, scheme: 'http' | 'https', url: URL, tunnel?: CheckedTarget): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const policy = this.policy;
    const label = shortUrl(url);
    if (!policy) {
      await refuse(req, res, 403, 'this conversation may not use the HTTP tool (tools.http.conversations)', MAX_ROUTE_BODY_BYTES);
      return this.record(httpRecord(method, label, 'refused: no HTTP tool here', 0, performance.now() - started));
    }
    this.calls += 1;
    if (this.calls > policy.caps.maxCalls) {
      await refuse(req, res, 429, tooManyHttpCalls(policy.caps.maxCalls), policy.caps.maxResponseBytes);
      return this.record(httpRecord(method, label, 'refused: too many calls', 0, performance.now() - started));
    }
    const port = Number(url.port || (scheme === 'https' ? 443 : 80));
    const checked = tunnel ? (policy.refuseMethod(method) ?? tunnel) : await policy.check(method, scheme, url.hostname, port);
    if (isRefusal(checked)) {
      await refuse(req, res, checked.status, checked.reason, policy.caps.maxResponseBytes);
      return this.record(httpRecord(method, label, `refused: ${checked.reason}`, 0, performance.now() - started));
    }
    const left = policy.caps.maxTotalBytes - this.received;
    if (left <= 0) {
      const why = `this execution already received ${policy.caps.maxTotalBytes} bytes, the most allowed (tools.http.max_total_mb)`;
      await refuse(req, res, 429, why, policy.caps.maxResponseBytes);
      return this.record(httpRecord(method, label, `refused: ${why}`, 0, performance.now() - started));
    }
    const perCall = left >= policy.caps.maxResponseBytes;
    const out = await forward(req, res, checked, `${url.pathname}${url.search}`, {
      maxBytes: perCall ? policy.caps.maxResponseBytes : left,
      maxBytesSetting: perCall ? 'tools.http.max_response_mb' : 'what is left of tools.http.max_total_mb',
      timeoutMs: policy.caps.timeoutMs,
      spend: (bytes) => {
        this.received += bytes;
        return this.received > policy.caps.maxTotalBytes ? `this execution received more than ${policy.caps.maxTotalBytes} bytes in all, the most allowed (tools.http.max_total_mb)` : undefined;
      },
      uploads: this.uploads,
      redactor: policy.redactor,
      methods: policy.methods,
      agents: this.agents,
      signal: this.ended.signal,
    });
    this.record(httpRecord(method, label, out.failure ? `${out.status} ${out.failure}` : out.status, out.bytes, performance.now() - started, out.answer));
  }

  /** `CONNECT host:port`: checked like a request (method aside), then TLS with the host's certificate. */
  private async onConnect(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    this.track(socket);
    const started = performance.now();
    const policy = this.policy;
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
    const refuseConnect = (status: number, reason: string) => {
      const body = `code-agent tools: ${reason}\n`;
      socket.end(`HTTP/1.1 ${status} ${reasonPhrase(reason)}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      this.record(httpRecord('CONNECT', req.url ?? '?', `refused: ${reason}`, 0, performance.now() - started));
    };
    if (this.checking) return refuseConnect(403, CHECKS_REFUSAL);
    if (!m) return refuseConnect(400, `CONNECT needs host:port, got ${(req.url ?? '').slice(0, 100)}`);
    if (!policy) return refuseConnect(403, 'this conversation may not use the HTTP tool (tools.http.conversations)');
    const host = m[1]!.replace(/^\[|\]$/g, '');
    const target = await policy.checkHost('https', host, Number(m[2]));
    if (isRefusal(target)) return refuseConnect(target.status, target.reason);
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head); // bytes of the TLS handshake that came with the CONNECT
    const tls = new TLSSocket(socket as never, { isServer: true, secureContext: hostContext(target.host) });
    tls.on('error', () => socket.destroy());
    this.tunnelTargets.set(tls, target);
    this.track(tls);
    this.tunnels.emit('connection', tls);
  }

  private async onTunnelRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const target = this.tunnelTargets.get(req.socket);
    if (!target) return answerError(res, 500, 'unknown tunnel');
    if (this.checking) return this.refuseChecks(req, res, `${target.host}${req.url ?? '/'}`); // a tunnel the program left open
    const port = target.port === 443 ? '' : `:${target.port}`;
    const host = target.host.includes(':') ? `[${target.host}]` : target.host;
    let url: URL;
    try {
      url = new URL(`https://${host}${port}${(req.url ?? '/').startsWith('/') ? req.url : '/'}`);
    } catch {
      return answerError(res, 400, 'not a request path');
    }
    await this.proxy(req, res, 'https', url, target);
  }

  /** `POST /<route>`: a tool's JSON route. */
  private async onRoute(req: http.IncomingMessage, res: http.ServerResponse, url: string): Promise<void> {
    const name = url.slice(1).split('?')[0]!;
    const handler = Object.hasOwn(this.routes, name) ? this.routes[name] : undefined;
    const json = (status: number, body: unknown) => {
      const data = Buffer.from(JSON.stringify(body));
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': data.length });
      res.end(data);
    };
    if (req.method !== 'POST' || !handler) {
      // the body is read first: answered while it is on its way, the caller would see the connection close instead
      await drainBody(req, MAX_ROUTE_BODY_BYTES);
      if (req.method !== 'POST') return json(405, { error: `use POST /${name}` });
      return json(404, { error: `no tool route /${name} here (this conversation may not use it, or it does not exist)` });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > MAX_ROUTE_BODY_BYTES) return json(413, { error: `the request is over ${MAX_ROUTE_BODY_BYTES} bytes` });
      chunks.push(c);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return json(400, { error: 'the request body is not JSON' });
    }
    try {
      const answer = await handler(payload, this.ended.signal);
      if (answer.record) this.record(answer.record);
      json(answer.status, answer.body);
    } catch (err) {
      json(500, { error: `the ${name} tool failed: ${(err as Error).message}` });
    }
  }
}
