/**
 * `LlmProvider` for OpenAI and any OpenAI-compatible server (Ollama, LM Studio, vLLM,
 * llama.cpp server), on the official `openai` client.
 *
 * Retries and timeouts are the client's own: it retries 408/409/429/5xx and connection errors
 * with exponential backoff, honouring `Retry-After` / `retry-after-ms`, and aborts each attempt
 * after `timeoutMs`. This file adds what the client lacks: an idle timeout while a stream is
 * being read (the client's timeout only covers the wait for headers), prompt cancellation
 * (also during a backoff sleep), a one-time fallback for servers and models that reject some
 * parameters, and errors that say what to fix (`LlmError`, in `openai-errors.ts`).
 */
import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { SeedSequence } from './seed.js';
import { abortError, seconds, toLlmError } from './openai-errors.js';
import { LlmError, type ChatMessage, type CompleteOptions, type Completion, type LlmProvider, type StopReason, type TokenUsage } from './types.js';

/** Where requests go when no base URL is configured. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Per-attempt request timeout (config `llm.timeout_s`, default 120). */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Retries after the first attempt (config `llm.max_retries`). */
export const DEFAULT_MAX_RETRIES = 3;
/** Sent as the API key to local servers, which ignore it (the client refuses an empty key). */
export const PLACEHOLDER_API_KEY = 'not-needed';

export interface OpenAiProviderOptions {
  /** `llm.api_key`. Optional when `baseUrl` points at a local server. */
  apiKey?: string;
  /** `llm.base_url`, e.g. `http://localhost:11434/v1`. Default: OpenAI. */
  baseUrl?: string;
  /** `llm.model`. */
  model: string;
  /** Timeout of each attempt, and the longest silence tolerated inside a stream. */
  timeoutMs?: number;
  /** Retries on 408/409/429/5xx and network errors. */
  maxRetries?: number;
  temperature?: number;
  /** The base `seed` sent with the calls (config `llm.seed`; seed.ts: one more for each call). Unset: not sent. */
  seed?: number;
  maxTokens?: number;
  /** Stream the reply (calls `onToken` per piece). Default true. */
  stream?: boolean;
}

/** Request parameters some servers or models refuse; dropped/renamed once, then remembered. */
interface Compat {
  /** Send `max_completion_tokens` instead of `max_tokens` (OpenAI reasoning models). */
  maxCompletionTokens: boolean;
  /** Do not send `temperature` (models that only accept their default). */
  noTemperature: boolean;
  /** Do not send `stream_options` (older OpenAI-compatible servers). */
  noStreamOptions: boolean;
  /** Do not send `frequency_penalty`/`presence_penalty` (servers that refuse them). */
  noPenalties: boolean;
}

/** The penalties sent when a call asks to avoid repetition (OpenAI's range is -2 to 2). */
const AVOID_REPETITION = { frequency_penalty: 0.6, presence_penalty: 0.3 };

export class OpenAiProvider implements LlmProvider {
  readonly name: string;
  readonly model: string;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly temperature: number | undefined;
  private readonly seeds: SeedSequence;
  readonly maxTokens: number | undefined;
  private readonly stream: boolean;
  private readonly compat: Compat = { maxCompletionTokens: false, noTemperature: false, noStreamOptions: false, noPenalties: false };

  /** @throws {LlmError} when neither an API key nor a base URL is given. */
  constructor(options: OpenAiProviderOptions) {
    if (!options.model) throw new LlmError('llm.model is not set: name the model to use (e.g. gpt-4o-mini, or qwen2.5-coder for Ollama)');
    const apiKey = nonEmpty(options.apiKey);
    const baseUrl = nonEmpty(options.baseUrl);
    if (!apiKey && !baseUrl) {
      throw new LlmError(
        'no API key for OpenAI: set llm.api_key (or OPENAI_API_KEY), or set llm.base_url to a local OpenAI-compatible server',
      );
    }
    this.model = options.model;
    this.name = `openai:${options.model}`;
    this.baseUrl = (baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.temperature = options.temperature;
    this.seeds = new SeedSequence(options.seed);
    this.maxTokens = options.maxTokens;
    this.stream = options.stream ?? true;
    this.client = new OpenAI({
      apiKey: apiKey ?? PLACEHOLDER_API_KEY,
      baseURL: this.baseUrl,
      timeout: this.timeoutMs,
      maxRetries: this.maxRetries,
      // Passed explicitly so that no OPENAI_* variable changes behaviour behind the config's back.
      organization: null,
      project: null,
    });
  }

  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    const { signal } = options;
    if (signal?.aborted) throw abortError(signal);
    // Up to one fallback per incompatible parameter.
    for (let tries = 0; ; tries++) {
      try {
        const work = this.stream ? this.completeStreaming(messages, options) : this.completeOnce(messages, options);
        return await raceAbort(work, signal);
      } catch (err) {
        if (signal?.aborted) throw abortError(signal);
        if (tries < 3 && this.adaptTo(err)) continue;
        throw this.toLlmError(err);
      }
    }
  }

  private params(messages: ChatMessage[], options: CompleteOptions) {
    const temperature = options.temperature ?? this.temperature;
    const maxTokens = options.maxTokens ?? this.maxTokens;
    return {
      model: this.model,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      ...(temperature !== undefined && !this.compat.noTemperature ? { temperature } : {}),
      ...seedOf(this.seeds.next()),
      ...(maxTokens !== undefined
        ? this.compat.maxCompletionTokens
          ? { max_completion_tokens: maxTokens }
          : { max_tokens: maxTokens }
        : {}),
      ...(options.avoidRepetition && !this.compat.noPenalties ? AVOID_REPETITION : {}),
    };
  }

  private async completeOnce(messages: ChatMessage[], options: CompleteOptions): Promise<Completion> {
    const body: ChatCompletionCreateParamsNonStreaming = { ...this.params(messages, options), stream: false };
    const res = await this.client.chat.completions.create(body, { signal: options.signal });
    return {
      content: res.choices[0]?.message?.content ?? '',
      usage: toUsage(res.usage),
      stopReason: toStopReason(res.choices[0]?.finish_reason),
    };
  }

  private async completeStreaming(messages: ChatMessage[], options: CompleteOptions): Promise<Completion> {
    // Our own controller: the caller's signal, plus an idle timeout while the body streams in.
    const controller = new AbortController();
    const unlink = link(options.signal, controller);
    let idleTimedOut = false;
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        idleTimedOut = true;
        controller.abort();
      }, this.timeoutMs);
    };
    try {
      const body: ChatCompletionCreateParamsStreaming = {
        ...this.params(messages, options),
        stream: true,
        ...(this.compat.noStreamOptions ? {} : { stream_options: { include_usage: true } }),
      };
      const stream = await this.client.chat.completions.create(body, { signal: controller.signal });
      let content = '';
      let usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
      // a stream that ends without a finish_reason was cut (connection lost, proxy timeout)
      let finish: string | null | undefined;
      armIdle();
      // The client ends the iteration quietly when aborted; the checks after the loop tell why.
      for await (const chunk of stream) {
        armIdle();
        const piece = chunk.choices[0]?.delta?.content;
        if (piece) {
          content += piece;
          options.onToken?.(piece);
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = toUsage(chunk.usage);
      }
      if (options.signal?.aborted) throw abortError(options.signal);
      if (idleTimedOut) throw new LlmError(`the LLM at ${this.baseUrl} stopped sending for ${seconds(this.timeoutMs)} s (llm.timeout_s)`);
      return { content, usage, stopReason: finish ? toStopReason(finish) : 'unfinished' };
    } finally {
      clearTimeout(idle);
      unlink();
    }
  }

  /** Lists the server's models (`GET /models`, no tokens spent), once, without retries. @throws {LlmError} saying why it failed. */
  async ping(signal?: AbortSignal): Promise<void> {
    try {
      await this.client.models.list({ signal, maxRetries: 0 });
    } catch (err) {
      throw this.toLlmError(err);
    }
  }

  /** Adjusts the request after a 400 that names a parameter this server/model refuses. True if worth another try. */
  private adaptTo(err: unknown): boolean {
    if (!(err instanceof OpenAI.APIError) || err.status !== 400) return false;
    const text = `${err.param ?? ''} ${err.message}`.toLowerCase();
    if (!this.compat.maxCompletionTokens && this.maxTokens !== undefined && text.includes('max_tokens') && text.includes('max_completion_tokens')) {
      this.compat.maxCompletionTokens = true;
      return true;
    }
    if (!this.compat.noTemperature && this.temperature !== undefined && text.includes('temperature') && /unsupported|not support/.test(text)) {
      this.compat.noTemperature = true;
      return true;
    }
    if (!this.compat.noPenalties && /frequency_penalty|presence_penalty/.test(text)) {
      this.compat.noPenalties = true;
      return true;
    }
    if (this.stream && !this.compat.noStreamOptions && text.includes('stream_options')) {
      this.compat.noStreamOptions = true;
      return true;
    }
    return false;
  }

  /** Turns whatever the client threw into an `LlmError` that says what to fix (`openai-errors.ts`). */
  private toLlmError(err: unknown): LlmError {
    return toLlmError(err, { baseUrl: this.baseUrl, model: this.model, timeoutMs: this.timeoutMs, maxRetries: this.maxRetries });
  }
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

/** `length` (and `content_filter`, a reply cut by the server) are not whole replies. */
function toStopReason(finish: string | null | undefined): StopReason {
  if (finish === 'length') return 'length';
  if (finish === 'content_filter') return 'unfinished';
  return 'stop';
}

function toUsage(u: { prompt_tokens?: number; completion_tokens?: number } | null | undefined): TokenUsage {
  return { promptTokens: u?.prompt_tokens ?? 0, completionTokens: u?.completion_tokens ?? 0 };
}

/** Makes `controller` abort when `signal` does; returns the unlinking function. */
function link(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => {};
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/**
 * Settles with `work`, or rejects as soon as `signal` aborts — the client itself only notices an
 * abort between attempts, after a `Retry-After` sleep that can last long.
 */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => {}); // it will settle later, quietly
      reject(abortError(signal));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The `seed` parameter of a call, when there is one. */
function seedOf(seed: number | undefined): { seed?: number } {
  return seed === undefined ? {} : { seed };
}
