/**
 * Chooses and builds the LLM provider from `llm.*` config.
 * `provider: auto` picks the API when a key or base_url is set, else a local GGUF model
 * (`model_path`, a model URI in `model`, a `.gguf` already in `models_dir`, or the default model in
 * the user cache).
 */
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import type { LlmProvider } from './types.js';
import { localModelName, userModelsDir } from './model-catalog.js';
import { DeferredLlmProvider } from './deferred.js';
import { resolveLocalModel } from './model-resolve.js';
import type { DownloadProgress } from './model-files.js';
import { progressBar } from './model-progress.js';

/** Model used with the OpenAI API when `llm.model` is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/**
 * The message shown when no LLM can be found: the ways to configure one.
 * @param cacheModels the user cache's models folder that was searched (model-catalog.ts userModelsDir)
 */
export function noLlmMessage(cacheModels: string): string {
  return `No LLM is configured. Configure one of these (in config.yaml or the environment):
  0. The default local model, no key needed: run \`code-agent model fetch\` (npm run setup does it; Qwen2.5-Coder
     1.5B, 1.1 GB, kept in ${cacheModels}).
  1. An API key: set OPENAI_API_KEY (or llm.api_key) and optionally CODE_AGENT_MODEL (or llm.model;
     default ${DEFAULT_OPENAI_MODEL}).
  2. A local OpenAI-compatible server: set OPENAI_BASE_URL (or llm.base_url), e.g. http://localhost:11434/v1
     for Ollama, http://localhost:1234/v1 for LM Studio, http://localhost:8000/v1 for vLLM or llama.cpp's server,
     and CODE_AGENT_MODEL (or llm.model) to a model it serves.
  3. A local model file: set CODE_AGENT_MODEL_PATH (or llm.model_path) to a .gguf file,
     or put a .gguf file in llm.models_dir (default data/models).
  4. A model to download once: set llm.model: hf:<owner>/<repo>/<file>.gguf, or run
     \`code-agent model pull hf:<owner>/<repo>/<file>.gguf\` to fetch it into llm.models_dir.`;
}

/** Options of {@link createLlmProvider}. */
export interface CreateProviderOptions {
  /** Progress of a model download (default: a progress bar on stderr). */
  onDownloadProgress?: (progress: DownloadProgress) => void;
  /** Where the user cache (the default model) is looked up. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * A local model is found (and downloaded when it must be) now, but loaded in the background: the
   * provider is a {@link DeferredLlmProvider}, and load errors come with the first request. Default
   * false (loaded before this returns). `until-used`: loaded only when a request needs it (a command
   * that most likely makes no LLM call: `run --program`).
   */
  deferLoad?: boolean | 'until-used';
}

/**
 * Builds the provider named by the config.
 * @throws {ConfigError} when nothing usable is configured (message: {@link noLlmMessage}) or
 *   `llm.model_path` names a missing file.
 * @throws {LlmError} when a local model cannot be downloaded or loaded (the message says what to do;
 *   with `deferLoad`, load errors are thrown by the first request instead).
 */
export async function createLlmProvider(
  llm: Config['llm'],
  options: CreateProviderOptions = {},
): Promise<LlmProvider> {
  const hasApi = Boolean(llm.api_key || llm.base_url);
  if (llm.provider === 'openai' || (llm.provider === 'auto' && hasApi)) {
    if (!hasApi) throw new ConfigError(noLlmMessage(userModelsDir(options.env)));
    // each provider's library is imported when it is used (the CLI starts without either)
    const { OpenAiProvider } = await import('./openai.js');
    return new OpenAiProvider({
      apiKey: llm.api_key,
      baseUrl: llm.base_url,
      model: llm.model ?? DEFAULT_OPENAI_MODEL,
      timeoutMs: llm.timeout_s * 1000,
      maxRetries: llm.max_retries,
      temperature: llm.temperature,
      seed: llm.seed,
      maxTokens: llm.max_tokens,
    });
  }
  const modelPath = await resolveLocalModel(llm, {
    onProgress: options.onDownloadProgress ?? progressBar(process.stderr),
    env: options.env,
  });
  if (!modelPath) throw new ConfigError(noLlmMessage(userModelsDir(options.env)));
  if (llm.prediction === 'draft' && !llm.draft_model_path) {
    throw new ConfigError('llm.draft_model_path: required when llm.prediction is "draft" (a smaller GGUF model with the same tokenizer)');
  }
  const load = async () => (await import('./local.js')).LocalLlamaProvider.load({
    modelPath,
    contextSize: llm.context_size,
    threads: llm.threads,
    temperature: llm.temperature,
    seed: llm.seed,
    maxTokens: llm.max_tokens,
    slots: llm.cached_chats,
    parallel: llm.parallel,
    prediction: llm.prediction,
    draftModelPath: llm.draft_model_path,
  });
  return options.deferLoad ? new DeferredLlmProvider(localModelName(modelPath), load, options.deferLoad !== 'until-used') : load();
}
