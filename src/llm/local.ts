/**
 * `llm.provider: local`: a GGUF model run in-process by llama.cpp (node-llama-cpp).
 * The model is loaded once per process and shared. Each provider keeps a few context sequences
 * (slots, see `local-slots.ts`) whose KV caches outlive a request: a request goes to the slot that
 * already evaluated the longest prefix of its chat (system prompt, requirement, earlier attempts),
 * so only the new part is read. Up to `parallel` requests generate together (one batch per step);
 * further ones wait in arrival order. A token predictor (`local-prediction.ts`) may speed up
 * generation; it never changes the text.
 */
import { SeedSequence } from './seed.js';
import { localModelName } from './model-catalog.js';
import { LlamaChat, resolveChatWrapper, type LlamaContext, type LlamaContextSequence, type LlamaModel, type Token } from 'node-llama-cpp';
import { LlmError, type ChatMessage, type CompleteOptions, type Completion, type LlmProvider } from './types.js';
import { toChatHistory } from './local-messages.js';
import { defaultThreads, sharedModel } from './local-runtime.js';
import { commonPrefix, SlotPool } from './local-slots.js';
import { createPredictors, PromptLookupTokenPredictor, type Predictors } from './local-prediction.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_SLOTS, type LocalProviderOptions } from './local-options.js';

export type { CompletionTiming, LocalProviderOptions } from './local-options.js';
export { DEFAULT_MAX_TOKENS, DEFAULT_SLOTS } from './local-options.js';

/** node-llama-cpp's repeat penalty for a call that asks to avoid repetition (`avoidRepetition`). */
const AVOID_REPETITION = { penalty: 1.3, frequencyPenalty: 0.3, presencePenalty: 0.3, lastTokens: 256 };

/** Tokens {@link LocalLlamaProvider.prepare} evaluates at a time, so that a shutdown stops it within about a second. */
const PREPARE_CHUNK_TOKENS = 32;

interface Slot {
  index: number;
  sequence: LlamaContextSequence;
  chat: LlamaChat;
  readonly contextTokens: readonly Token[];
}

/** A chat model running in this process. Build it with {@link LocalLlamaProvider.load}. */
export class LocalLlamaProvider implements LlmProvider {
  readonly name: string;
  readonly maxTokens: number;
  private readonly pool: SlotPool<Slot>;
  private readonly slots: Slot[];
  private disposed = false;
  /** Requests being generated (awaited by {@link dispose}). */
  private readonly inFlight = new Set<Promise<unknown>>();

  /** The seeds of the calls under `llm.seed` (seed.ts). */
  private readonly seeds: SeedSequence;

  private constructor(
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly predictors: Predictors,
    private readonly options: LocalProviderOptions,
  ) {
    this.name = localModelName(options.modelPath);
    this.maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.seeds = new SeedSequence(options.seed);
    const chatWrapper = resolveChatWrapper(model);
    this.slots = predictors.forSequence.map((tokenPredictor, index) => {
      const sequence = context.getSequence(tokenPredictor ? { tokenPredictor } : {});
      return {
        index,
        sequence,
        chat: new LlamaChat({ contextSequence: sequence, chatWrapper }),
        get contextTokens() {
          return sequence.contextTokens;
        },
      };
    });
    this.pool = new SlotPool(this.slots, Math.min(options.parallel ?? 1, this.slots.length));
  }

  /**
   * Loads the model (once per process and file) and creates this provider's context and slots.
   * @throws {LlmError} naming the file when it cannot be loaded, the context does not fit in memory,
   *   or `parallel`/`slots` are out of range.
   */
  static async load(options: LocalProviderOptions): Promise<LocalLlamaProvider> {
    const parallel = options.parallel ?? 1;
    const slots = Math.max(options.slots ?? DEFAULT_SLOTS, parallel);
    if (!Number.isInteger(parallel) || parallel < 1) throw new LlmError(`llm.parallel must be a whole number ≥ 1, not ${parallel}`);
    const model = await sharedModel(options.modelPath);
    const contextSize = options.contextSize ?? 4096;
    let context: LlamaContext;
    try {
      context = await model.createContext({
        contextSize,
        sequences: slots,
        threads: options.threads || defaultThreads(),
      });
    } catch (err) {
      throw new LlmError(
        `the local model ${options.modelPath} could not get ${slots} context sequences of ${contextSize} tokens: ${(err as Error).message} (lower llm.context_size or llm.cached_chats)`,
        undefined,
        { cause: err },
      );
    }
    try {
      const predictors = await createPredictors({
        mode: options.prediction ?? 'off',
        count: slots,
        draftModelPath: options.draftModelPath,
        maxTokens: options.predictionTokens,
        contextSize,
        threads: options.threads,
      });
      return new LocalLlamaProvider(model, context, predictors, options);
    } catch (err) {
      await context.dispose();
      throw err;
    }
  }

  /** Resolves while the model is loaded. @throws {LlmError} after {@link dispose}. */
  async ping(): Promise<void> {
    if (this.disposed) throw new LlmError('the local model was shut down');
  }

  /** Completes a chat with the local model; waits for a free slot first. */
  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    if (messages.length === 0) throw new LlmError('nothing to complete: the chat is empty');
    if (this.disposed) throw new LlmError('the local model was shut down');
    const history = toChatHistory(messages);
    const tokens = this.render(messages);
    const queuedAt = performance.now();
    const lease = await this.pool.acquire(tokens, options.signal);
    const work = this.generate(lease.slot, history, tokens, lease.reusedTokens, performance.now() - queuedAt, options);
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
      this.pool.release(lease.slot);
    }
  }

  /**
   * Evaluates, each into its own slot, the start of a chat with each system prompt (up to where the
   * user's text begins), so that the first request of the process does not read it either.
   * Waits for free slots like a request; errors are ignored. After {@link dispose} it stops within
   * {@link PREPARE_CHUNK_TOKENS} tokens (a process that is leaving does not wait for the rest).
   */
  async prepare(systemPrompts: readonly string[]): Promise<void> {
    for (const system of systemPrompts.slice(0, this.slots.length)) {
      if (this.disposed) return;
      try {
        const [a, b] = ['a', 'b'].map((text) => this.render([{ role: 'system', content: system }, { role: 'user', content: text }]));
        const start = a!.slice(0, commonPrefix(a!, b!));
        const lease = await this.pool.acquire(start);
        if (lease.reusedTokens >= start.length) {
          this.pool.release(lease.slot); // already there (never cut a longer chat short)
          continue;
        }
        const work = (async () => {
          const sequence = lease.slot.sequence;
          await sequence.adaptStateToTokens(start, false);
          for (let at = sequence.nextTokenIndex; at < start.length && !this.disposed; at += PREPARE_CHUNK_TOKENS) {
            await sequence.evaluateWithoutGeneratingNewTokens(start.slice(at, at + PREPARE_CHUNK_TOKENS));
          }
        })();
        this.inFlight.add(work);
        await work.finally(() => {
          this.inFlight.delete(work);
          this.pool.release(lease.slot);
        });
      } catch {
        /* a cold cache only costs time */
      }
    }
  }

  /** The prompt tokens of a chat, as the chat template renders it for completion. */
  private render(messages: ChatMessage[]): Token[] {
    const history = toChatHistory(messages);
    return this.slots[0]!.chat.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(this.model.tokenizer);
  }

  /** Frees this provider's context and predictors (the shared models stay loaded). */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.pool.rejectWaiting(new LlmError('the local model was shut down'));
    await Promise.allSettled([...this.inFlight]);
    for (const slot of this.slots) slot.chat.dispose({ disposeSequence: true });
    await this.context.dispose();
    await this.predictors.dispose();
  }

  private async generate(
    slot: Slot,
    history: ReturnType<typeof toChatHistory>,
    tokens: Token[],
    reusedPromptTokens: number,
    queuedMs: number,
    options: CompleteOptions,
  ): Promise<Completion> {
    options.signal?.throwIfAborted();
    if (slot.sequence.tokenPredictor instanceof PromptLookupTokenPredictor) slot.sequence.tokenPredictor.setPrompt(tokens);
    const meter = slot.sequence.tokenMeter;
    const inputBefore = meter.usedInputTokens;
    const outputBefore = meter.usedOutputTokens;
    const predictedBefore = { ...slot.sequence.tokenPredictions };
    const start = performance.now();
    let first: number | undefined;
    let result;
    // endWhen: the reply is whole once it says so; the rest is not generated (see CompleteOptions)
    const ended = new AbortController();
    const onOuterAbort = () => ended.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    let text = '';
    const seed = this.seeds.next();
    try {
      // never more than the context leaves after the prompt (more would shift the chat out of it)
      const room = (this.options.contextSize ?? 4096) - tokens.length - 1;
      result = await slot.chat.generateResponse(history, {
        maxTokens: Math.max(1, Math.min(options.maxTokens ?? this.maxTokens, room)),
        temperature: options.temperature ?? this.options.temperature ?? 0,
        ...(seed !== undefined ? { seed } : {}),
        ...(options.avoidRepetition ? { repeatPenalty: AVOID_REPETITION } : {}),
        signal: ended.signal,
        stopOnAbortSignal: options.endWhen !== undefined,
        onTextChunk: (piece) => {
          first ??= performance.now();
          try {
            options.onToken?.(piece);
          } catch {
            /* a listener's error must not break generation */
          }
          text += piece;
          if (options.endWhen?.(text) && !ended.signal.aborted) ended.abort(new Error('the reply is whole'));
        },
      });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw new LlmError(`the local model failed: ${(err as Error).message}`, undefined, { cause: err });
    } finally {
      options.signal?.removeEventListener('abort', onOuterAbort);
    }
    // stopOnAbortSignal returns the text so far: a caller's abort still ends the call as an abort
    options.signal?.throwIfAborted();
    const end = performance.now();
    // the meter also counts checked predictions as output: count the reply's tokens instead when predicting
    const completionTokens = slot.sequence.tokenPredictor
      ? this.model.tokenize(result.response).length
      : meter.usedOutputTokens - outputBefore;
    const firstAt = first ?? end;
    const predicted = slot.sequence.tokenPredictions;
    const promptTokens = tokens.length;
    this.options.onTiming?.({
      promptTokens,
      reusedPromptTokens,
      evaluatedInputTokens: meter.usedInputTokens - inputBefore,
      completionTokens,
      timeToFirstTokenMs: firstAt - start,
      totalMs: end - start,
      queuedMs,
      tokensPerSecond: end > firstAt ? completionTokens / ((end - firstAt) / 1000) : 0,
      predictions: {
        validated: predicted.validated - predictedBefore.validated,
        refuted: predicted.refuted - predictedBefore.refuted,
      },
      slot: slot.index,
    });
    return {
      content: result.response,
      usage: { promptTokens, completionTokens },
      stopReason: result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
    };
  }
}
