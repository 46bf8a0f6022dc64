/**
 * The LLM boundary. Each vendor (OpenAI-compatible HTTP, local GGUF) is one file behind it.
 */
import { redactUrls } from '../text/redact.js';
import type { TokenUsage } from '../history/run-parts.js';
export type { TokenUsage } from '../history/run-parts.js';

/** One message of a chat, in the OpenAI chat-completions sense. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}


/**
 * How a completion ended: `stop` the model ended its reply; `length` it reached the longest reply
 * allowed (OpenAI's `finish_reason: "length"`, node-llama-cpp's `maxTokens`); `unfinished` the
 * stream ended without its final event (a connection lost mid-reply). Only `stop` is a whole reply.
 */
export type StopReason = 'stop' | 'length' | 'unfinished';

/** The reply of one completion. */
export interface Completion {
  content: string;
  usage: TokenUsage;
  /** How it ended; a provider that cannot tell says `stop`. */
  stopReason: StopReason;
}

/** Options of one completion. */
export interface CompleteOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Called with each piece of text as it streams in (when the provider streams). */
  onToken?: (text: string) => void;
  /** Sampling temperature for this call only (0–2), instead of the provider's configured one. */
  temperature?: number;
  /**
   * Longest reply of this call only, in tokens, instead of the provider's configured one (a local
   * model caps it at what its context leaves after the prompt).
   */
  maxTokens?: number;
  /**
   * Discourages the model from repeating itself in this call (a reply that degenerated into
   * repeating lines): OpenAI's `frequency_penalty`/`presence_penalty`, node-llama-cpp's repeat penalty.
   */
  avoidRepetition?: boolean;
  /**
   * Ends the reply early, as a whole reply (`stopReason: 'stop'`), as soon as this returns true for
   * the text so far: what the model would write after it is read by no one (an explanation after a
   * program's closing fence). Called after each streamed piece. A provider that cannot end a reply
   * early (the OpenAI provider, whose usage is only known at the end of a stream) ignores it.
   */
  endWhen?: (textSoFar: string) => boolean;
}

/** A chat model. */
export interface LlmProvider {
  /** Short human name, e.g. `openai:gpt-4o-mini` or `local:qwen2.5-coder-0.5b`. */
  readonly name: string;
  /** The longest reply of a call that does not say, in tokens, when the provider knows it. */
  readonly maxTokens?: number;
  /**
   * Completes a chat.
   * @throws {LlmError} with a message naming what to fix (key, model, URL).
   */
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion>;
  /**
   * Optional (local models): reads ahead the start of chats that begin with each of these system
   * prompts, so that requests starting that way skip it. Resolves when done; never rejects.
   */
  prepare?(systemPrompts: readonly string[]): Promise<void>;
  /**
   * Optional: resolves when the LLM can serve requests now (a health check: an API server lists
   * its models, a local model is loaded), without spending tokens.
   * @throws {LlmError} saying why not.
   */
  ping?(signal?: AbortSignal): Promise<void>;
  /**
   * Optional (local models): frees what the provider holds (a model's context), after the requests
   * in progress; work read ahead by {@link prepare} stops early. Later requests fail.
   */
  dispose?(): Promise<void>;
}

/**
 * An LLM request failed for good. `message` says what to fix, for the operator (URLs in it carry no
 * credentials, query or fragment); `publicMessage` says what happened in plain words, for the
 * people in the channel (no URL, no provider text, no key).
 */
export class LlmError extends Error {
  override name = 'LlmError';
  /** Plain words for users, e.g. `the LLM rejected the API key`. */
  readonly publicMessage: string;
  constructor(
    message: string,
    /** HTTP status when there was one. */
    readonly status?: number,
    options?: { cause?: unknown; publicMessage?: string },
  ) {
    super(redactUrls(message), options);
    this.publicMessage = options?.publicMessage ?? publicWords(status);
  }
}

/** What users are told for an HTTP status of the LLM endpoint. */
function publicWords(status: number | undefined): string {
  if (status === 401) return 'the LLM rejected the API key (the operator has the details)';
  if (status === 403) return 'the LLM refused access (the operator has the details)';
  if (status === 404) return 'the LLM model is not available (the operator has the details)';
  if (status === 429) return 'the LLM is busy or out of quota; try again later';
  return 'the LLM is unavailable (the operator has the details)';
}
