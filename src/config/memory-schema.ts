/**
 * The `memory` section of `config.yaml`: bounds of one conversation's channel memory and how much of
 * a run's prompt it may take (docs/memory.md).
 *
 *     memory:
 *       max_entries: 200          # live definitions and examples per channel
 *       max_bytes: 262144
 *       definition_tokens: 500
 *       definition_helpers: false # definitions as code (docs/memory.md)
 */
import { z } from 'zod';
import { DEFAULT_MEMORY_LIMITS, DEFAULT_RECALL_BUDGET } from './defaults.js';

/** A whole number in [min, max] with a default (numbers written as text are read as numbers). */
const whole = (def: number, min: number, max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v), z.number().int().min(min).max(max)).default(def);

/** The `memory` section: bounds of one conversation's memory and the prompt budget of a run (defaults: `history/memory.ts`, `memory/recall.ts`). */
export const memorySchema = z
  .object({
    /** Most live entries (definitions and examples) per conversation. */
    max_entries: whole(DEFAULT_MEMORY_LIMITS.maxEntries, 1, 100_000),
    /** Most bytes of live entries per conversation. */
    max_bytes: whole(DEFAULT_MEMORY_LIMITS.maxBytes, 1024, 2 ** 30),
    /** Longest definition, in characters. */
    max_definition_chars: whole(DEFAULT_MEMORY_LIMITS.maxDefinitionChars, 10, 10_000),
    /** Largest approved example (request, files' summary, program), in bytes. */
    max_example_bytes: whole(DEFAULT_MEMORY_LIMITS.maxExampleBytes, 1024, 2 ** 24),
    /** Most tokens of definitions in a run's prompt. */
    definition_tokens: whole(DEFAULT_RECALL_BUDGET.definitionTokens, 0, 100_000),
    /** Most definitions in a run's prompt (those most like its request and files). */
    max_definitions: whole(DEFAULT_RECALL_BUDGET.maxDefinitions, 0, 50),
    /** Most tokens of approved examples in a run's prompt. */
    example_tokens: whole(DEFAULT_RECALL_BUDGET.exampleTokens, 0, 100_000),
    /** Most approved examples in a run's prompt. */
    max_examples: whole(DEFAULT_RECALL_BUDGET.maxExamples, 0, 20),
    /**
     * Definitions as code: a run given a definition without a helper writes one (`from team import
     * revenue`), checks it on its files and uses it; a 👍 of that run keeps it with the definition.
     */
    definition_helpers: z.boolean().default(false),
  })
  .strict();

