/**
 * An LlmProvider that passes every call to another one and notes when it ended and how many
 * tokens it used, so a bench counts every LLM call the agent makes (code, checks, reviews…)
 * whatever the agent records in its attempts.
 */
import type { ChatMessage, CompleteOptions, Completion, LlmProvider } from '../../src/llm/types.js';

/** One LLM call. */
export interface CallRecord {
  /** `performance.now()` when the reply arrived, in ms. */
  endedAt: number;
  /** Prompt + completion tokens. */
  tokens: number;
}

/** Counts the calls made through it; {@link CountingProvider.take} hands them over and starts afresh. */
export class CountingProvider implements LlmProvider {
  private calls: CallRecord[] = [];

  /** @param inner - the provider that answers. */
  constructor(readonly inner: LlmProvider) {}

  get name(): string {
    return this.inner.name;
  }

  async complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion> {
    const completion = await this.inner.complete(messages, options);
    this.calls.push({ endedAt: performance.now(), tokens: completion.usage.promptTokens + completion.usage.completionTokens });
    return completion;
  }

  /** The calls since the last `take()`, oldest first. */
  take(): CallRecord[] {
    const calls = this.calls;
    this.calls = [];
    return calls;
  }
}
