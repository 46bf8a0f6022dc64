/**
 * Sends one checked request on, from the host, and hands the answer back to the program: hop-by-hop
 * and proxy headers dropped, the host's configured headers added (they replace any the program
 * sent), the body read up to the cap (a larger one is cut: the upstream connection is closed and
 * the program gets a 502 saying so), the time capped, and the configured secrets replaced in what
 * comes back — headers, body and the status line, whose phrase is always the standard one for its
 * code — so a server that echoes a credential does not hand it to the program (redact.ts).
 * Method-override headers go on only when the method they name is allowed.
 */
import { createHash } from 'node:crypto';
import http, { STATUS_CODES } from 'node:http';
import https from 'node:https';
import { decodeBody, transferCodings } from './decode.js';
import type { CheckedTarget } from './policy.js';
import { REDACTED, type Redactor } from './redact.js';

/** Headers by which frameworks (Rails, Laravel, Express's method-override, ASP.NET) let a request stand for another method. */
const METHOD_OVERRIDE = new Set(['x-http-method-override', 'x-http-method', 'x-method-override']);

/**
 * A header name as a server may read it: letter case folded and `_` taken for `-` (CGI and WSGI
 * servers turn both `X-HTTP-Method-Override` and `X_HTTP_Method_Override` into
 * `HTTP_X_HTTP_METHOD_OVERRIDE`), so every rule on a header's name holds for each spelling.
 */
export const unifiedName = (name: string): string => name.toLowerCase().replaceAll('_', '-');
/** A refused request's body is read (and thrown away) for at most this long, in ms, so the program gets the refusal and not a reset. */
const REFUSED_BODY_TIMEOUT_MS = 10_000;

/** Request and response headers that concern one connection only (RFC 9110 §7.6.1), plus proxy ones. */
const HOP_BY_HOP = new Set([
  'connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'host', 'content-length',
]);

/**
 * The request bodies one execution's broker holds at once: each body is read whole before it is
 * sent, so without a shared bound a program's many unfinished uploads would each take host memory
 * up to the per-request cap.
 */
export interface Uploads {
  /** Bytes held now. */
  held: number;
  /** Most bytes held at once (the broker uses one response cap, tools.http.max_response_mb). */
  readonly max: number;
}

/** What came back, for the record. */
export interface Forwarded {
  /** The status handed to the program. */
  status: number;
  /** Body bytes handed to the program. */
  bytes: number;
  /** Set when the broker answered instead of the server (a cap, an error): why. */
  failure?: string;
  /** SHA-256 (hex) of the status and body handed to the program, when the server answered. */
  answer?: string;
}

/** What {@link forward} needs besides the request. */
export interface ForwardContext {
  /** Largest body this request may hand back, in bytes, and the setting that says so (for the message). */
  maxBytes: number;
  maxBytesSetting: string;
  /** Longest the request may take, in ms. */
  timeoutMs: number;
  /**
   * Takes `bytes` received from the host from what the execution may still receive in all
   * (tools.http.max_total_mb), counted as they arrive so that concurrent requests share the cap.
   * @returns undefined, or why the response must be cut (the total is used up)
   */
  spend(bytes: number): string | undefined;
  /** Request-body bytes held at once by the execution's broker, shared by its concurrent requests. */
  uploads: Uploads;
  /** Replaces the configured credentials, in every form, in what comes back. */
  redactor: Redactor;
  /** The methods tools.http.methods allows (upper case): a method-override header naming another is dropped. */
  methods: ReadonlySet<string>;
  /** Keep-alive agents of this execution's broker. */
  agents: { http: http.Agent; https: https.Agent };
  /** Cancels the request (the broker stopped). */
  signal: AbortSignal;
}

/**
 * Reads a request body, refusing one over `max` bytes, or one that would take the bodies held at
 * once by this execution's broker (`uploads.held`, counted here as they arrive) past `uploads.max`.
 * The caller gives back the bytes of a body it was handed (`uploads.held -= body.length`) once sent.
 */
async function readBody(req: http.IncomingMessage, max: number, uploads: Uploads): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      uploads.held += chunk.length;
      if (size > max) throw new Error(`the request body is over ${max} bytes`);
      if (uploads.held > uploads.max) throw new Error(`the request bodies this execution is sending at once are over ${uploads.max} bytes`);
      chunks.push(chunk);
    }
  } catch (err) {
    uploads.held -= size;
    throw err;
  }
  return Buffer.concat(chunks);
}

function outgoingHeaders(req: http.IncomingMessage, target: CheckedTarget, body: Buffer, methods: ReadonlySet<string>): http.OutgoingHttpHeaders {
  const named = new Set((req.headers.connection ?? '').split(',').map((s) => unifiedName(s.trim())));
  const configured = new Set(Object.keys(target.headers).map(unifiedName));
  // a host given credentials answers whole bodies: a piece of an echoed credential is too short to be redacted
  const credentialed = configured.size > 0;
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) {
    const name = unifiedName(k);
    if (v === undefined || HOP_BY_HOP.has(name) || named.has(name) || configured.has(name)) continue;
    if (credentialed && (name === 'range' || name === 'if-range')) continue;
    if (METHOD_OVERRIDE.has(name) && [v].flat().some((m) => !methods.has(m.trim().toUpperCase()))) continue;
    headers[k] = v;
  }
  const defaultPort = target.scheme === 'https' ? 443 : 80;
  headers.host = target.port === defaultPort ? hostForHeader(target.host) : `${hostForHeader(target.host)}:${target.port}`;
  headers['accept-encoding'] = 'identity'; // what comes back is read for secrets
  if (body.length > 0 || !['GET', 'HEAD'].includes(req.method ?? 'GET')) headers['content-length'] = String(body.length);
  return { ...headers, ...target.headers };
}

const hostForHeader = (host: string) => (host.includes(':') ? `[${host}]` : host);

/**
 * Answers a request the broker refused, after reading its body and throwing it away (see
 * {@link drainBody}): a program still sending a body when the answer comes sees its connection
 * reset instead of the refusal.
 */
export async function refuse(req: http.IncomingMessage, res: http.ServerResponse, status: number, text: string, maxBytes: number): Promise<void> {
  await drainBody(req, maxBytes);
  answerError(res, status, text);
}

/**
 * Reads a request's body and throws it away, at most `maxBytes` (the most an allowed request may
 * send) for at most {@link REFUSED_BODY_TIMEOUT_MS}; resolves `true` once it ended, `false` past
 * either bound (the answer then goes at once, and the connection closes under the rest).
 */
export function drainBody(req: http.IncomingMessage, maxBytes: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (req.complete || req.readableEnded) return resolve(true);
    let size = 0;
    const done = (ok: boolean) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onEnd);
      resolve(ok);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const timer = setTimeout(() => done(false), REFUSED_BODY_TIMEOUT_MS);
    req.on('data', onData).on('end', onEnd).on('error', onEnd);
  });
}

/** The response's headers with the credentials redacted in names and values; a header whose name held one is dropped. */
function answerHeaders(answer: http.IncomingMessage, redactor: Redactor, decoded: boolean): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const raw = answer.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const k = name.toLowerCase();
    if (HOP_BY_HOP.has(k) || (decoded && k === 'content-encoding')) continue;
    if (redactor.redactText(name).includes(REDACTED)) continue;
    const value = redactor.redactText(raw[i + 1]!);
    const had = headers[name];
    headers[name] = had === undefined ? value : [...[had].flat().map(String), value];
  }
  return headers;
}

/**
 * Answers the program with a plain-text error (the broker's, not the server's). The reason is also
 * the status line's phrase, so `HTTP Error 403: …` (urllib) and `raise_for_status()` say it.
 */
export function answerError(res: http.ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(`code-agent tools: ${text}\n`);
  res.writeHead(status, reasonPhrase(text), { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length, 'x-code-agent-refused': '1' });
  res.end(body);
}

/** A status line's phrase from a sentence: printable ASCII, at most 300 characters. */
export function reasonPhrase(text: string): string {
  const clean = `code-agent tools: ${text}`.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 300 ? `${clean.slice(0, 299)}~` : clean;
}

/**
 * Forwards `req` (path `path`, with query) to the checked target and answers `res`.
 * Never throws: every failure becomes an answer to the program and a {@link Forwarded} saying why.
 */
export async function forward(req: http.IncomingMessage, res: http.ServerResponse, target: CheckedTarget, path: string, ctx: ForwardContext): Promise<Forwarded> {
  let body: Buffer;
  try {
    body = await readBody(req, ctx.maxBytes, ctx.uploads);
  } catch (err) {
    answerError(res, 413, (err as Error).message);
    return { status: 413, bytes: 0, failure: (err as Error).message };
  }
  const lib = target.scheme === 'https' ? https : http;
  return new Promise<Forwarded>((resolve) => {
    let done = false;
    const finish = (f: Forwarded) => {
      if (done) return;
      done = true;
      ctx.uploads.held -= body.length;
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(f);
    };
    const fail = (status: number, reason: string) => {
      // a reason may hold the server's own text: redacted like the body before the program or a record sees it
      const why = ctx.redactor.redactText(reason);
      upstream.destroy();
      answerError(res, status, why);
      finish({ status, bytes: 0, failure: why });
    };
    const upstream = lib.request({
      host: target.address,
      port: target.port,
      method: req.method,
      path,
      headers: outgoingHeaders(req, target, body, ctx.methods),
      agent: target.scheme === 'https' ? ctx.agents.https : ctx.agents.http,
      ...(target.scheme === 'https' ? { servername: isIpLiteral(target.host) ? undefined : target.host } : {}),
    });
    const timer = setTimeout(() => fail(504, `no complete answer from ${target.host} within ${ctx.timeoutMs} ms (tools.http.timeout_s)`), ctx.timeoutMs);
    const onAbort = () => fail(503, 'the execution ended');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    upstream.on('error', (err) => fail(502, `${target.host}: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
    upstream.on('response', (answer) => {
      const declared = Number(answer.headers['content-length'] ?? NaN);
      const tooBig = () => `the response from ${target.host} is larger than the cap of ${ctx.maxBytes} bytes (${ctx.maxBytesSetting}); it was cut`;
      if (declared > ctx.maxBytes) return fail(502, tooBig());
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (c: Buffer) => {
        if (done) return;
        size += c.length;
        const overTotal = ctx.spend(c.length);
        if (size > ctx.maxBytes) fail(502, tooBig());
        else if (overTotal) fail(502, `the response from ${target.host} was cut: ${overTotal}`);
        else chunks.push(c);
      });
      answer.on('error', (err) => fail(502, `${target.host}: ${err.message}`));
      answer.on('end', async () => {
        if (done) return;
        const received = Buffer.concat(chunks);
        // transfer-codings first (the last applied), then the content's: a HEAD's or a 304's empty body has nothing to decode
        const codings = [answer.headers['content-encoding'], transferCodings(answer.headers['transfer-encoding'])].filter((c) => c).join(', ');
        const encoded = received.length > 0 && codings !== '';
        const decoded = encoded ? await decodeBody(received, codings, ctx.maxBytes) : received;
        if (done) return;
        if (typeof decoded === 'string') return fail(502, `the response from ${target.host} was refused: ${decoded}`);
        const overTotal = decoded.length > received.length ? ctx.spend(decoded.length - received.length) : undefined;
        if (overTotal) return fail(502, `the response from ${target.host} was cut: ${overTotal}`);
        const data = ctx.redactor.redact(decoded);
        const headers = answerHeaders(answer, ctx.redactor, encoded);
        if (req.method !== 'HEAD') headers['content-length'] = data.length;
        else if (answer.headers['content-length'] !== undefined) headers['content-length'] = answer.headers['content-length'];
        const status = answer.statusCode ?? 502;
        // the server's own phrase could carry anything (an echoed credential): the standard one for the code
        res.writeHead(status, STATUS_CODES[status] ?? 'Unknown', headers);
        res.end(req.method === 'HEAD' ? undefined : data);
        finish({ status, bytes: data.length, answer: createHash('sha256').update(`${status}\n`).update(req.method === 'HEAD' ? '' : data).digest('hex') });
      });
    });
    upstream.end(body);
  });
}

const isIpLiteral = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');
