/**
 * What a local provider is given (`LocalProviderOptions`: the model file, its context, threads,
 * sampling, slots, prediction) with the defaults the config leaves unsaid, and the timing it
 * reports of each completion (benchmarks). Types and numbers only: reading them loads no model.
 */
import type { PredictionMode } from './local-prediction.js';

/** Timing of one local completion. */
export interface CompletionTiming {
  /** Tokens of the whole rendered prompt (chat template included). */
  promptTokens: number;
  /** Leading prompt tokens found already evaluated in the slot (not read again). */
  reusedPromptTokens: number;
  /** Tokens llama.cpp evaluated as input for this request (new prompt tokens, plus checked predictions). */
  evaluatedInputTokens: number;
  completionTokens: number;
  /** From the start of the request (after waiting for a slot) to the first generated text, in ms. */
  timeToFirstTokenMs: number;
  /** From the start of the request to the end, in ms. */
  totalMs: number;
  /** Time spent waiting for a free slot before the request started, in ms. */
  queuedMs: number;
  /** Generated tokens per second, from the first token to the end. */
  tokensPerSecond: number;
  /** Predicted tokens the model confirmed / rejected during this request (0/0 without prediction). */
  predictions: { validated: number; refuted: number };
  /** Which slot served it (0-based). */
  slot: number;
}

/** Options of `LocalLlamaProvider.load` (`local.ts`). */
export interface LocalProviderOptions {
  /** The GGUF file. */
  modelPath: string;
  /** Context window per slot, in tokens. Default 4096. */
  contextSize?: number;
  /** CPU threads; 0 or unset = `defaultThreads()` of `local-runtime.ts`. */
  threads?: number;
  /** Sampling temperature. Default 0 (greedy: the most likely code). */
  temperature?: number;
  /** The base seed of the calls (config `llm.seed`; seed.ts: one more for each call). Unset: node-llama-cpp's own, new each call. */
  seed?: number;
  /** Longest reply in tokens. Default 2048. */
  maxTokens?: number;
  /** Context sequences kept, each with the last chat it evaluated (config `llm.cached_chats`). Default 3. */
  slots?: number;
  /** Requests generated at the same time, batched (config `llm.parallel`). Default 1. */
  parallel?: number;
  /** Token prediction (config `llm.prediction`). Default `off`. */
  prediction?: PredictionMode;
  /** GGUF file of the draft model for `prediction: draft` (same tokenizer, smaller). */
  draftModelPath?: string;
  /** Most tokens predicted per evaluation step. Default `PREDICTION_MAX_TOKENS` of `local-prediction.ts` (benchmarks vary it). */
  predictionTokens?: number;
  /** Receives the timing of each completion (benchmarks). */
  onTiming?: (timing: CompletionTiming) => void;
}

/** Longest reply when the config does not say, in tokens. */
export const DEFAULT_MAX_TOKENS = 2048;

/** Context sequences kept when the config does not say. */
export const DEFAULT_SLOTS = 3;
