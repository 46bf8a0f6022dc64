/**
 * What the request states is checked, end to end (the real openai client against the fake OpenAI
 * server, the real sandbox): a stated method is told to every program of the run and a program
 * that ignores it is never confirmed (the message names the convention and the call), alike when
 * both programs ignore it; an object dump where one value was asked is no answer; a run out of
 * time shows a failed attempt's plausible output ⚠️.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';
import { INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });
const isIndependent = (r: FakeRequest) => r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false;

/** The fake LLM the last {@link setup} started (read by tests that run one at a time). */
let fake: FakeOpenAi | undefined;
/** Every fake LLM started (some tests run at once), closed after the file. */
const fakes: FakeOpenAi[] = [];
afterAll(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function setup(script: { code: string[]; independent?: string[] }, options: { runTimeoutMs?: number; delayMs?: number; maxRetries?: number } = {}) {
  const next = { code: 0, independent: 0 };
  const pick = (list: string[], kind: keyof typeof next) => list[Math.min(next[kind]++, list.length - 1)]!;
  const started = await startFakeOpenAi({
    replies: [],
    respond: (req) => {
      const content = isIndependent(req) ? pick(script.independent ?? ['(none)'], 'independent') : isChecksRequest(req) ? '# no checks' : pick(script.code, 'code');
      return options.delayMs ? { content, delayMs: options.delayMs } : content;
    },
  });
  fakes.push(started);
  fake = started;
  return new Agent({
    llm: new OpenAiProvider({ baseUrl: started.url, model: 'fake-model', maxRetries: 0, timeoutMs: 20_000 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('methods-artifacts-'),
    maxRetries: options.maxRetries ?? 1,
    ...(options.runTimeoutMs !== undefined ? { runTimeoutMs: options.runTimeoutMs } : {}),
  });
}

const CSV = file('m.csv', 'x\n1\n2\n3\n4\n5\n6\n');
const READ = "import pandas as pd\ndf = pd.read_csv('m.csv')\n";
const SAMPLE_STD = py(`${READ}print(round(df['x'].std(), 4))`); // 1.8708
const POPULATION_STD = py(`${READ}print(round(df['x'].std(ddof=0), 4))`); // 1.7078
const REQUEST = 'm.csv: the population standard deviation of x, 4 decimals';
const MESSAGE = "population standard deviation asked; `df['x'].std()` uses ddof=1 (its default)";

describe('a stated method is a requirement', () => {
  it('is told to the attempts and the independent programs; an attempt that ignores it is not confirmed, and the next attempt is told why', async () => {
    const agent = await setup({ code: [SAMPLE_STD, POPULATION_STD], independent: [POPULATION_STD] });
    const run = await agent.run('cli:t', REQUEST, { inputFiles: [CSV] });
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.result?.stdout)).toEqual(['1.8708\n', '1.7078\n']);
    expect(run.attempts[0]!.unmet).toEqual([MESSAGE]);
    expect(run.attempts[1]!.unmet).toBeUndefined();
    const prompts = fake!.requests.map((r) => r.messages.map((m) => m.content).join('\n'));
    for (const p of prompts) expect(p).toContain('- Population standard deviation (divide by n, ddof=0): pandas .std()/.var() default to ddof=1, so pass ddof=0');
    const second = fake!.requests.filter((r) => !isIndependent(r))[1]!;
    expect(second.messages.at(-1)!.content).toContain(`It does not do what the request states:\n- ${MESSAGE}`);
    expect(fake!.requests.filter(isIndependent)).toHaveLength(1); // the first attempt was not cross-checked
  }, 60_000);

  it('two programs that ignore it alike do not confirm it: the run ends ⚠️ naming the convention and the call', async () => {
    const agent = await setup({ code: [SAMPLE_STD], independent: [SAMPLE_STD] });
    const run = await agent.run('cli:t', REQUEST, { inputFiles: [CSV] });
    expect(run.status).toBe('unverified');
    expect(run.error).toContain(MESSAGE);
    expect(run.attempts.filter((a) => a.result).every((a) => a.result!.stdout === '1.8708\n')).toBe(true);
  }, 60_000);

  it('an independent program that ignores it is no opinion: the next one decides', async () => {
    const agent = await setup({ code: [POPULATION_STD], independent: [SAMPLE_STD, POPULATION_STD] });
    const run = await agent.run('cli:t', REQUEST, { inputFiles: [CSV] });
    expect(run.status).toBe('success');
    expect(run.agreement!.outcome).toBe('agreed');
    expect(run.agreement!.programs[0]!.failure).toBe(`it does not follow the request: ${MESSAGE}`);
  }, 60_000);

  it('a program that follows it is confirmed at once', async () => {
    const agent = await setup({ code: [POPULATION_STD], independent: [POPULATION_STD] });
    const run = await agent.run('cli:t', REQUEST, { inputFiles: [CSV] });
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
  }, 60_000);
});

describe('the answer has the form asked', () => {
  const COUNT = 'm.csv: how many values of x are above 3? One integer.';
  it('a printed Series where a count was asked is no answer; the count is', async () => {
    const dump = py(`${READ}print(df['x'] > 3)`);
    const count = py(`${READ}print(int((df['x'] > 3).sum()))`);
    const agent = await setup({ code: [dump, count], independent: [count] });
    const run = await agent.run('cli:t', COUNT, { inputFiles: [CSV] });
    expect(run.status).toBe('success');
    expect(run.attempts[0]!.unmet).toEqual(["a count (one integer) asked; the program printed a pandas/NumPy object (`Name: x, dtype: bool`), not the answer"]);
    expect(run.attempts[1]!.result!.stdout).toBe('3\n');
  }, 60_000);

  it('a table asked per group may print a Series', async () => {
    const perGroup = py("import pandas as pd\ndf = pd.DataFrame({'g': ['a', 'b', 'a'], 'v': [1, 2, 3]})\nprint(df.groupby('g')['v'].sum())");
    const agent = await setup({ code: [perGroup], independent: [perGroup] });
    const run = await agent.run('cli:t', 'm.csv: the total of v per group', { inputFiles: [CSV] });
    expect(run.attempts[0]!.unmet).toBeUndefined();
    expect(run.status).toBe('success');
  }, 60_000);
});

// both wait on a slow LLM (6 s a reply) most of their time: they run at once
describe.concurrent('no answer at all is the last resort', () => {
  it('out of time after an attempt that printed its answer and then crashed: ⚠️ with that output, not ❌', async ({ expect }) => {
    const crashesLate = py(`${READ}print('total:', df['x'].sum())\nraise RuntimeError('the plot could not be saved')`);
    const agent = await setup({ code: [crashesLate] }, { runTimeoutMs: 10_000, delayMs: 6000, maxRetries: 3 });
    const run = await agent.run('cli:t', 'm.csv: the total of x', { inputFiles: [CSV] });
    expect(run.status).toBe('unverified');
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.result!.stdout).toBe('total: 21\n');
    expect(run.error).toMatch(/^the run's time budget \(10 s, agent\.run_timeout_s\) has \d+ s left, less than another attempt takes here .*; no attempt ran to the end, and attempt 1 printed this before it failed \(RuntimeError: the plot could not be saved\): shown as the only answer, unconfirmed$/);
  }, 30_000);

  it('out of time after an attempt that printed nothing: ❌ as before', async ({ expect }) => {
    const agent = await setup({ code: [py(`${READ}print(1 / 0)`)] }, { runTimeoutMs: 10_000, delayMs: 6000, maxRetries: 3 });
    const run = await agent.run('cli:t', 'm.csv: the total of x', { inputFiles: [CSV] });
    expect(run.status).toBe('failed');
  }, 30_000);
});
