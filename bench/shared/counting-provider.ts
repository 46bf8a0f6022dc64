/**
 * An LlmProvider that passes every call to another one and notes when it ended, what kind of call
 * it was and how many tokens it used, so a bench counts every LLM call the agent makes (code,
 * checks, reviews…) whatever the agent records in its attempts.
 */
import type { ChatMessage, CompleteOptions, Completion, LlmProvider } from '../../src/llm/types.js';
import { callKind, type CallKind } from './call-kind.js';

/** One LLM call. */
export interface CallRecord {
  /** `performance.now()` when the reply arrived, in ms. */
  endedAt: number;
  /** Prompt + completion tokens. */
  tokens: number;
  /** Prompt tokens (as the provider counted them). */
  promptTokens?: number;
  /** Completion tokens. */
  completionTokens?: number;
  /** What the call was for (see {@link callKind}). */
  kind?: CallKind;
  /** How the reply ended (`length`: cut at the longest reply allowed). */
  stopReason?: string;
}

/** Counts the calls made through it; {@link CountingProvider.take} hands them over and starts afresh. */
export class CountingProvider implements LlmProvider {
  private calls: CallRecord[] = [];
  /** Settles when the latest `prepare` did (a bench waits for it, as a long-running server would have). */
  prepared: Promise<void> = Promise.resolve();

  /** @param inner - the provider that answers. */
  constructor(readonly inner: LlmProvider) {}

  get name(): string {
    return this.inner.name;
  }

  get maxTokens(): number | undefined {
    return this.inner.maxTokens;
  }

  prepare(systemPrompts: readonly string[]): Promise<void> {
    this.prepared = this.inner.prepare?.(systemPrompts) ?? Promise.resolve();
    return this.prepared;
  }

  async complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion> {
    const completion = await this.inner.complete(messages, options);
    const { promptTokens, completionTokens } = completion.usage;
    this.calls.push({
      endedAt: performance.now(),
      tokens: promptTokens + completionTokens,
      promptTokens,
      completionTokens,
      kind: callKind(messages),
      stopReason: completion.stopReason,
    });
    return completion;
  }

  /** The calls since the last `take()`, oldest first. */
  take(): CallRecord[] {
    const calls = this.calls;
    this.calls = [];
    return calls;
  }
}
