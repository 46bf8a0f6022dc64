/**
 * Chooses and builds the LLM provider from `llm.*` config.
 * `provider: auto` picks the API when a key or base_url is set.
 */
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import type { LlmProvider } from './types.js';
import { OpenAiProvider } from './openai.js';

/** Model used with the OpenAI API when `llm.model` is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/** The message shown when no LLM can be found: the three ways to configure one. */
export const NO_LLM_MESSAGE = `No LLM is configured. Configure one of these (in config.yaml or the environment):
  1. An API key: set OPENAI_API_KEY (or llm.api_key) and optionally llm.model (default ${DEFAULT_OPENAI_MODEL}).
  2. A local OpenAI-compatible server: set OPENAI_BASE_URL (or llm.base_url), e.g. http://localhost:11434/v1
     for Ollama, http://localhost:1234/v1 for LM Studio, http://localhost:8000/v1 for vLLM or llama.cpp's server,
     and llm.model to a model it serves.
  3. A local model file: set llm.provider: local and llm.model_path: /path/to/model.gguf.`;

/**
 * Builds the provider named by the config.
 * @throws {ConfigError} when nothing usable is configured (message: {@link NO_LLM_MESSAGE}).
 */
export async function createLlmProvider(llm: Config['llm']): Promise<LlmProvider> {
  const hasApi = Boolean(llm.api_key || llm.base_url);
  const provider = llm.provider === 'auto' ? (hasApi ? 'openai' : 'local') : llm.provider;
  if (provider === 'openai') {
    if (!hasApi) throw new ConfigError(NO_LLM_MESSAGE);
    return new OpenAiProvider({
      apiKey: llm.api_key,
      baseUrl: llm.base_url,
      model: llm.model ?? DEFAULT_OPENAI_MODEL,
      timeoutMs: llm.timeout_s * 1000,
      maxRetries: llm.max_retries,
      temperature: llm.temperature,
      maxTokens: llm.max_tokens,
    });
  }
  if (!llm.model_path) throw new ConfigError(NO_LLM_MESSAGE);
  throw new ConfigError('llm.provider "local" is not available yet in this build; use an API key or base_url');
}
