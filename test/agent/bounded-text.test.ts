/**
 * Turn-2 cases on the agent (real openai client against the fake server, real sandbox): text
 * derived from untrusted output is bounded where it is stored and sent (C1), replies that are not
 * programs are failed attempts decided before anything runs (C6), any exception line is recognised
 * (C7), and LLM endpoint failures reach users in plain words, details only in the operator's log.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

let fake: FakeOpenAi | undefined;
const executor = new BubblewrapExecutor({ limits: { wallTimeS: 10 } });
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(replies: FakeReply[], maxRetries = 3, baseUrl?: (url: string) => string) {
  fake = await startFakeOpenAi({ replies });
  const store = new KeyvHistoryStore(new Map());
  const log: string[] = [];
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: baseUrl ? baseUrl(fake.url) : fake.url, model: 'fake-model', maxRetries: 0, apiKey: 'sk-test' }),
    executor,
    store,
    artifactRoot: tempDir('agent-bounded-'),
    maxRetries,
    log: (m) => log.push(m),
  });
  return { agent, store, fake, log };
}

describe('C1: a huge exception message', () => {
  it('gives small fix requests, a short error and a small history record; the full stderr is kept as a file', async () => {
    // the same failure each attempt (the program text differs a little, so every attempt runs; the third time it ends the run)
    const { agent, store, fake } = await setup([(_req, i) => py(`raise RuntimeError("bad row " + repr(list(range(150000 + ${i}))))`)]);
    const run = await agent.run('cli:t', 'process the rows');
    expect(run.status).toBe('failed');
    expect(run.attempts.filter((a) => a.result)).toHaveLength(3);
    for (const request of fake.requests) expect(JSON.stringify(request.body).length).toBeLessThan(16_000);
    expect(run.error!.length).toBeLessThanOrEqual(1000);
    expect(run.error).toMatch(/^the same error 3 times \(attempts 1, 2 and 3\): RuntimeError: bad row \[0, 1, 2/);
    const stored = await store.getRun('cli:t', run.id);
    expect(JSON.stringify(stored).length).toBeLessThan(120_000);
    const result = stored!.attempts[0]!.result!;
    expect(result.stderr.length).toBeLessThanOrEqual(16_000);
    const full = readFileSync(result.fullOutput!.stderr!, 'utf8');
    expect(full.length).toBeGreaterThan(1_000_000);
    expect(full).toContain('RuntimeError: bad row [0, 1, 2, 3');
  }, 90_000);
});

describe('C6: replies that are not programs', () => {
  it.each([
    ['prose', 'First load the data, then compute the average per group.', /no Python code/],
    ['prose in a python block', py('First load the data, then compute the average per group.'), /sentences, not a program/],
    ['a comment-only block', '```python\n# compute the answer here\n```', /only comments/],
    ['a placeholder block (pass)', '```python\n# TODO\npass\n```', /placeholders/],
    ['a block holding only a docstring and ...', '```python\n"""Compute the average per group."""\n...\n```', /placeholders/],
  ])('%s is a failed attempt with a clear reason, nothing executed', async (_name, reply, reason) => {
    const events: string[] = [];
    const { agent } = await setup([reply], 0);
    const run = await agent.run('cli:t', 'average per group', { onEvent: (e) => events.push(e.type) });
    expect(run.status).toBe('failed');
    expect(run.attempts[0]!.error).toMatch(reason);
    expect(run.attempts[0]!.result).toBeUndefined();
    expect(events).not.toContain('executing');
  });

  it('code followed by a lone closing fence runs and prints 6', async () => {
    const { agent } = await setup(['print(sum([1, 2, 3]))\n```'], 0);
    const run = await agent.run('cli:t', 'sum 1, 2, 3');
    expect(run.status).toBe('success');
    expect(run.attempts[0]!.result!.stdout).toBe('6\n');
  });
});

describe('C7: exception lines', () => {
  it('a sys.exit("message") failure is summarised with its message', async () => {
    const { agent } = await setup([py('import sys\nsys.exit("fatal: bad input")')], 0);
    const run = await agent.run('cli:t', 'fail');
    expect(run.error).toBe('exit code 1: fatal: bad input');
  });

  it.each([
    ['raise Exception("boom")', 'Exception: boom'],
    ['class Oops(Exception):\n    pass\nraise Oops("bad row")', 'Oops: bad row'],
    ['raise Warning("careful")', 'Warning: careful'],
    ['raise ExceptionGroup("two", [ValueError(1), KeyError(2)])', 'ExceptionGroup: two (2 sub-exceptions)'],
  ])('%s is summarised by its exception line', async (code, line) => {
    const { agent } = await setup([py(code)], 0);
    const run = await agent.run('cli:t', 'fail');
    expect(run.error).toBe(line);
  });
});

describe('LLM endpoint failures', () => {
  it('tell users "rejected the key" in plain words; the details go to the operator log', async () => {
    const { agent, log } = await setup(
      [{ status: 401, body: { error: { message: 'Incorrect API key provided: sk-abc***xyz', code: 'invalid_api_key' } } }],
      0,
    );
    const run = await agent.run('cli:t', 'anything');
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^the LLM rejected the API key/);
    expect(run.error).not.toMatch(/127\.0\.0\.1|sk-abc|http/);
    expect(log.join('\n')).toContain('401: Incorrect API key provided');
  });

  it('with credentials in llm.base_url: users see "unavailable", the log never shows the password', async () => {
    const { agent, log } = await setup(['unused'], 0, (url) => url.replace('http://', 'http://admin:hunter2@'));
    const run = await agent.run('cli:t', 'anything');
    expect(run.status).toBe('failed');
    expect(run.error).not.toMatch(/hunter2|admin|127\.0\.0\.1/);
    expect(log.join('\n')).toMatch(/http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(log.join('\n')).not.toContain('hunter2');
  });
});
