/**
 * What one evaluation step costs for 1, 2, 4 and 8 tokens at once, on the model and threads of the
 * bench. Token prediction and parallel requests both pay only when evaluating k tokens in one step
 * costs much less than k steps of one token.
 *
 * Two kinds of step are timed: `read` (logits only for the last token, as when reading a prompt
 * or generating one token) and `verify` (a token sampled at every position, as in a speculative step
 * that checks k − 1 predicted tokens: the output layer runs k times). The ratio that decides whether
 * prediction can pay is `verify` of k tokens against k single generation steps.
 */
import { getLlama, LlamaLogLevel, type LlamaContextSequence, type Token } from 'node-llama-cpp';
import { median } from '../shared/stats.js';

/** Median ms of one evaluation step per batch size. */
export interface BatchCost {
  tokens: number;
  /** Logits for the last token only. */
  ms: number;
  /** A token sampled at every position (what verifying predictions costs). */
  verifyMs: number;
}

/** Sample code to evaluate (its content does not change the cost). */
const TEXT = 'def mean(values):\n    return sum(values) / len(values)\n\nprint(mean([1, 2, 3, 4]))\n';

/** One step over `tokens`, sampling a token at the last position only or at every position. */
async function step(sequence: LlamaContextSequence, tokens: Token[], everyPosition: boolean): Promise<void> {
  await sequence.controlledEvaluate(
    tokens.map((t, i) => (everyPosition || i === tokens.length - 1 ? [t, { generateNext: { token: true } }] : t)),
  );
}

/** Measures steps of 1, 2, 4 and 8 tokens, `rounds` times each, interleaved, after a 200-token prefix. */
export async function batchCosts(modelPath: string, threads: number, rounds = 3): Promise<BatchCost[]> {
  const llama = await getLlama({ logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 2048, threads });
  try {
    const sequence = context.getSequence();
    const tokens = model.tokenize(TEXT.repeat(80));
    await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(0, 200));
    let pos = 200;
    const samples = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const k of [1, 2, 4, 8]) {
        for (const verify of [false, true]) {
          for (let n = 0; n < 6; n++) {
            const start = performance.now();
            await step(sequence, tokens.slice(pos, pos + k), verify);
            const key = `${k}/${verify}`;
            samples.set(key, [...(samples.get(key) ?? []), performance.now() - start]);
            pos += k;
          }
        }
      }
    }
    return [1, 2, 4, 8].map((k) => ({ tokens: k, ms: median(samples.get(`${k}/false`)!), verifyMs: median(samples.get(`${k}/true`)!) }));
  } finally {
    await context.dispose();
    await model.dispose();
  }
}

/** The lines of the report. */
export function formatBatchCosts(costs: readonly BatchCost[]): string[] {
  const one = costs.find((c) => c.tokens === 1)?.ms ?? 1;
  const ratio = (ms: number, k: number) => (ms / (one * k)).toFixed(2);
  return [
    'one evaluation step by tokens in it (median ms; × = against k single generation steps):',
    '  tokens   read (last logits)         verify (token at every position)',
    ...costs.map(
      (c) =>
        `  ${String(c.tokens).padStart(6)}   ${c.ms.toFixed(1).padStart(7)} ms (${ratio(c.ms, c.tokens)} ×)     ${c.verifyMs.toFixed(1).padStart(7)} ms (${ratio(c.verifyMs, c.tokens)} ×)`,
    ),
  ];
}
