/**
 * `llm.provider: local`: a GGUF model run in-process by llama.cpp (node-llama-cpp).
 * The model is loaded once per process and shared; each provider keeps one context whose KV cache
 * is reused between requests (the common prefix of a run's chat is not evaluated again).
 * Requests are served one at a time, in order: concurrent calls wait in a queue.
 */
import { basename } from 'node:path';
import PQueue from 'p-queue';
import { LlamaChat, resolveChatWrapper, type LlamaContext, type LlamaModel } from 'node-llama-cpp';
import { LlmError, type ChatMessage, type CompleteOptions, type Completion, type LlmProvider } from './types.js';
import { toChatHistory } from './local-messages.js';
import { sharedModel } from './local-runtime.js';

/** Timing of one local completion. */
export interface CompletionTiming {
  /** Tokens of the whole rendered prompt (chat template included). */
  promptTokens: number;
  completionTokens: number;
  /** From the start of the request (after the queue) to the first generated text, in ms. */
  timeToFirstTokenMs: number;
  /** From the start of the request to the end, in ms. */
  totalMs: number;
  /** Generated tokens per second, from the first token to the end. */
  tokensPerSecond: number;
}

/** Options of {@link LocalLlamaProvider.load}. */
export interface LocalProviderOptions {
  /** The GGUF file. */
  modelPath: string;
  /** Context window in tokens. Default 4096. */
  contextSize?: number;
  /** CPU threads; 0 or unset = node-llama-cpp's default (all cores). */
  threads?: number;
  /** Sampling temperature. Default 0 (greedy: the most likely code). */
  temperature?: number;
  /** Longest reply in tokens. Default 2048. */
  maxTokens?: number;
  /** Receives the timing of each completion (benchmarks). */
  onTiming?: (timing: CompletionTiming) => void;
}

/** A chat model running in this process. Build it with {@link LocalLlamaProvider.load}. */
export class LocalLlamaProvider implements LlmProvider {
  readonly name: string;
  private readonly queue = new PQueue({ concurrency: 1 });
  private readonly chat: LlamaChat;

  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly options: LocalProviderOptions,
  ) {
    this.name = `local:${basename(options.modelPath).replace(/\.gguf$/i, '').toLowerCase()}`;
    this.chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: resolveChatWrapper(model) });
  }

  /**
   * Loads the model (once per process and file) and creates this provider's context.
   * @throws {LlmError} naming the file when it cannot be loaded or the context does not fit in memory.
   */
  static async load(options: LocalProviderOptions): Promise<LocalLlamaProvider> {
    const model = await sharedModel(options.modelPath);
    try {
      const context = await model.createContext({
        contextSize: options.contextSize ?? 4096,
        sequences: 1,
        ...(options.threads ? { threads: options.threads } : {}),
      });
      return new LocalLlamaProvider(model, context, options);
    } catch (err) {
      throw new LlmError(
        `the local model ${options.modelPath} could not get a ${options.contextSize ?? 4096}-token context: ${(err as Error).message} (lower llm.context_size)`,
        undefined,
        { cause: err },
      );
    }
  }

  /** Completes a chat with the local model; waits for earlier requests to finish first. */
  complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    if (messages.length === 0) return Promise.reject(new LlmError('nothing to complete: the chat is empty'));
    return this.queue.add(() => this.generate(messages, options), { signal: options.signal, throwOnTimeout: true });
  }

  /** Frees this provider's context (the shared model stays loaded). */
  async dispose(): Promise<void> {
    this.queue.clear();
    await this.queue.onIdle();
    this.chat.dispose({ disposeSequence: true });
    await this.context.dispose();
  }

  private async generate(messages: ChatMessage[], options: CompleteOptions): Promise<Completion> {
    options.signal?.throwIfAborted();
    const history = toChatHistory(messages);
    const promptTokens = this.chat.chatWrapper
      .generateContextState({ chatHistory: history })
      .contextText.tokenize(this.model.tokenizer).length;
    const meter = this.chat.sequence.tokenMeter;
    const outputBefore = meter.usedOutputTokens;
    const start = performance.now();
    let first: number | undefined;
    let result;
    try {
      result = await this.chat.generateResponse(history, {
        maxTokens: this.options.maxTokens ?? 2048,
        temperature: options.temperature ?? this.options.temperature ?? 0,
        signal: options.signal,
        onTextChunk: (text) => {
          first ??= performance.now();
          try {
            options.onToken?.(text);
          } catch {
            /* a listener's error must not break generation */
          }
        },
      });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw new LlmError(`the local model failed: ${(err as Error).message}`, undefined, { cause: err });
    }
    const end = performance.now();
    const completionTokens = meter.usedOutputTokens - outputBefore;
    const firstAt = first ?? end;
    this.options.onTiming?.({
      promptTokens,
      completionTokens,
      timeToFirstTokenMs: firstAt - start,
      totalMs: end - start,
      tokensPerSecond: end > firstAt ? completionTokens / ((end - firstAt) / 1000) : 0,
    });
    return { content: result.response, usage: { promptTokens, completionTokens } };
  }
}
