/**
 * A reply that degenerates is stopped while it streams, on the real local model (node-llama-cpp):
 * the model is asked for 40 nested loops (CPython compiles at most 20), and the watch stops it at the
 * 20th, long before its token limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askForProgram } from '../../src/agent/replies/index.js';
import { MAX_NESTING } from '../../src/agent/replies/runaway.js';
import { LocalLlamaProvider } from '../../src/llm/local.js';
import { freeSharedModels } from '../helpers/models.js';
import { testModelPath, testThreads } from '../../scripts/test-model.js';

let provider: LocalLlamaProvider;

beforeAll(async () => {
  provider = await LocalLlamaProvider.load({ modelPath: testModelPath(), contextSize: 2048, threads: testThreads(), maxTokens: 1500, slots: 1 });
}, 120_000);

afterAll(async () => {
  await provider?.dispose();
  await freeSharedModels();
}, 120_000);

describe('a degenerating reply from the local model', () => {
  it('is stopped as soon as its blocks nest deeper than Python allows, and reported', async () => {
    let streamed = '';
    const reply = await askForProgram(
      provider,
      [
        { role: 'system', content: 'You write Python. Reply with one ```python code block.' },
        {
          role: 'user',
          content:
            'Write a program with 40 nested for loops, one inside the other, variables i1 to i40, each over range(1), ' +
            'printing i40 in the innermost loop. Write every loop out; do not use itertools or recursion.',
        },
      ],
      { onToken: (t) => (streamed += t) },
    );
    expect(reply.fault).toBe("runaway");
    expect(reply.code).toBeUndefined();
    expect(reply.error).toMatch(/the reply degenerated: its code was nested 20 blocks deep/);
    // stopped at the line that reached the threshold, not at the 1500-token limit (40 loops)
    const loops = streamed.split('\n').filter((l) => /^\s*for i\d+ in/.test(l));
    expect(loops.length).toBeGreaterThanOrEqual(MAX_NESTING);
    expect(loops.length).toBeLessThanOrEqual(MAX_NESTING + 2);
  }, 180_000);
});
