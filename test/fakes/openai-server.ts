/**
 * A scripted, local, OpenAI-compatible server for tests (node:http, no framework).
 *
 * It speaks just enough of the API for the real `openai` client (and any other
 * OpenAI-compatible client) to run against it:
 *
 * - `POST /v1/chat/completions`: non-streaming JSON, or SSE streaming
 *   (`data: {chat.completion.chunk}\n\n` … `data: [DONE]\n\n`) when `stream: true`, with a
 *   final usage chunk when `stream_options.include_usage` is set.
 * - `GET /v1/models`: the `models` list (or `['fake-model']`).
 *
 * Replies are scripted, one per chat-completion request, in order:
 * - a string is the assistant's content (200);
 * - a {@link FakeResponse} object: `{ content }` for a success with options (usage, delay,
 *   slow streaming), `{ status, body, headers }` for anything else (errors, rate limits),
 *   `{ hang: true }` for a server that never answers (timeouts);
 * - a function `(request, index) => string | FakeResponse` (may be async) computes the reply.
 *
 * When the script is exhausted: the `respond(request)` callback answers if given, otherwise the
 * last scripted reply is repeated; with neither, the server answers 400 "no reply scripted"
 * (400 so the client does not retry it).
 *
 * Checks done before the script is consulted (and which consume no scripted reply):
 * - with `apiKey`, `Authorization: Bearer <apiKey>` is required (401 in OpenAI's error shape);
 * - with `models`, an unknown `model` gets 404 `model_not_found` (OpenAI's shape).
 *
 * Every chat-completion request, accepted or not, is recorded in `fake.requests`
 * (parsed body, `messages`, headers, arrival time); `GET /v1/models` calls are not.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { startFakeOpenAi } from '../fakes/openai-server.js';
 *
 * const fake = await startFakeOpenAi({
 *   replies: [
 *     { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } },
 *     '```python\nprint("hi")\n```',
 *     (req) => `you said ${req.messages.at(-1)?.content}`,
 *   ],
 * });
 * try {
 *   const client = new OpenAI({ baseURL: fake.url, apiKey: 'test' });
 *   const r = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'x' }] });
 *   // r.choices[0].message.content === '```python\nprint("hi")\n```'
 *   // fake.requests.length === 2 (the 429 and the retry)
 * } finally {
 *   await fake.close();
 * }
 * ```
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat message as received. */
export interface FakeMessage {
  role: string;
  content: string;
  [key: string]: unknown;
}

/** One recorded `POST /v1/chat/completions` request. */
export interface FakeRequest {
  /** 0-based index among chat-completion requests. */
  index: number;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names. */
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (`undefined` if it did not parse). */
  body: Record<string, unknown> | undefined;
  /** `body.messages` (empty when absent). */
  messages: FakeMessage[];
  /** `body.model`. */
  model: string | undefined;
  /** `body.stream === true`. */
  stream: boolean;
  /** `Date.now()` when the request arrived. */
  at: number;
  /** When streaming: content chunks written before the stream ended or the client went away. */
  sentChunks: number;
}

/** OpenAI-style usage numbers. */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** A scripted reply other than a plain string. */
export type FakeResponse =
  | {
      /** The assistant's content (200). */
      content: string;
      /** Usage to report; default: an estimate (chars / 4). `null`: never report usage. */
      usage?: FakeUsage | null;
      /** `finish_reason`; default `stop`. */
      finishReason?: string;
      /** Wait this long before answering. */
      delayMs?: number;
      /** When streaming: the content pieces (their concatenation should be `content`); default: one piece per word. */
      chunks?: string[];
      /** When streaming: wait this long between chunks. */
      chunkDelayMs?: number;
      /** When streaming: end the stream after the content, without the final chunk (no `finish_reason`) and `[DONE]`. */
      endWithoutFinish?: boolean;
      /** Extra response headers. */
      headers?: Record<string, string>;
    }
  | {
      /** HTTP status to answer with. */
      status: number;
      /** JSON body (objects are serialised; strings are sent as-is). Default: an OpenAI-shaped error. */
      body?: unknown;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  | {
      /** Never answer (until `close()`), e.g. for timeout tests. */
      hang: true;
    };

/** What a scripted function may return. */
export type FakeReplyValue = string | FakeResponse;
/** One entry of the script. */
export type FakeReply = FakeReplyValue | ((request: FakeRequest, index: number) => FakeReplyValue | Promise<FakeReplyValue>);

export interface FakeOpenAiOptions {
  /** The script, one reply per chat-completion request (see the module doc). */
  replies?: FakeReply[];
  /** The port to listen on (default: a free one), e.g. a stopped fake's, to bring it back. */
  port?: number;
  /** Answers once the script is exhausted (instead of repeating the last reply). */
  respond?: (request: FakeRequest, index: number) => FakeReplyValue | Promise<FakeReplyValue>;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
  /** When set, other models get 404 `model_not_found`; also what `GET /v1/models` lists. */
  models?: string[];
}

export interface FakeOpenAi {
  /** Base URL to give a client, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Every chat-completion request so far, in arrival order. */
  readonly requests: FakeRequest[];
  /** Appends replies to the script. */
  enqueue(...replies: FakeReply[]): void;
  /** Stops the server, dropping open (e.g. hanging) connections. */
  close(): Promise<void>;
}

/** An OpenAI-shaped error body. */
export function openAiError(message: string, type = 'invalid_request_error', code: string | null = null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** Starts a fake on 127.0.0.1 (a free port). Remember to `close()` it. */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const script: FakeReply[] = [...(options.replies ?? [])];
  const requests: FakeRequest[] = [];
  let scriptPos = 0;
  let lastReply: FakeReply | undefined;
  let completionId = 0;

  const nextReply = (): FakeReply | undefined => {
    if (scriptPos < script.length) {
      lastReply = script[scriptPos++];
      return lastReply;
    }
    if (options.respond) return options.respond;
    return lastReply;
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, openAiError(`fake server error: ${String(err)}`, 'server_error'));
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);

    if (req.method === 'GET' && path === '/v1/models') {
      if (!authorised(req)) return sendJson(res, 401, badKey(req));
      const ids = options.models ?? ['fake-model'];
      return sendJson(res, 200, {
        object: 'list',
        data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
      });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, openAiError(`Unknown request URL: ${req.method} ${path}.`, 'invalid_request_error', 'unknown_url'));
    }

    let body: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    const index = requests.length;
    const request: FakeRequest = {
      index,
      method: req.method,
      path,
      headers: req.headers,
      body,
      messages: Array.isArray(body?.messages) ? (body.messages as FakeMessage[]) : [],
      model: typeof body?.model === 'string' ? body.model : undefined,
      stream: body?.stream === true,
      at: Date.now(),
      sentChunks: 0,
    };
    requests.push(request);

    if (!authorised(req)) return sendJson(res, 401, badKey(req));
    if (!body) return sendJson(res, 400, openAiError('We could not parse the JSON body of your request.'));
    if (!request.model) return sendJson(res, 400, openAiError('you must provide a model parameter', 'invalid_request_error', null, 'model'));
    if (options.models && !options.models.includes(request.model)) {
      return sendJson(
        res,
        404,
        openAiError(`The model \`${request.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'),
      );
    }

    const reply = nextReply();
    if (reply === undefined) {
      return sendJson(res, 400, openAiError(`fake OpenAI server: no reply scripted for request #${index}`));
    }
    const value = typeof reply === 'function' ? await reply(request, index) : reply;
    const response: FakeResponse = typeof value === 'string' ? { content: value } : value;

    if ('hang' in response) return; // never answer; close() drops the socket
    if (response.delayMs) await sleep(response.delayMs);
    if ('status' in response) {
      const b = response.body ?? openAiError(`fake error ${response.status}`, response.status >= 500 ? 'server_error' : 'invalid_request_error');
      res.writeHead(response.status, {
        'content-type': typeof b === 'string' ? 'text/plain' : 'application/json',
        ...response.headers,
      });
      res.end(typeof b === 'string' ? b : JSON.stringify(b));
      return;
    }

    const id = `chatcmpl-fake${++completionId}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = response.usage === null ? null : (response.usage ?? estimateUsage(request.messages, response.content));
    const finishReason = response.finishReason ?? 'stop';

    if (!request.stream) {
      return sendJson(
        res,
        200,
        {
          id,
          object: 'chat.completion',
          created,
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content: response.content, refusal: null }, logprobs: null, finish_reason: finishReason }],
          ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
        },
        response.headers,
      );
    }

    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...response.headers });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices, ...extra })}\n\n`;
    const write = async (s: string) => {
      if (res.destroyed) return;
      res.write(s);
      if (response.chunkDelayMs) await sleep(response.chunkDelayMs);
    };
    await write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], includeUsage ? { usage: null } : {}));
    for (const piece of response.chunks ?? splitWords(response.content)) {
      if (res.destroyed) break;
      request.sentChunks++;
      await write(chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }], includeUsage ? { usage: null } : {}));
    }
    if (response.endWithoutFinish) {
      res.end();
      return;
    }
    await write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }], includeUsage ? { usage: null } : {}));
    if (includeUsage && usage) {
      await write(chunk([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }));
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  }

  function authorised(req: http.IncomingMessage): boolean {
    return options.apiKey === undefined || req.headers.authorization === `Bearer ${options.apiKey}`;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    enqueue: (...replies) => {
      script.push(...replies);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function badKey(req: http.IncomingMessage) {
  const given = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  const shown = given ? `${given.slice(0, 3)}****${given.slice(-4)}` : '';
  return openAiError(
    given
      ? `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`
      : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    'invalid_request_error',
    given ? 'invalid_api_key' : null,
  );
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Pieces of `text` whose concatenation is `text`: each word with the whitespace after it. */
function splitWords(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** A deterministic stand-in for a tokenizer: about 4 characters per token. */
function estimateUsage(messages: FakeMessage[], content: string): FakeUsage {
  const promptChars = messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
  return { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(content.length / 4) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
