/** The LLM and the sandbox a benchmark runs the agent with, built from the shared options. */
import { join } from 'node:path';
import { LocalLlamaProvider, type CompletionTiming } from '../../src/llm/local.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import type { LlmProvider } from '../../src/llm/types.js';
import { BubblewrapExecutor, limitsFromConfig } from '../../src/sandbox/executor.js';
import { sandboxSchema } from '../../src/config/schema.js';
import { TEST_MODEL_FILE, testModelsDir } from '../../scripts/test-model.js';
import type { LlmArgs } from './args.js';

/**
 * An OpenAI-compatible provider when `--base-url` is given, else the local GGUF model
 * (`--model-path`, default the test model). Temperature 0 either way, so that the first attempt
 * of a run is what a `max_retries 0` run would produce.
 * @param timings - receives the local provider's timing of every completion (unused for HTTP).
 */
export async function buildProvider(args: LlmArgs, timings: CompletionTiming[]): Promise<LlmProvider> {
  if (args.baseUrl) {
    return new OpenAiProvider({
      baseUrl: args.baseUrl,
      apiKey: args.apiKey ?? 'none',
      model: args.model ?? 'default',
      temperature: 0,
      seed: args.seed,
      maxTokens: args.maxTokens,
      maxRetries: 2,
      timeoutMs: 300_000,
    });
  }
  return LocalLlamaProvider.load({
    modelPath: args.modelPath ?? join(testModelsDir(), TEST_MODEL_FILE),
    contextSize: args.contextSize,
    threads: args.threads,
    temperature: 0,
    seed: args.seed,
    maxTokens: args.maxTokens,
    onTiming: (t) => timings.push(t),
  });
}

/** Releases a local model (no-op for an HTTP provider). */
export async function disposeProvider(llm: LlmProvider): Promise<void> {
  if (llm instanceof LocalLlamaProvider) await llm.dispose();
}

/** The real sandbox with the config's default limits, wall and CPU time set to `timeoutS` seconds. */
export function buildExecutor(timeoutS: number): BubblewrapExecutor {
  const sandbox = sandboxSchema.parse({ timeout_s: timeoutS, cpu_time_s: timeoutS });
  return new BubblewrapExecutor({ python: sandbox.python, limits: limitsFromConfig(sandbox) });
}
