/**
 * What the OpenAI client threw, in words that say what to fix (`LlmError`): the server, the key,
 * the model, the quota, the connection's own reason; and the error of a cancelled request.
 */
import OpenAI from 'openai';
import { LlmError } from './types.js';

/** The server a provider talks to and its bounds, as its errors name them. */
export interface LlmEndpoint {
  /** The server's base URL (`llm.base_url`). */
  baseUrl: string;
  /** The model asked for (`llm.model`). */
  model: string;
  /** Per-attempt timeout, in ms (`llm.timeout_s`). */
  timeoutMs: number;
  /** Retries after the first attempt (`llm.max_retries`). */
  maxRetries: number;
}

/**
 * Turns whatever the client threw into an `LlmError` that says what to fix: a timeout, an
 * unreachable server, a refused key, a missing model, a quota or rate limit, another status.
 * @param at the provider's server, model, per-attempt timeout (ms) and retries, named in the message
 */
export function toLlmError(err: unknown, at: LlmEndpoint): LlmError {
  if (err instanceof LlmError) return err;
  const where = at.baseUrl;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmError(
      `the LLM at ${where} did not answer within ${seconds(at.timeoutMs)} s (llm.timeout_s), ${at.maxRetries + 1} attempt(s)`,
      undefined,
      { cause: err },
    );
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new LlmError(
      `cannot reach the LLM at ${where} (${connectionReason(err)}): check llm.base_url (or OPENAI_BASE_URL, which sets it) and that the server is running`,
      undefined,
      { cause: err },
    );
  }
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    const status = err.status;
    const said = serverMessage(err);
    if (status === 401) {
      return new LlmError(`the LLM at ${where} rejected the API key (401${said ? `: ${said}` : ''}): check llm.api_key`, status, { cause: err });
    }
    if (status === 404 || err.code === 'model_not_found') {
      return new LlmError(
        `model "${at.model}" was not found at ${where} (${status}${said ? `: ${said}` : ''}): check llm.model` +
          (err.code === 'model_not_found' ? '' : ' and llm.base_url (or OPENAI_BASE_URL; usually ending in /v1)'),
        status,
        { cause: err },
      );
    }
    if (status === 403) {
      return new LlmError(`the LLM at ${where} refused access (403${said ? `: ${said}` : ''}): check llm.api_key and its access to model "${at.model}"`, status, { cause: err });
    }
    if (status === 429) {
      const quota = err.code === 'insufficient_quota';
      return new LlmError(
        `the LLM at ${where} is ${quota ? 'out of quota' : 'rate-limiting requests'} (429${said ? `: ${said}` : ''})` +
          (quota ? ': check the account\'s plan and billing' : `, still after ${at.maxRetries} retries`),
        status,
        { cause: err },
      );
    }
    return new LlmError(`the LLM at ${where} answered ${status}${said ? `: ${said}` : ''}`, status, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new LlmError(`LLM request to ${where} failed: ${message}`, undefined, { cause: err });
}

/** Milliseconds as seconds with one decimal, for messages. */
export function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** The server's own words, without the status prefix the client adds. */
function serverMessage(err: InstanceType<typeof OpenAI.APIError>): string {
  const m = err.message.replace(/^\d{3}\s*/, '').trim();
  return m === 'status code (no body)' ? '' : m;
}

/** `ECONNREFUSED`, `ENOTFOUND host`, … from the chain of causes of a fetch failure. */
function connectionReason(err: Error): string {
  let e: unknown = err.cause;
  let deepest = err.message;
  for (let depth = 0; e && depth < 5; depth++) {
    const x = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof x.message === 'string' && x.message) deepest = x.message;
    if (typeof x.code === 'string' && x.code.startsWith('E')) {
      if (x.code === 'ENOTFOUND' || x.code === 'EAI_AGAIN') return `${x.code}: the host name does not resolve`;
      if (x.code === 'ECONNREFUSED') return 'ECONNREFUSED: nothing is listening there';
      return x.code;
    }
    // AggregateError (e.g. both IPv4 and IPv6 refused)
    if (Array.isArray(x.errors) && x.errors.length > 0) {
      e = x.errors[0];
      continue;
    }
    e = x.cause;
  }
  // e.g. undici's "bad port" for ports fetch refuses (9, 25, …)
  return deepest;
}

/** The error of a request cancelled through its signal. */
export function abortError(signal: AbortSignal): LlmError {
  return new LlmError('the LLM request was cancelled', undefined, { cause: signal.reason });
}
