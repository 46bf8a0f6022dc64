/**
 * A reply ends at the closing fence of its program, on the real local model (node-llama-cpp): the
 * explanation the model writes after the program is never generated (it would be read by no one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askForProgram } from '../../src/agent/replies/index.js';
import { LocalLlamaProvider } from '../../src/llm/local.js';
import { freeSharedModels } from '../helpers/models.js';
import { testModelPath, testThreads } from '../../scripts/test-model.js';
import type { ChatMessage } from '../../src/llm/types.js';

let provider: LocalLlamaProvider;

beforeAll(async () => {
  provider = await LocalLlamaProvider.load({ modelPath: testModelPath(), contextSize: 2048, threads: testThreads(), maxTokens: 400, slots: 1 });
}, 120_000);

afterAll(async () => {
  await provider?.dispose();
  await freeSharedModels();
}, 120_000);

const messages: ChatMessage[] = [
  { role: 'system', content: 'You write Python. Reply with one ```python code block, then explain it.' },
  { role: 'user', content: 'Write a program that prints the sum of 2 and 3. After the code block, explain in three sentences how it works.' },
];

describe('a reply from the local model', () => {
  it('ends at the closing fence of its program: the explanation after it is not generated', async () => {
    // what the model writes when nothing ends it: the program, then the explanation asked for
    const whole = await provider.complete(messages);
    expect(whole.content).toMatch(/```python\n[\s\S]*\n```\s*\S/);
    const reply = await askForProgram(provider, messages, {});
    expect(reply.code).toMatch(/print\(/);
    expect(reply.content).toMatch(/\n```\s*$/);
    // the same program (temperature 0), and fewer tokens generated
    expect(whole.content.startsWith(reply.content!.trimEnd())).toBe(true);
    expect(reply.usage.completionTokens).toBeLessThan(whole.usage.completionTokens);
  }, 240_000);
});
