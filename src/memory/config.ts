/** `memory.*` of the config as {@link ChannelMemoryOptions}. */
import type { Config } from '../config/schema.js';
import type { ChannelMemoryOptions } from './channel-memory.js';

/** The bounds and the prompt budget the config sets (defaults in `config/schema.ts`). */
export function memoryOptions(config: Pick<Config, 'memory'>): ChannelMemoryOptions {
  const m = config.memory;
  return {
    limits: { maxEntries: m.max_entries, maxBytes: m.max_bytes, maxDefinitionChars: m.max_definition_chars, maxExampleBytes: m.max_example_bytes },
    budget: { definitionTokens: m.definition_tokens, maxDefinitions: m.max_definitions, exampleTokens: m.example_tokens, maxExamples: m.max_examples },
    definitionHelpers: m.definition_helpers,
  };
}
