/** Report lines both benchmarks print. */
import type { CompletionTiming } from '../../src/llm/local.js';
import { median, sum } from './stats.js';

/** The local provider's speed: tokens/s generated and time to first token (empty for an HTTP provider). */
export function localProviderLines(timings: readonly CompletionTiming[]): string[] {
  if (!timings.length) return [];
  const completion = sum(timings.map((t) => t.completionTokens));
  const decodeS = sum(timings.map((t) => (t.totalMs - t.timeToFirstTokenMs) / 1000));
  return [
    '',
    `local provider: ${timings.length} completions, ${(completion / Math.max(decodeS, 1e-9)).toFixed(1)} tokens/s generated,` +
      ` time to first token median ${(median(timings.map((t) => t.timeToFirstTokenMs)) / 1000).toFixed(2)} s` +
      ` (prompt median ${median(timings.map((t) => t.promptTokens))} tokens)`,
  ];
}
