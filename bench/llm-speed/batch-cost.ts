/**
 * What one evaluation step costs for 1, 2, 4 and 8 tokens at once, on the model and threads of the
 * bench. Token prediction and parallel requests both pay only when evaluating k tokens in one step
 * costs much less than k steps of one token.
 */
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { median } from '../shared/stats.js';

/** Median ms of one evaluation step per batch size. */
export interface BatchCost {
  tokens: number;
  ms: number;
}

/** Sample code to evaluate (its content does not change the cost). */
const TEXT = 'def mean(values):\n    return sum(values) / len(values)\n\nprint(mean([1, 2, 3, 4]))\n';

/** Measures steps of 1, 2, 4 and 8 tokens, `rounds` times each, interleaved, after a 200-token prefix. */
export async function batchCosts(modelPath: string, threads: number, rounds = 3): Promise<BatchCost[]> {
  const llama = await getLlama({ logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 2048, threads });
  try {
    const sequence = context.getSequence();
    const tokens = model.tokenize(TEXT.repeat(60));
    await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(0, 200));
    let pos = 200;
    const samples = new Map<number, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const k of [1, 2, 4, 8]) {
        for (let step = 0; step < 8; step++) {
          const start = performance.now();
          await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(pos, pos + k));
          samples.set(k, [...(samples.get(k) ?? []), performance.now() - start]);
          pos += k;
        }
      }
    }
    return [...samples].map(([k, ms]) => ({ tokens: k, ms: median(ms) }));
  } finally {
    await context.dispose();
    await model.dispose();
  }
}

/** The lines of the report. */
export function formatBatchCosts(costs: readonly BatchCost[]): string[] {
  const one = costs.find((c) => c.tokens === 1)?.ms ?? 1;
  return [
    'one evaluation step by tokens in it (median ms; × = against k steps of one token):',
    ...costs.map((c) => `  ${String(c.tokens).padStart(2)} tokens: ${c.ms.toFixed(1).padStart(6)} ms  (${(c.ms / (one * c.tokens)).toFixed(2)} × k single steps)`),
  ];
}
