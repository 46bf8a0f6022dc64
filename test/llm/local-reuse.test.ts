/**
 * The local provider's slots, prediction and parallel requests on the real test model (0.5B):
 * behaviour only (what was reused, predicted, served together), never timings. Short replies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalLlamaProvider, type CompletionTiming, type LocalProviderOptions } from '../../src/llm/local.js';
import { freeSharedModels } from '../helpers/models.js';
import type { ChatMessage } from '../../src/llm/types.js';

/** Two system prompts of about 60 tokens (the agent's are longer; shorter keeps the test quick). */
const SYSTEM_PROMPT =
  'You are a Python programmer. Write one complete program for the request. Reply with the program in a single python code block. ' +
  'The program runs in a sandbox without network; print the results so the user sees them.';
const CHECKS_PROMPT =
  'You write assert checks for a program someone else writes from the same request. Use only OUTPUT, the printed text. ' +
  'Reply with one python block of at most three asserts.';
import { testModelPath, testThreads } from '../../scripts/test-model.js';

const providers: LocalLlamaProvider[] = [];

async function load(options: Partial<LocalProviderOptions>, timings: CompletionTiming[]): Promise<LocalLlamaProvider> {
  const p = await LocalLlamaProvider.load({
    modelPath: testModelPath(),
    contextSize: 1024,
    threads: testThreads(),
    maxTokens: 6,
    onTiming: (t) => timings.push(t),
    ...options,
  });
  providers.push(p);
  return p;
}

afterAll(async () => {
  for (const p of providers) await p.dispose();
  await freeSharedModels();
}, 120_000);

const code = (requirement: string): ChatMessage[] => [
  { role: 'system', content: SYSTEM_PROMPT },
  { role: 'user', content: requirement },
];
const checks = (requirement: string): ChatMessage[] => [
  { role: 'system', content: CHECKS_PROMPT },
  { role: 'user', content: `Request: ${requirement}` },
];

describe('local provider: reused context', () => {
  const timings: CompletionTiming[] = [];
  let llm: LocalLlamaProvider;
  beforeAll(async () => {
    llm = await load({ slots: 3 }, timings);
  }, 120_000);

  it('a fix attempt after a checks call starts from the evaluated chat; the next request from the system prompt', async () => {
    const first = code('print the first 10 square numbers');
    const a = await llm.complete(first);
    const ta = timings.at(-1)!;
    expect(ta.reusedPromptTokens).toBe(0);
    expect(ta.evaluatedInputTokens).toBeGreaterThanOrEqual(ta.promptTokens - 1);

    await llm.complete(checks('print the first 10 square numbers'));
    const tb = timings.at(-1)!;
    expect(tb.slot).not.toBe(ta.slot); // the checks call did not evict the run's chat

    await llm.complete([...first, { role: 'assistant', content: a.content }, { role: 'user', content: 'NameError: x. Fix it.' }]);
    const tc = timings.at(-1)!;
    expect(tc.slot).toBe(ta.slot);
    expect(tc.reusedPromptTokens).toBeGreaterThanOrEqual(ta.promptTokens);
    // what llama.cpp evaluated: only the new part of the chat (plus the generated reply)
    expect(tc.evaluatedInputTokens).toBeLessThan(tc.promptTokens - ta.promptTokens + 1);

    await llm.complete(code('print the first 10 prime numbers'));
    const td = timings.at(-1)!;
    expect(td.reusedPromptTokens).toBeGreaterThan(40); // the system prompt
    expect(td.evaluatedInputTokens).toBeLessThan(td.promptTokens - 40);
  }, 120_000);

  it('with one slot (no cache of several chats) the checks call evicts the run\'s chat', async () => {
    const t1: CompletionTiming[] = [];
    const one = await load({ slots: 1 }, t1);
    const first = code('print the first 10 square numbers');
    const a = await one.complete(first);
    await one.complete(checks('print the first 10 square numbers'));
    await one.complete([...first, { role: 'assistant', content: a.content }, { role: 'user', content: 'NameError: x. Fix it.' }]);
    expect(t1.at(-1)!.reusedPromptTokens).toBeLessThan(10);
  }, 120_000);
});

describe('local provider: system prompts read ahead', () => {
  it('prepare() evaluates each system prompt into its own slot: the first requests skip them', async () => {
    const timings: CompletionTiming[] = [];
    const llm = await load({ slots: 2 }, timings);
    await llm.prepare([SYSTEM_PROMPT, CHECKS_PROMPT]);
    await llm.complete(code('print the first 3 square numbers'));
    await llm.complete(checks('print the first 3 square numbers'));
    const [a, b] = timings;
    expect(a!.reusedPromptTokens).toBeGreaterThan(40);
    expect(b!.reusedPromptTokens).toBeGreaterThan(40);
    expect(a!.slot).not.toBe(b!.slot);
    // a second prepare changes nothing that is already there
    await llm.prepare([SYSTEM_PROMPT]);
    await llm.complete(code('print the first 3 square numbers'));
    expect(timings.at(-1)!.reusedPromptTokens).toBeGreaterThanOrEqual(a!.promptTokens);
  }, 120_000);
});

describe('local provider: token prediction and parallel requests', () => {
  const retype: ChatMessage[] = [
    { role: 'system', content: 'You copy text exactly.' },
    { role: 'user', content: 'Copy this line: total = sum(values) / len(values)  # the mean of the values' },
    { role: 'assistant', content: 'total = sum(values) / len(values)  # the mean of the values' },
    { role: 'user', content: 'Copy it once more, exactly.' },
  ];

  it('input lookup predicts tokens from the prompt, and the reply is the one without prediction', async () => {
    const plain: CompletionTiming[] = [];
    const predicted: CompletionTiming[] = [];
    const off = await load({ slots: 1 }, plain);
    const input = await load({ slots: 1, prediction: 'input' }, predicted);
    const a = await off.complete(retype);
    const b = await input.complete(retype);
    expect(b.content).toBe(a.content);
    expect(plain.at(-1)!.predictions).toEqual({ validated: 0, refuted: 0 });
    expect(predicted.at(-1)!.predictions.validated).toBeGreaterThan(0);
  }, 120_000);

  it('a draft model (here the same small model) proposes tokens the model accepts', async () => {
    const t: CompletionTiming[] = [];
    const draft = await load({ slots: 1, prediction: 'draft', draftModelPath: testModelPath() }, t);
    await draft.complete(retype);
    expect(t.at(-1)!.predictions.validated).toBeGreaterThan(0);
  }, 120_000);

  it('node-llama-cpp keeps at most one predicted token per step (why PREDICTION_MAX_TOKENS is 1)', async () => {
    // fails once the library fills `validatedTokens` in `_speculativeEvaluate`: then raise the limit (docs/local-model.md)
    const t: CompletionTiming[] = [];
    const input = await load({ slots: 1, prediction: 'input', predictionTokens: 4 }, t);
    await input.complete(retype);
    const { completionTokens, predictions } = t.at(-1)!;
    expect(predictions.validated).toBeGreaterThan(0);
    expect(predictions.refuted).toBeGreaterThan(0);
    expect(predictions.validated).toBeLessThanOrEqual(Math.ceil(completionTokens / 2));
  }, 120_000);

  it('a prediction length below 1 is refused', async () => {
    await expect(load({ prediction: 'input', predictionTokens: 0 }, [])).rejects.toThrow(/prediction length must be a whole number ≥ 1, not 0/);
  });

  it('draft prediction without a draft model is refused with the key to set', async () => {
    await expect(load({ prediction: 'draft' }, [])).rejects.toThrow(/llm\.draft_model_path/);
  });

  it('parallel 2 serves two requests together, with the replies it gives one at a time', async () => {
    const serial: CompletionTiming[] = [];
    const together: CompletionTiming[] = [];
    const one = await load({ slots: 2, parallel: 1 }, serial);
    const two = await load({ slots: 2, parallel: 2 }, together);
    const asks: ChatMessage[][] = ['Name a colour.', 'Name a fruit.'].map((q) => [
      { role: 'system', content: 'Answer with one word.' },
      { role: 'user', content: q },
    ]);
    const a = await Promise.all(asks.map((m) => one.complete(m)));
    const b = await Promise.all(asks.map((m) => two.complete(m)));
    expect(b.map((c) => c.content)).toEqual(a.map((c) => c.content));
    // one at a time: the second waited for the first; together: different slots, both started at once
    expect(Math.max(...serial.map((t) => t.queuedMs))).toBeGreaterThan(Math.min(...serial.map((t) => t.totalMs)) * 0.5);
    expect(new Set(together.map((t) => t.slot)).size).toBe(2);
    expect(Math.max(...together.map((t) => t.queuedMs))).toBeLessThan(Math.min(...together.map((t) => t.totalMs)) * 0.5);
  }, 120_000);
});
