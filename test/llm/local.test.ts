/**
 * The local provider on a real GGUF model (fetched by scripts/fetch-test-model.sh).
 * Short replies only: these tests run llama.cpp on the CPU.
 */
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGgufFileInfo } from 'node-llama-cpp';
import { LocalLlamaProvider, type CompletionTiming } from '../../src/llm/local.js';
import { freeSharedModels } from '../helpers/models.js';
import type { ChatMessage } from '../../src/llm/types.js';
import { testModelPath, testThreads } from '../../scripts/test-model.js';

let provider: LocalLlamaProvider;
const timings: CompletionTiming[] = [];

beforeAll(async () => {
  provider = await LocalLlamaProvider.load({
    modelPath: testModelPath(),
    contextSize: 1024,
    threads: testThreads(),
    maxTokens: 24,
    onTiming: (t) => timings.push(t),
  });
}, 120_000);

afterAll(async () => {
  await provider?.dispose();
  await freeSharedModels();
}, 120_000);

const ask = (text: string): ChatMessage[] => [
  { role: 'system', content: 'You are a terse assistant. Answer with one word.' },
  { role: 'user', content: text },
];

describe('LocalLlamaProvider (real model)', () => {
  it('is named after the model file', () => {
    expect(provider.name).toBe(`local:${basename(testModelPath(), '.gguf').toLowerCase()}`);
  });

  it('loads a GGUF v3 Qwen2.5-Coder instruct model (the one fetch-test-model.sh assembles)', async () => {
    const info = await readGgufFileInfo(testModelPath(), { readTensorInfo: false });
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe('qwen2');
    expect(info.metadata.general.name).toMatch(/Qwen2\.5 Coder .*Instruct/);
    expect(info.metadata.general.file_type).toBe(15); // MOSTLY_Q4_K_M
    expect(info.metadata.tokenizer.chat_template).toContain('<|im_start|>');
  });

  it('answers a chat, streams the text and counts tokens', async () => {
    const streamed: string[] = [];
    const r = await provider.complete(ask('What is the capital of France?'), { onToken: (t) => streamed.push(t) });
    expect(r.content).toMatch(/paris/i);
    expect(streamed.join('')).toBe(r.content);
    expect(r.usage.promptTokens).toBeGreaterThan(15);
    expect(r.usage.completionTokens).toBeGreaterThan(0);
    expect(r.usage.completionTokens).toBeLessThanOrEqual(24);
    const t = timings.at(-1)!;
    expect(t.completionTokens).toBe(r.usage.completionTokens);
    expect(t.timeToFirstTokenMs).toBeGreaterThan(0);
    expect(t.tokensPerSecond).toBeGreaterThan(0);
  }, 120_000);

  it('is deterministic at temperature 0 and serves concurrent calls one at a time', async () => {
    const messages = ask('Which Python keyword starts a function definition?');
    const [a, b] = await Promise.all([provider.complete(messages), provider.complete(messages)]);
    expect(a.content).toBe(b.content);
    expect(a.content).toMatch(/def/);
    expect(a.usage).toEqual(b.usage);
  }, 120_000);

  it('with llm.seed, the same sequence of sampled calls (temperature 1.5) gives the same replies again', async () => {
    const messages = ask('Name a random animal and a random colour, then a random number.');
    const sample = async () => {
      const seeded = await LocalLlamaProvider.load({ modelPath: testModelPath(), contextSize: 1024, threads: testThreads(), maxTokens: 24, seed: 7 });
      try {
        return [(await seeded.complete(messages, { temperature: 1.5 })).content, (await seeded.complete(messages, { temperature: 1.5 })).content];
      } finally {
        await seeded.dispose();
      }
    };
    const first = await sample();
    expect(first[0]!.length).toBeGreaterThan(0);
    expect(await sample()).toEqual(first);
  }, 120_000);

  it('reads the stop reason: a reply that reaches maxTokens is "length", a finished one "stop"', async () => {
    const cut = await provider.complete(ask('Count from one to fifty in words, separated by commas.'), { maxTokens: 6 });
    expect(cut.stopReason).toBe('length');
    expect(cut.usage.completionTokens).toBe(6);
    const whole = await provider.complete(ask('What is the capital of France?'));
    expect(whole.stopReason).toBe('stop');
    // more room for one call (more than the provider's 24 tokens), with the repeat penalty
    const more = await provider.complete(ask('Count from one to fifty in words, separated by commas.'), { maxTokens: 40, avoidRepetition: true });
    expect(more.usage.completionTokens).toBeGreaterThan(24);
  }, 120_000);

  it('ends a reply as a whole one as soon as endWhen says so, generating no more', async () => {
    const messages = ask('Count from one to fifty in words, separated by commas.');
    const full = await provider.complete(messages, { maxTokens: 20 });
    expect(full.content).toMatch(/three/i);
    const seen: string[] = [];
    const ended = await provider.complete(messages, { maxTokens: 20, endWhen: (text) => (seen.push(text), /three/i.test(text)) });
    expect(ended.stopReason).toBe('stop');
    // the same text (temperature 0) up to where endWhen said so, and nothing after it
    expect(full.content.startsWith(ended.content)).toBe(true);
    expect(ended.content).toMatch(/three[^,]{0,3}$/i);
    expect(ended.usage.completionTokens).toBeLessThan(full.usage.completionTokens);
    expect(seen.at(-1)).toBe(ended.content);
  }, 120_000);

  it('a caller that aborts while endWhen is set still gets an abort, not a reply', async () => {
    const controller = new AbortController();
    const call = provider.complete(ask('Count from one to fifty in words, separated by commas.'), {
      maxTokens: 20,
      signal: controller.signal,
      endWhen: () => false,
      onToken: () => controller.abort(new Error('stop now')),
    });
    await expect(call).rejects.toThrow();
  }, 120_000);

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider.complete(ask('Count to ten.'), { signal: controller.signal })).rejects.toThrow();
  });
});
