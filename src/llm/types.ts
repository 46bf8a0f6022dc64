/**
 * The LLM boundary. Each vendor (OpenAI-compatible HTTP, local GGUF) is one file behind it.
 */

/** One message of a chat, in the OpenAI chat-completions sense. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Token counts of one completion. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** The reply of one completion. */
export interface Completion {
  content: string;
  usage: TokenUsage;
}

/** Options of one completion. */
export interface CompleteOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Called with each piece of text as it streams in (when the provider streams). */
  onToken?: (text: string) => void;
  /** Sampling temperature for this call only (0–2), instead of the provider's configured one. */
  temperature?: number;
}

/** A chat model. */
export interface LlmProvider {
  /** Short human name, e.g. `openai:gpt-4o-mini` or `local:qwen2.5-coder-0.5b`. */
  readonly name: string;
  /**
   * Completes a chat.
   * @throws {LlmError} with a message naming what to fix (key, model, URL).
   */
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion>;
}

/** An LLM request failed for good; `message` says what to fix. */
export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    message: string,
    /** HTTP status when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
