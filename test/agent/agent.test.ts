import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, InputError, type VerifyMode } from '../../src/agent/loop/index.js';
import type { AgentEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';

const py = (code: string) => `Here is the program:\n\n\`\`\`python\n${code}\n\`\`\`\n`;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(replies: FakeReply[], maxRetries = 3, verify: VerifyMode = 'off') {
  fake = await startFakeOpenAi({ replies });
  const store = new KeyvHistoryStore(new Map());
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 5 } }),
    store,
    artifactRoot: tempDir('agent-artifacts-'),
    maxRetries,
    maxRequirementChars: 200,
    verify,
  });
  const events: AgentEvent[] = [];
  return { agent, store, events, onEvent: (e: AgentEvent) => events.push(e), fake };
}

describe('Agent', () => {
  it('feeds an execution error back to the LLM and succeeds on the fixed code', async () => {
    const { agent, store, events, onEvent, fake } = await setup([
      py('print(undefined_name)'),
      py('print("fixed", 6 * 7)'),
    ]);
    const run = await agent.run('cli:t', 'print the answer', { onEvent });

    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(2);
    expect(run.attempts[0]!.result?.success).toBe(false);
    expect(run.attempts[1]!.result?.stdout).toBe('fixed 42\n');
    // the error text reached the LLM in the second request
    const second = fake.requests[1]!.messages.at(-1)!.content;
    expect(second).toContain("NameError: name 'undefined_name' is not defined");
    expect(second).toContain('exit code 1');
    expect(fake.requests[1]!.messages.some((m) => m.role === 'assistant' && m.content.includes('undefined_name'))).toBe(true);
    expect(events.map((e) => e.type).filter((t) => t !== 'code_delta')).toEqual([
      'generating', 'generated', 'executing', 'executed', 'improving',
      'generating', 'generated', 'executing', 'executed', 'done',
    ]);
    const improving = events.find((e) => e.type === 'improving');
    expect(improving).toMatchObject({ retry: 1, maxRetries: 3, reason: expect.stringContaining('NameError') });
    // the run is in the history with both attempts
    expect((await store.getRun('cli:t', run.id))?.attempts).toHaveLength(2);
  });

  it('stops after max_retries and says why', async () => {
    const { agent, fake } = await setup([(_req, i) => py(`raise ValueError("still broken, try ${i}")`)], 2);
    const run = await agent.run('cli:t', 'anything');
    expect(run.status).toBe('failed');
    expect(run.attempts).toHaveLength(3);
    expect(run.error).toContain('ValueError: still broken, try 2');
    expect(fake.requests).toHaveLength(3);
  });

  it('names the limit that was hit when feeding back a timeout', async () => {
    const { agent, fake } = await setup([py('while True: pass'), py('print("quick")')]);
    const run = await agent.run('cli:t', 'loop');
    expect(run.status).toBe('success');
    expect(run.attempts[0]!.result?.timedOut).toBe(true);
    expect(fake.requests[1]!.messages.at(-1)!.content).toMatch(/wall_time limit/);
  }, 30_000);

  it('treats a reply without code as a failed attempt, not an execution', async () => {
    const { agent, events, onEvent, fake } = await setup(['I cannot help with that.', py('print(1)')]);
    const run = await agent.run('cli:t', 'print one', { onEvent });
    expect(run.status).toBe('success');
    expect(run.attempts[0]).toMatchObject({ code: '', error: 'the reply contained no Python code' });
    expect(run.attempts[0]!.result).toBeUndefined();
    expect(events.filter((e) => e.type === 'executing')).toHaveLength(1);
    expect(fake.requests[1]!.messages.at(-1)!.content).toContain('could not be used: the reply contained no Python code');
  });

  it('improves a working run from user feedback, passing the feedback as such', async () => {
    const { agent, fake } = await setup([py('print("v1")'), py('print("v2")')]);
    const run = await agent.run('cli:t', 'print a version');
    await agent.improve(run, 'make it print v2 instead');
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.trigger)).toEqual(['requirement', 'feedback']);
    expect(run.attempts[1]!.feedback).toBe('make it print v2 instead');
    const last = fake.requests[1]!.messages.at(-1)!.content;
    expect(last).toContain('The user asks for this change:\nmake it print v2 instead');
    expect(last).toContain('v1'); // the previous output is context
  });

  it('generates without executing, then executes on request', async () => {
    const { agent, events, onEvent } = await setup([py('print("later")')]);
    const run = await agent.generate('cli:t', 'print later', { onEvent });
    expect(run.status).toBe('generated');
    expect(events.some((e) => e.type === 'executing')).toBe(false);
    await agent.execute(run);
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.trigger)).toEqual(['requirement', 'rerun']);
    expect(run.attempts[1]!.result?.stdout).toBe('later\n');
  });

  it('returns plots as PNG artifacts kept on the host', async () => {
    const { agent } = await setup([
      py('import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.title("t")\nplt.show()'),
    ]);
    const run = await agent.run('cli:t', 'plot');
    const artifacts = run.attempts[0]!.result!.artifacts;
    expect(artifacts.length).toBe(1);
    expect(readFileSync(artifacts[0]!.path).subarray(1, 4).toString()).toBe('PNG');
  }, 30_000);

  it('rejects empty and oversized requirements before any LLM call', async () => {
    const { agent, store, fake } = await setup([py('print(1)')]);
    await expect(agent.run('cli:t', '   \n ')).rejects.toBeInstanceOf(InputError);
    await expect(agent.run('cli:t', 'x'.repeat(201))).rejects.toThrow(/201 characters long; the limit is 200/);
    expect(fake.requests).toHaveLength(0);
    expect(await store.listRuns('cli:t')).toEqual([]);
  });

  it('ends the run as failed with a clear reason when the LLM is unreachable', async () => {
    const store = new KeyvHistoryStore(new Map());
    const agent = new Agent({
      llm: new OpenAiProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 }),
      executor: new BubblewrapExecutor(),
      store,
      artifactRoot: tempDir('agent-artifacts-'),
      log: (m) => log.push(m),
    });
    const log: string[] = [];
    const events: AgentEvent[] = [];
    const run = await agent.run('cli:t', 'anything', { onEvent: (e) => events.push(e) });
    expect(run.status).toBe('failed');
    expect(run.error).toBe('the LLM is unavailable (the operator has the details)');
    expect(log.join('\n')).toContain('http://127.0.0.1:9/v1');
    expect(events.at(-1)).toMatchObject({ type: 'failed' });
    expect((await store.getRun('cli:t', run.id))?.status).toBe('failed');
  });

  it('cancels a running execution', async () => {
    const { agent } = await setup([py('import time\ntime.sleep(30)')]);
    const controller = new AbortController();
    const pending = agent.run('cli:t', 'sleep', {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'executing') setTimeout(() => controller.abort(), 300);
      },
    });
    const run = await pending;
    expect(run.status).toBe('failed');
    expect(run.error).toBe('cancelled');
    expect(run.attempts).toHaveLength(1);
  });
});

describe('Agent: streamed code', () => {
  it('emits the code as it streams in (code_delta), growing up to the generated code', async () => {
    const code = 'import math\nfor n in range(3):\n    print(n, math.sqrt(n))';
    const reply = py(code);
    const { agent, events, onEvent } = await setup([{ content: reply, chunks: reply.match(/[\s\S]{1,5}/g)! }], 0);
    const run = await agent.run('cli:t', 'print square roots', { onEvent });
    expect(run.status).toBe('success');
    const deltas = events.filter((e) => e.type === 'code_delta');
    expect(deltas.length).toBeGreaterThan(5);
    const codes = deltas.map((e) => (e.type === 'code_delta' ? e.code : ''));
    for (let i = 1; i < codes.length; i++) expect(codes[i]!.startsWith(codes[i - 1]!)).toBe(true);
    expect(codes.at(-1)!.trimEnd()).toBe(code); // the newline before the closing fence came first
    expect(deltas.map((e) => (e.type === 'code_delta' ? e.delta : '')).join('')).toBe(codes.at(-1));
    // all of them before the generated event, with the attempt's index
    const generatedAt = events.findIndex((e) => e.type === 'generated');
    expect(events.findLastIndex((e) => e.type === 'code_delta')).toBeLessThan(generatedAt);
    expect(deltas.every((e) => e.type === 'code_delta' && e.attempt === 1 && e.runId === run.id)).toBe(true);
  });
});
