/**
 * Candidates, settling and approving, end to end on the agent: the real openai client against the
 * fake OpenAI server, the real sandbox (which also reads each candidate's code with Python's ast)
 * and a real store. A choice or a 👍 makes no LLM call (the fake server sees no new request).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import { InputError } from '../../src/config/errors.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';
import { INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';
import { candidatesNotice, choicesOf, confirmedBy } from '../../src/chat/settle-view.js';
import { answerMarkText, settledAnswer } from '../../src/chat/answer-mark.js';
import { madeAttempts } from '../../src/history/attempts.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
const isIndependent = (r: FakeRequest) => r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false;

async function setup(script: { code: string[]; independent: string[] }, options: { twoAgainstOneAnswer?: boolean } = {}) {
  const next = { code: 0, independent: 0 };
  const pick = (list: string[], kind: keyof typeof next) => list[Math.min(next[kind]++, list.length - 1)]!;
  fake = await startFakeOpenAi({
    replies: [],
    respond: (req) => (isIndependent(req) ? pick(script.independent, 'independent') : isChecksRequest(req) ? '# no checks' : pick(script.code, 'code')),
  });
  const store = new KeyvHistoryStore(new Map());
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store,
    artifactRoot: tempDir('settle-artifacts-'),
    maxRetries: 3,
    ...options,
  });
  return { agent, store, fake };
}

const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });
const SALES = 'country,items,status\nDE,10,paid\nDE,4,paid\nFR,9,paid\nIT,1,paid\nIT,5,refunded\n';
// every country's items, the paid rows only
const PER_COUNTRY = "import pandas as pd\ndf = pd.read_csv('sales.csv')\ndf = df[df['status'] == 'paid']\nfor k, v in df.groupby('country')['items'].sum().items():\n    print(k, v)";
// only DE's (a partial answer), written to a file too
const ONLY_DE = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nde = df[(df['country'] == 'DE') & (df['status'] == 'paid')]\nopen('de.txt', 'w').write(str(de['items'].sum()))\nprint('DE', de['items'].sum())";
// refunds counted too: another reading
const ALL_ROWS = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nfor k, v in df.groupby('country')['items'].sum().items():\n    print(k, v)";

describe('candidates', () => {
  it('a partial answer disagrees: both are candidates, each with its output, files and reading; the reason says what it leaves out', async () => {
    const { agent } = await setup({ code: [py(PER_COUNTRY)], independent: [py(ONLY_DE), py(ALL_ROWS)] });
    const run = await agent.run('cli:t', 'items sold per country', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('unverified');
    expect(run.agreement?.outcome).toBe('disagreed');
    expect(run.error).toContain('the independent answer leaves out part of the other (9, 1)');
    expect(run.candidates).toHaveLength(3);
    const [attempt, onlyDe, allRows] = run.candidates!;
    expect(attempt).toMatchObject({ n: 1, from: 'attempt', attempt: 1, backers: 1, output: 'DE 14\nFR 9\nIT 1\n' });
    expect(attempt!.reading).toBe("columns status, items · rows where status == 'paid' · per country · sum");
    expect(onlyDe).toMatchObject({ n: 2, from: 'independent', programs: [1], output: 'DE 14\n' });
    expect(onlyDe!.reading).toContain("rows where (country == 'DE') & (status == 'paid')");
    expect(onlyDe!.artifacts.map((a) => a.name)).toEqual(['de.txt']);
    expect(allRows).toMatchObject({ n: 3, programs: [2], output: 'DE 14\nFR 9\nIT 6\n' });
    expect(allRows!.reading).toBe('columns items · all rows · per country · sum');
    expect(choicesOf(run).map((c) => c.id)).toEqual(['settle:1', 'settle:2', 'settle:3', 'settle:neither', 'approve:up', 'approve:down', 'program:save']);
    expect(candidatesNotice(run)!.lines[0]).toBe('[1] attempt 1');
  });

  it('two against one: the independent programs\' answer leads', async () => {
    const { agent } = await setup({ code: [py(ALL_ROWS)], independent: [py(PER_COUNTRY), py(PER_COUNTRY)] });
    const run = await agent.run('cli:t', 'items sold per country', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('unverified');
    expect(run.candidates!.map((c) => [c.n, c.from, c.backers, c.leads ?? false])).toEqual([
      [1, 'independent', 2, true],
      [2, 'attempt', 1, false],
    ]);
    expect(candidatesNotice(run)!.lines[0]).toBe('[1] (leads) 2 independent programs (they agree with each other)');
  });

  it("two against one, adopted: their answer is the run's answer (⚠️, marked), the attempt's the other candidate, with no other attempt", async () => {
    const { agent, fake } = await setup({ code: [py(ALL_ROWS)], independent: [py(PER_COUNTRY), py(PER_COUNTRY)] });
    const run = await agent.run('cli:t', 'items sold per country', { inputFiles: [file('sales.csv', SALES)] });
    expect(fake.requests).toHaveLength(3); // the attempt and two independent programs: no other attempt
    expect(run.status).toBe('unverified');
    const answer = run.attempts.at(-1)!;
    expect(answer).toMatchObject({ index: 2, trigger: 'rerun', adoptedFrom: 1 });
    expect(answer.result!.stdout).toBe('DE 14\nFR 9\nIT 1\n');
    expect(run.attempts[0]!.result!.stdout).toBe('DE 14\nFR 9\nIT 6\n');
    expect(run.error).toBe("two independent programs printed «DE 14 FR 9 IT 1» where this one printed «DE 14 FR 9 IT 6»; two against one: their answer is the run's answer, unconfirmed (the attempt's is candidate 2)");
    expect(settledAnswer(1, run)).toEqual({ state: 'adopted', candidate: 1 });
    expect(answerMarkText(1, settledAnswer(1, run))).toMatch(/two independent programs agreed on another answer, which is the run's, unconfirmed \(candidate 1, below\)/);
    expect(madeAttempts(run)).toBe(1);
  });

  it('two against one, not adopted (twoAgainstOneAnswer off): the attempt\'s answer stays the run\'s', async () => {
    const { agent } = await setup({ code: [py(ALL_ROWS)], independent: [py(PER_COUNTRY), py(PER_COUNTRY)] }, { twoAgainstOneAnswer: false });
    const run = await agent.run('cli:t', 'items sold per country', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('unverified');
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.adoptedFrom).toBeUndefined();
    expect(settledAnswer(1, run)).toEqual({ state: 'kept' });
  });
});

describe('settle', () => {
  it('a choice ends the run ✅ confirmed by the person, with the candidate\'s output and files, no LLM call, recorded in the store and in memory', async () => {
    const { agent, store, fake } = await setup({ code: [py(PER_COUNTRY)], independent: [py(ONLY_DE), py(ONLY_DE)] });
    const run = await agent.run('slack:T1:C1', 'items sold in DE', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.candidates!.map((c) => c.from)).toEqual(['independent', 'attempt']);
    const calls = fake.requests.length;

    const outcome = await agent.settle('slack:T1:C1', run.id, 1, { id: 'U2', name: 'Ann' });
    expect(fake.requests.length).toBe(calls); // no new LLM call
    expect(outcome.chosen?.n).toBe(1);
    const stored = (await store.getRun('slack:T1:C1', run.id))!;
    expect(stored.status).toBe('success');
    expect(stored.error).toBeUndefined();
    expect(stored.settlement).toMatchObject({ by: { id: 'U2', name: 'Ann' }, choice: 1 });
    expect(confirmedBy(stored)).toBe('confirmed by Ann (candidate 1)');
    const answer = stored.attempts.at(-1)!;
    expect(answer).toMatchObject({ trigger: 'rerun', settledFrom: 1 });
    expect(answer.result?.stdout).toBe('DE 14\n');
    expect(answer.result?.artifacts.map((a) => a.name)).toEqual(['de.txt']);
    expect(answer.code).toBe(ONLY_DE);
    // an approved example in this channel's memory, with the chosen program
    expect(outcome.example.added).toBe(true);
    const memory = await agent.memory!.list('slack:T1:C1');
    expect(memory.map((e) => [e.kind, e.example?.runId, e.example?.code])).toEqual([['example', run.id, ONLY_DE]]);
    expect(await agent.memory!.list('slack:T1:C2')).toEqual([]);
    // a settled run offers 👍/👎 only, and cannot be settled again
    expect(choicesOf(stored).map((c) => c.id)).toEqual(['approve:up', 'approve:down', 'program:save']);
    await expect(agent.settle('slack:T1:C1', run.id, 2, { id: 'U3' })).rejects.toThrow('settled already by Ann');
  });

  it('"neither" keeps the run ⚠️ and waits for a reply; a wrong number is refused; a run without candidates cannot be settled', async () => {
    const { agent, fake } = await setup({ code: [py(PER_COUNTRY)], independent: [py(ONLY_DE), py(ONLY_DE)] });
    const run = await agent.run('cli:t', 'items sold in DE', { inputFiles: [file('sales.csv', SALES)] });
    const calls = fake.requests.length;
    await expect(agent.settle('cli:t', run.id, 7, { id: 'me' })).rejects.toThrow('this run has no candidate 7 (it has 1, 2)');
    const neither = await agent.settle('cli:t', run.id, 'neither', { id: 'me' });
    expect(neither.run.status).toBe('unverified');
    expect(neither.run.settlement?.choice).toBe('neither');
    expect(neither.example.added).toBe(false);
    expect(fake.requests.length).toBe(calls);
    // still open to a choice after "neither"
    expect(choicesOf(neither.run)[0]!.id).toBe('settle:1');
    await expect(agent.settle('cli:t', 'r-none', 1, { id: 'me' })).rejects.toBeInstanceOf(InputError);
  });
});

describe('approve', () => {
  it('👍 records who approved the answer and adds it to memory; 👎 is recorded without an example; one verdict per person', async () => {
    const { agent, store, fake } = await setup({ code: [py(PER_COUNTRY)], independent: [py(PER_COUNTRY)] });
    const run = await agent.run('discord:G:C', 'items sold per country', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('success');
    const calls = fake.requests.length;
    const up = await agent.approve('discord:G:C', run.id, 'up', { id: '42', name: 'Bo' });
    expect(up.example.added).toBe(true);
    const down = await agent.approve('discord:G:C', run.id, 'down', { id: '43' });
    expect(down.example).toEqual({ added: false, why: 'a 👎 is not an example' });
    await agent.approve('discord:G:C', run.id, 'down', { id: '42', name: 'Bo' });
    const stored = (await store.getRun('discord:G:C', run.id))!;
    expect(stored.approvals!.map((a) => [a.by.id, a.verdict, a.attempt])).toEqual([
      ['43', 'down', 1],
      ['42', 'down', 1],
    ]);
    expect(fake.requests.length).toBe(calls);
    expect((await agent.memory!.list('discord:G:C')).map((e) => e.example?.runId)).toEqual([run.id]);
  });
});

describe('two against one, adopted (adoptTwoAgainstOne)', () => {
  async function adopting(code: string[]) {
    fake = await startFakeOpenAi({
      replies: [],
      respond: (() => {
        let n = 0;
        return (req: FakeRequest) => (isIndependent(req) ? py(PER_COUNTRY) : isChecksRequest(req) ? '# no checks' : py(code[Math.min(n++, code.length - 1)]!));
      })(),
    });
    return new Agent({
      llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
      executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
      store: new KeyvHistoryStore(new Map()),
      artifactRoot: tempDir('settle-artifacts-'),
      maxRetries: 3,
      adoptTwoAgainstOne: true,
    });
  }

  it('the next attempt is told the independent programs\' answer; printing it confirms the run without new independent programs', async () => {
    const agent = await adopting([ALL_ROWS, PER_COUNTRY]);
    const run = await agent.run('cli:t', 'items sold per country', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.trigger)).toEqual(['requirement', 'review']);
    expect(run.attempts[1]!.result?.stdout).toBe('DE 14\nFR 9\nIT 1\n');
    expect(run.agreement?.adopt).toEqual({ attempt: 2, output: 'DE 14\nFR 9\nIT 1\n' });
    const told = fake!.requests.filter((r) => !isIndependent(r) && !isChecksRequest(r))[1]!.messages.at(-1)!.content;
    expect(told).toContain('Two independent programs, written from scratch for this request, both printed this answer');
    expect(told).toContain('DE 14\nFR 9\nIT 1');
    expect(fake!.requests.filter(isIndependent)).toHaveLength(2); // none more for the adopting attempt
  });

  it('an attempt that still prints its own answer ends ⚠️ with the candidates to pick from', async () => {
    const agent = await adopting([ALL_ROWS, `${ALL_ROWS}\n`.replace('import pandas as pd', 'import pandas as pd  # again')]);
    const run = await agent.run('cli:t', 'items sold per country', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('unverified');
    expect(run.error).toContain('told the answer two independent programs agreed on');
    expect(run.candidates?.[0]).toMatchObject({ leads: true, output: 'DE 14\nFR 9\nIT 1\n' });
  });
});
