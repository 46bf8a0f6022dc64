/**
 * A run's overall deadline (`agent.run_timeout_s`): the agent against the fake OpenAI server and
 * the real sandbox, and the built CLI as a user runs it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type VerifyMode } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { routedReplies } from '../helpers/verify-replies.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\`\n`;

/** Every fake LLM started (the agent's tests run at once, each with its own), closed after the file. */
const fakes: FakeOpenAi[] = [];
afterAll(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function setup(replies: FakeReply[], runTimeoutMs: number, verify: VerifyMode = 'off') {
  const fake = await startFakeOpenAi({ replies });
  fakes.push(fake);
  const store = new KeyvHistoryStore(new Map());
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0, timeoutMs: 60_000 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 60, cpuTimeS: 60 } }),
    store,
    artifactRoot: tempDir('deadline-artifacts-'),
    maxRetries: 3,
    verify,
    runTimeoutMs,
  });
  return { agent, store };
}

// each waits for its deadline (or its cancel) most of its time: they run at once
describe.concurrent('the run deadline', () => {
  it('an LLM that never finishes: the run ends failed at the deadline, saying so, nothing left running', async ({ expect }) => {
    const { agent, store } = await setup([{ hang: true }], 1000);
    const started = Date.now();
    const run = await agent.run('cli:t', 'print 1');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run.status).toBe('failed');
    expect(run.error).toBe('the run took longer than 1 s (agent.run_timeout_s) and was stopped');
    expect((await store.getRun('cli:t', run.id))?.status).toBe('failed');
  }, 30_000);

  it('an execution still going at the deadline is stopped', async ({ expect }) => {
    const { agent } = await setup([py('import time\ntime.sleep(30)\nprint("late")')], 2000);
    const started = Date.now();
    const run = await agent.run('cli:t', 'wait');
    expect(Date.now() - started).toBeLessThan(8000);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/agent\.run_timeout_s/);
  }, 30_000);

  it('an attempt that ran with exit 0 before the deadline: the run ends unverified with it', async ({ expect }) => {
    const { agent } = await setup(
      [routedReplies({ code: [py('print(41)'), { hang: true }], checks: ['assert "42" in OUTPUT, "the answer is 42"'] })],
      4000,
      'checks',
    );
    const run = await agent.run('cli:t', 'print the answer, 42');
    expect(run.status).toBe('unverified');
    expect(run.error).toMatch(/agent\.run_timeout_s/);
    expect(run.attempts.find((a) => a.result?.exitCode === 0)?.result?.stdout).toBe('41\n');
  }, 30_000);

  it('a caller that cancels is still told "cancelled", not the deadline', async ({ expect }) => {
    const { agent } = await setup([{ hang: true }], 60_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const run = await agent.run('cli:t', 'print 1', { signal: controller.signal });
    expect(run.error).toBe('cancelled');
  }, 30_000);
});

describe('the run deadline from the command line', () => {
  beforeAll(requireBuiltCli);

  it('agent.run_timeout_s ends `code-agent run --json` with exit 1 and the reason', async () => {
    const fake = await startFakeOpenAi({ replies: [{ hang: true }] });
    fakes.push(fake);
    const dir = mkdtempSync(join(tmpdir(), 'cli-deadline-'));
    writeFileSync(
      join(dir, 'config.yaml'),
      `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\n  run_timeout_s: 2\n`,
    );
    const started = Date.now();
    const r = await runCli(['run', '--json', 'print 1'], dir);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { outcome: string; error: string };
    expect(out.outcome).toBe('failed');
    expect(out.error).toBe('the run took longer than 2 s (agent.run_timeout_s) and was stopped');
  }, 30_000);

  it('a negative agent.run_timeout_s is a config error naming the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-deadline-'));
    writeFileSync(join(dir, 'config.yaml'), 'agent:\n  run_timeout_s: -5\n');
    const r = await runCli(['run', '--json', 'print 1'], dir);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatch(/agent\.run_timeout_s/);
  }, 30_000);
});
