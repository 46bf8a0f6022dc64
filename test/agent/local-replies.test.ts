/**
 * How a program reply from the real local model (node-llama-cpp) ends, one model load for both:
 * a reply that degenerates is stopped while it streams (the model is asked for 40 nested loops,
 * CPython compiles at most 20, and the watch stops it at the 20th, long before its token limit);
 * a reply ends at the closing fence of its program (the explanation the model writes after the
 * program is never generated: it would be read by no one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askForProgram } from '../../src/agent/replies/index.js';
import { MAX_NESTING } from '../../src/agent/replies/runaway.js';
import { LocalLlamaProvider } from '../../src/llm/local.js';
import { freeSharedModels } from '../helpers/models.js';
import { testModelPath, testThreads } from '../../scripts/test-model.js';
import type { ChatMessage } from '../../src/llm/types.js';

/** For the degenerating reply: room for 40 loops. */
let long: LocalLlamaProvider;
/** For the reply that ends at its fence: the program and a few sentences. */
let short: LocalLlamaProvider;

beforeAll(async () => {
  // the two providers share the process's one load of the model (local-runtime.ts)
  long = await LocalLlamaProvider.load({ modelPath: testModelPath(), contextSize: 2048, threads: testThreads(), maxTokens: 1500, slots: 1 });
  short = await LocalLlamaProvider.load({ modelPath: testModelPath(), contextSize: 2048, threads: testThreads(), maxTokens: 400, slots: 1 });
}, 120_000);

afterAll(async () => {
  await long?.dispose();
  await short?.dispose();
  await freeSharedModels();
}, 120_000);

describe('a degenerating reply from the local model', () => {
  it('is stopped as soon as its blocks nest deeper than Python allows, and reported', async () => {
    let streamed = '';
    const reply = await askForProgram(
      long,
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

const messages: ChatMessage[] = [
  { role: 'system', content: 'You write Python. Reply with one ```python code block, then explain it.' },
  { role: 'user', content: 'Write a program that prints the sum of 2 and 3. After the code block, explain in three sentences how it works.' },
];

describe('a reply from the local model', () => {
  it('ends at the closing fence of its program: the explanation after it is not generated', async () => {
    // what the model writes when nothing ends it: the program, then the explanation asked for
    const whole = await short.complete(messages);
    expect(whole.content).toMatch(/```python\n[\s\S]*\n```\s*\S/);
    const reply = await askForProgram(short, messages, {});
    expect(reply.code).toMatch(/print\(/);
    expect(reply.content).toMatch(/\n```\s*$/);
    // the same program (temperature 0), and fewer tokens generated
    expect(whole.content.startsWith(reply.content!.trimEnd())).toBe(true);
    expect(reply.usage.completionTokens).toBeLessThan(whole.usage.completionTokens);
  }, 240_000);
});
