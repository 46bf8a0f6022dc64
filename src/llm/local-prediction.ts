/**
 * Token prediction (speculative decoding) for the local provider, with node-llama-cpp's own
 * predictors: guessed tokens are checked by the model in the same batch as the next token, and only
 * the ones the model would have generated anyway are kept, so prediction changes the speed, never the
 * text (see https://node-llama-cpp.withcat.ai/guide/token-prediction).
 *
 * - `input`: {@link PromptLookupTokenPredictor} (node-llama-cpp's input-lookup predictor) finds the
 *   last generated tokens in the prompt and proposes what followed them there. A fix or improve
 *   attempt re-types most of the previous program, which is in the prompt.
 * - `draft`: {@link DraftSequenceTokenPredictor}: a smaller model with the same tokenizer (e.g. the
 *   0.5B for the 1.5B) drafts the next tokens on its own context sequence.
 */
import {
  DraftSequenceTokenPredictor,
  InputLookupTokenPredictor,
  type LlamaContext,
  type LlamaContextSequence,
  type Token,
  type TokenPredictor,
} from 'node-llama-cpp';
import { LlmError } from './types.js';
import { defaultThreads, sharedModel } from './local-runtime.js';

/** Which predictor the local provider uses (config `llm.prediction`). */
export type PredictionMode = 'off' | 'input' | 'draft';

/**
 * Most tokens a predictor proposes per step. One, because node-llama-cpp 3.21.1, 3.22.0 and 3.22.1
 * accept at most one predicted token per evaluation: in `LlamaContextSequence._speculativeEvaluate`
 * the list `validatedTokens` that should carry the previous validated output is never filled, so
 * the second and later predicted tokens of a batch are always refuted and erased (evaluated for
 * nothing). With that filled (a two-line change, measured in `bench/llm-speed.ts` as `reuse+input4`)
 * four tokens are accepted 90–96 % of the time in fix attempts, but on a CPU a step that checks k
 * tokens costs 0.6–0.9 × k single steps, so fix attempts gained 0.9–1.8× (noise-bound), improve
 * attempts lost (0.8–1.1×) and first attempts and checks lost a lot (0.5–0.8×): see
 * docs/local-model.md. Raise it once the library accepts more and a batch costs about one step.
 */
export const PREDICTION_MAX_TOKENS = 1;

/** Options of {@link createPredictors}. */
export interface PredictorOptions {
  mode: PredictionMode;
  /** Number of predictors wanted: one per context sequence of the target model (never shared). */
  count: number;
  /** The draft model's GGUF file (`draft` only). */
  draftModelPath?: string;
  /** Most tokens predicted per step. Default {@link PREDICTION_MAX_TOKENS}. */
  maxTokens?: number;
  /** Context size per sequence of the target (the draft sequences get the same). */
  contextSize: number;
  threads?: number;
}

/** Predictors for each target sequence, and what to free afterwards. */
export interface Predictors {
  /** `undefined` entries: no prediction for that sequence. */
  forSequence: (TokenPredictor | undefined)[];
  /** Frees the draft context (the predictors themselves are freed with their sequences). */
  dispose(): Promise<void>;
}

/**
 * Builds one predictor per target sequence.
 * @throws {LlmError} when `draft` has no draft model or the draft model cannot be loaded.
 */
export async function createPredictors(options: PredictorOptions): Promise<Predictors> {
  const maxTokens = options.maxTokens ?? PREDICTION_MAX_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new LlmError(`prediction length must be a whole number ≥ 1, not ${maxTokens}`);
  if (options.mode === 'off') return { forSequence: Array.from({ length: options.count }, () => undefined), dispose: async () => {} };
  if (options.mode === 'input') {
    return {
      forSequence: Array.from(
        { length: options.count },
        () => new PromptLookupTokenPredictor({ predictionLength: { max: maxTokens } }),
      ),
      dispose: async () => {},
    };
  }
  if (!options.draftModelPath) {
    throw new LlmError('llm.prediction is "draft" but llm.draft_model_path is not set: name a smaller GGUF model with the same tokenizer');
  }
  const draftModel = await sharedModel(options.draftModelPath);
  let context: LlamaContext;
  try {
    context = await draftModel.createContext({
      contextSize: options.contextSize,
      sequences: options.count,
      threads: options.threads || defaultThreads(),
    });
  } catch (err) {
    throw new LlmError(`the draft model ${options.draftModelPath} could not get a context: ${(err as Error).message}`, undefined, { cause: err });
  }
  const sequences: LlamaContextSequence[] = Array.from({ length: options.count }, () => context.getSequence());
  return {
    forSequence: sequences.map((s) => new DraftSequenceTokenPredictor(s, { minTokens: maxTokens, maxTokens })),
    dispose: () => context.dispose(),
  };
}

/**
 * node-llama-cpp's input-lookup predictor, looking in the whole prompt. `LlamaChat` gives an input
 * predictor only the last user message (`updateInputTokens`), but the program a fix attempt re-types
 * is in the assistant's earlier turn, so the provider hands over the whole rendered prompt with
 * {@link PromptLookupTokenPredictor.setPrompt} before each request, and the chat's narrower input is ignored.
 */
export class PromptLookupTokenPredictor extends InputLookupTokenPredictor {
  private prompt: Token[] = [];

  /** Sets the tokens to look predictions up in: the request's whole rendered prompt. */
  setPrompt(tokens: readonly Token[]): void {
    this.prompt = tokens.slice();
    super.updateInputTokens(this.prompt);
  }

  /** Called by `LlamaChat` with the last user message; the whole prompt set before is kept instead. */
  override updateInputTokens(_lastUserMessage: Token[]): void {
    super.updateInputTokens(this.prompt);
  }
}
