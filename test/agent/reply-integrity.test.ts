/**
 * A reply is a program only when it is whole: the agent against the fake OpenAI-compatible server
 * (streaming, real `openai` client) and the real sandbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { AFTER_RUNAWAY_TEMPERATURE } from '../../src/agent/replies/reply.js';
import { startFakeOpenAi, openAiError, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const F = '```';
const py = (code: string) => `${F}python\n${code}\n${F}\n`;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(replies: FakeReply[], opts: { maxRetries?: number; maxTokens?: number } = {}) {
  fake = await startFakeOpenAi({ replies });
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0, maxTokens: opts.maxTokens }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 5 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('reply-artifacts-'),
    maxRetries: opts.maxRetries ?? 1,
    verify: 'off',
  });
  return { agent, fake };
}

/** R1: a program cut at the token limit, no closing fence (the request also wanted a CSV and a plot). */
const CUT = `${F}python\nrows = []\nfor i in range(5):\n    rows.append(i * i)\nprint('computed', len(rows))\n`;

describe('a reply cut off is never run as the answer', () => {
  it('R1: finish_reason "length" twice: asked again with twice the room, then reported cut off, nothing run, never success', async () => {
    const { agent, fake } = await setup([{ content: CUT, finishReason: 'length' }], { maxRetries: 0, maxTokens: 300 });
    const run = await agent.run('cli:t', 'compute squares, write them to squares.csv and plot them');
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/cut off at the LLM's length limit \(600 tokens\)/);
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.result).toBeUndefined();
    expect(run.attempts[0]!.replyFault).toBe('length');
    expect(fake.requests.map((r) => r.body?.max_tokens)).toEqual([300, 600]);
  }, 30_000);

  it('a reply cut at the limit, whole when asked again with more room: the whole one runs', async () => {
    const { agent, fake } = await setup([
      { content: CUT, finishReason: 'length' },
      py("rows = [i * i for i in range(5)]\nprint('computed', len(rows))"),
    ], { maxTokens: 200 });
    const shown: string[] = [];
    const run = await agent.run('cli:t', 'compute squares', { onEvent: (e) => e.type === 'code_delta' && shown.push(e.code) });
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.result?.stdout).toBe('computed 5\n');
    expect(fake.requests[1]!.body?.max_tokens).toBe(400);
    // what was shown while streaming ends with the whole program, not the cut one joined to it
    expect(shown.at(-1)?.trimEnd()).toBe(run.attempts[0]!.code);
  }, 30_000);

  it('a server that refuses the larger max_tokens: the reply is reported cut off', async () => {
    const { agent } = await setup([
      { content: CUT, finishReason: 'length' },
      { status: 400, body: openAiError('max_tokens is too large: 8192. This model supports at most 4096 completion tokens', 'invalid_request_error', null, 'max_tokens') },
    ], { maxRetries: 0, maxTokens: 4096 });
    const run = await agent.run('cli:t', 'compute squares');
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/cut off/);
    expect(run.attempts[0]!.result).toBeUndefined();
  }, 30_000);

  it('a stream that ends without its final event is asked again once; cut again, it is not run', async () => {
    const { agent, fake } = await setup([{ content: CUT, endWithoutFinish: true }], { maxRetries: 0 });
    const run = await agent.run('cli:t', 'compute squares');
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/stopped sending before the program was complete/);
    expect(run.attempts[0]!.result).toBeUndefined();
    expect(fake.requests).toHaveLength(2);
  }, 30_000);

  it('a reply cut at the limit twice (once with twice the room) ends the run: no attempt after it (S2)', async () => {
    const { agent, fake } = await setup([{ content: CUT, finishReason: 'length' }, { content: CUT, finishReason: 'length' }, py('print(sum(i * i for i in range(5)))')], { maxTokens: 100, maxRetries: 3 });
    const run = await agent.run('cli:t', 'sum of squares');
    expect(run.status).toBe('failed');
    expect(run.attempts.map((a) => a.replyFault)).toEqual(['length']);
    expect(run.error).toMatch(/cut at the LLM's length limit even with twice the room/);
    expect(fake.requests).toHaveLength(2);
  }, 30_000);
});

describe('what is run is the program, not the reply', () => {
  it('R2: chat-template tokens and another turn after the code', async () => {
    const { agent } = await setup([`${F}python\nprint(2 + 2)\n<|im_end|>\n<|im_start|>user\nthanks<|im_end|>`]);
    const run = await agent.run('cli:t', 'print 2 + 2');
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.code).toBe('print(2 + 2)');
    expect(run.attempts[0]!.result?.stdout).toBe('4\n');
  }, 30_000);

  it('R3: a usage block before the implementation', async () => {
    const { agent } = await setup([
      `Usage:\n${py('print(area(3))')}\nImplementation:\n${py('import math\n\ndef area(r):\n    return math.pi * r ** 2\n\nprint(round(area(2), 2))')}`,
    ]);
    const run = await agent.run('cli:t', 'area of a circle');
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.result?.stdout).toBe('12.57\n');
  }, 30_000);

  it('a checks block next to the program is never run as the program', async () => {
    const { agent } = await setup([`${py('print(sum(range(5)))')}\n${F}checks\nassert OUTPUT.strip() == "11"\n${F}\n`]);
    const run = await agent.run('cli:t', 'sum 0..4');
    expect(run.status).toBe('success');
    expect(run.attempts[0]!.code).toBe('print(sum(range(5)))');
  }, 30_000);

  it('a sentence that begins like Python is not executed', async () => {
    const { agent } = await setup(['for each row in the table: we sum the amounts…', py('print(3)')]);
    const run = await agent.run('cli:t', 'sum');
    expect(run.attempts[0]!.result).toBeUndefined();
    expect(run.attempts[0]!.error).toMatch(/no Python code/);
    expect(run.status).toBe('success');
  }, 30_000);
});

describe('a reply that degenerates is stopped while it streams', () => {
  /** Ever-deeper nested loops, one line per chunk (the case: 28,000 characters until the token limit). */
  const nested = (depth: number) =>
    `${F}python\n` + Array.from({ length: depth }, (_, i) => `${'    '.repeat(i)}for i${i} in range(2):`).join('\n') + '\n';
  const repeating = `${F}python\nimport pandas as pd\n` + 'print(df.groupby("region").sum())\n'.repeat(2000);

  it.each([
    ['nesting', nested(400), /nested 20 blocks deep/],
    ['repeating lines', repeating, /the same line repeated 30 times/],
  ])('%s: stopped early, the next attempt samples differently and is told', async (_name, content, reason) => {
    const { agent, fake } = await setup([
      { content, chunks: content.split(/(?<=\n)/), chunkDelayMs: 5 },
      py('print("short and direct")'),
    ]);
    const run = await agent.run('cli:t', 'sum per region');
    expect(run.status).toBe('success');
    expect(run.attempts[0]!.replyFault).toBe('runaway');
    expect(run.attempts[0]!.error).toMatch(reason);
    expect(run.attempts[0]!.result).toBeUndefined();
    // stopped while streaming: far fewer chunks than the reply had (counted by the server, not timed:
    // a wall-clock bound failed on a loaded machine although the stream was stopped at the same chunk)
    const total = content.split(/(?<=\n)/).length;
    await expect.poll(() => fake.requests[0]!.sentChunks, { timeout: 2000 }).toBeLessThan(100);
    expect(total).toBeGreaterThan(300);
    const second = fake.requests[1]!;
    expect(second.body).toMatchObject({ temperature: AFTER_RUNAWAY_TEMPERATURE, frequency_penalty: expect.any(Number) });
    expect(second.messages.at(-1)!.content).toMatch(/degenerated/);
  }, 30_000);

  it('a second reply that degenerates ends the run with the reason (no third call)', async () => {
    const content = nested(400);
    const reply = { content, chunks: content.split(/(?<=\n)/), chunkDelayMs: 1 };
    const { agent, fake } = await setup([reply, reply, py('print("never asked")')], { maxRetries: 3 });
    const run = await agent.run('cli:t', 'sum per region');
    expect(run.status).toBe('failed');
    expect(run.attempts.map((a) => a.replyFault)).toEqual(['runaway', 'runaway']);
    expect(run.error).toMatch(/^the reply degenerated again \(as in attempt 1\): the reply degenerated: its code was nested 20 blocks deep/);
    expect(fake.requests).toHaveLength(2);
  }, 30_000);
});
