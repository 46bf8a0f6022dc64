/**
 * A run keeps its time budget: work that cannot finish in what is left is not started, and the run
 * ends with its best answer and the reason. `budgetStop` on a clock of the test's own; end to end
 * with the fake LLM (slow replies) and the real sandbox.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { budgetStop } from '../../src/agent/run/index.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { DEFAULT_RUN_TIMEOUT_MS } from '../../src/agent/loop/agent-options.js';
import { parseConfig } from '../../src/config/load.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

describe('budgetStop', () => {
  const budget = { startedAt: 0, timeoutMs: 300_000 };
  it('goes on while what is left holds another attempt as long as the ones so far', () => {
    expect(budgetStop(budget, 1, 'another attempt', 100_000)).toBeUndefined(); // 200 s left, 100 s each
    expect(budgetStop(budget, 2, 'another attempt', 200_000)).toBeUndefined(); // 100 s left, 100 s each
  });
  it('stops when the time left is shorter than an attempt', () => {
    expect(budgetStop(budget, 2, 'another attempt', 210_000)).toBe(
      "the run's time budget (300 s, agent.run_timeout_s) has 90 s left, less than another attempt takes here (about 105 s), so it ends with the best answer so far",
    );
  });
  it('no budget, or nothing to estimate from: goes on', () => {
    expect(budgetStop({ startedAt: 0, timeoutMs: 0 }, 3, 'x', 1e9)).toBeUndefined();
    expect(budgetStop(undefined, 3, 'x', 1e9)).toBeUndefined();
    expect(budgetStop(budget, 0, 'x', 299_000)).toBeUndefined();
  });
  it('a run may take 5 minutes when the config does not say', () => {
    expect(DEFAULT_RUN_TIMEOUT_MS).toBe(300_000);
    expect(parseConfig({ llm: { provider: 'openai', model: 'm' } }, {}).agent.run_timeout_s).toBe(300);
  });
});

/** Every fake LLM started (the tests run at once, each with its own), closed after the file. */
const fakes: FakeOpenAi[] = [];
afterAll(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

/**
 * An agent whose LLM takes 6 s per reply, with a 10 s budget: after one attempt (6 s and what the
 * sandbox adds, under 4 s even on a loaded machine) what is left is less than it took.
 */
async function slowAgent(code: string[], verify: 'checks' | 'off' = 'checks'): Promise<{ agent: Agent; fake: FakeOpenAi }> {
  let i = 0;
  const fake = await startFakeOpenAi({ replies: [], respond: () => ({ content: code[Math.min(i++, code.length - 1)]!, delayMs: 6000 }) });
  fakes.push(fake);
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0, timeoutMs: 20_000 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('budget-artifacts-'),
    maxRetries: 3,
    runTimeoutMs: 10_000,
    verify,
  });
  return { agent, fake };
}

// both wait on the slow LLM most of their time: they run at once
describe.concurrent('a run within its budget', () => {
  it('a failure with no time for another attempt ends the run at once with the reason, before the deadline', async ({ expect }) => {
    const { agent, fake } = await slowAgent([py('print(1 / 0)'), py('print(1)')], 'off');
    const started = Date.now();
    const run = await agent.run('cli:t', 'print one divided by zero');
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^the run's time budget \(10 s, agent\.run_timeout_s\) has \d+ s left, less than another attempt takes here/);
    expect(fake.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('an answer with no time to cross-check it is kept, unconfirmed, with the reason', async ({ expect }) => {
    const { agent, fake } = await slowAgent([py("print('North', 5)")]);
    const run = await agent.run('cli:t', 'units sold in the North region', { inputFiles: [{ name: 'sales.csv', content: Buffer.from('region,units\nNorth,5\n') }] });
    expect(run.status).toBe('unverified');
    expect(run.attempts.at(-1)!.result?.stdout).toBe('North 5\n');
    expect(run.error).toMatch(/^it was not cross-checked: the run's time budget \(10 s, agent\.run_timeout_s\) has \d+ s left, less than a cross-check takes here/);
    expect(fake.requests).toHaveLength(1); // no independent program was asked for
  }, 30_000);
});
