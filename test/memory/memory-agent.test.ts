/**
 * Channel memory end to end in the agent: the real openai client against the fake OpenAI server,
 * the real sandbox, a real SQLite history store. What a channel remembers reaches the prompts of
 * its next runs (asserted on what the fake LLM server received), the `memory_used` event says so,
 * another channel's runs never see it, a forgotten entry is gone from the next prompt, and an
 * approved run is given as an example to a paraphrase of its request but not to an unrelated one
 * (and never to the independent programs).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent, MemoryUsedEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';
import { INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });
const SALES = file('sales.csv', 'category,units,unit_price,sales\nGarden,2,10.00,30.00\nKitchen,3,5.00,20.00\nGarden,1,4.00,6.00\n');
const STAFF = file('staff.csv', 'name,department,type\nAda,Eng,FTE\nBo,Eng,contractor\n');
const REVENUE_CODE = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint((df['units'] * df['unit_price']).groupby(df['category']).sum().round(2).to_string())";
const DEFINITION = 'revenue = units × unit_price';
/** How the prompt writes it (math signs as Python writes them). */
const TOLD = 'revenue = units * unit_price';

const isIndependent = (r: FakeRequest) => r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false;
const isAttempt = (r: FakeRequest) => !isIndependent(r) && !isChecksRequest(r);
const firstUser = (r: FakeRequest) => r.messages.find((m) => m.role === 'user')?.content ?? '';

let fake: FakeOpenAi;
let store: KeyvHistoryStore;
let agent: Agent;
const dir = tempDir('memory-agent-');

beforeAll(async () => {
  fake = await startFakeOpenAi({
    replies: [],
    // every program prints the revenue per category; the checks request gets none
    respond: (req) => (isChecksRequest(req) ? '# no checks' : py(REVENUE_CODE)),
  });
  store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
  agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store,
    artifactRoot: join(dir, 'artifacts'),
    maxRetries: 0,
  });
});
afterAll(async () => {
  await store?.close();
  await fake?.close();
});
afterEach(() => {
  fake.requests.length = 0;
});

let n = 0;
const channel = () => `test:memory-${++n}-${Date.now()}`;

async function runIn(conversationId: string, requirement: string, files: InputFile[]) {
  const events: AgentEvent[] = [];
  const run = await agent.run(conversationId, requirement, { inputFiles: files, onEvent: (e) => events.push(e) });
  const used = events.find((e): e is MemoryUsedEvent => e.type === 'memory_used');
  return { run, used, attempts: fake.requests.filter(isAttempt), independent: fake.requests.filter(isIndependent) };
}

describe('channel memory in runs', () => {
  it('/remember: the next run of that channel carries the definition (attempts and independent programs) and says so; another channel does not', async () => {
    const a = channel();
    const b = channel();
    const entry = await agent.memory!.remember(a, DEFINITION, 'U1');
    const inA = await runIn(a, 'Total revenue per category', [SALES]);
    expect(inA.attempts.length).toBeGreaterThan(0);
    expect(firstUser(inA.attempts[0]!)).toContain(TOLD);
    expect(firstUser(inA.attempts[0]!)).toContain('Glossary of the team that asks');
    expect(inA.independent.length).toBeGreaterThan(0);
    for (const r of inA.independent) expect(firstUser(r)).toContain(TOLD);
    expect(inA.used?.definitions).toEqual([{ id: entry.id, text: DEFINITION }]);
    expect((await store.getRun(a, inA.run.id))?.memory?.definitions).toEqual([{ id: entry.id, text: DEFINITION }]);
    fake.requests.length = 0;

    const inB = await runIn(b, 'Total revenue per category', [SALES]);
    expect(inB.attempts.length).toBeGreaterThan(0);
    for (const r of fake.requests) expect(JSON.stringify(r.messages)).not.toContain(TOLD);
    expect(inB.used).toBeUndefined();
  });

  it('forget: the next run no longer carries it; who removed it and when are kept', async () => {
    const a = channel();
    const entry = await agent.memory!.remember(a, DEFINITION, 'U1');
    const forgotten = await agent.memory!.forget(a, entry.id, 'U2');
    expect(forgotten).toMatchObject({ id: entry.id, addedBy: 'U1', removedBy: 'U2' });
    const after = await runIn(a, 'Total revenue per category', [SALES]);
    for (const r of fake.requests) expect(JSON.stringify(r.messages)).not.toContain(TOLD);
    expect(after.used).toBeUndefined();
    const audit = await agent.memory!.list(a, true);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ id: entry.id, text: DEFINITION, addedBy: 'U1', removedBy: 'U2' });
    expect(Date.parse(audit[0]!.removedAt!)).not.toBeNaN();
    expect(await agent.memory!.list(a)).toEqual([]);
  });

  it('an approved run is the example of a paraphrase in its channel (its attempts only), not of an unrelated request nor in another channel', async () => {
    const a = channel();
    const approved = await runIn(a, 'Total revenue per category in sales.csv', [SALES]);
    const example = await agent.memory!.addApprovedExample(approved.run, 'U7');
    expect(example.example).toMatchObject({ runId: approved.run.id, request: 'Total revenue per category in sales.csv', code: REVENUE_CODE });
    expect(example.example!.inputSummary).toMatch(/^sales\.csv: /);
    // approving the same run again keeps one example
    expect((await agent.memory!.addApprovedExample(approved.run, 'U8')).id).toBe(example.id);
    fake.requests.length = 0;

    const paraphrase = await runIn(a, 'How much revenue did each category make? sales.csv', [SALES]);
    expect(paraphrase.used?.examples).toEqual([{ id: example.id, runId: approved.run.id }]);
    expect(firstUser(paraphrase.attempts[0]!)).toContain('Approved program');
    expect(firstUser(paraphrase.attempts[0]!)).toContain("df['units'] * df['unit_price']");
    for (const r of paraphrase.independent) expect(firstUser(r)).not.toContain('Approved program');
    fake.requests.length = 0;

    const unrelated = await runIn(a, 'List the contractors in each department of staff.csv', [STAFF]);
    expect(unrelated.used).toBeUndefined();
    for (const r of fake.requests) expect(firstUser(r)).not.toContain('Approved program');
    fake.requests.length = 0;

    const elsewhere = await runIn(channel(), 'How much revenue did each category make? sales.csv', [SALES]);
    expect(elsewhere.used).toBeUndefined();
  });

  it('an example keeps the request as the person wrote it: the note naming the files, which chat and terminal add for the LLM, is not part of it nor of what recall compares', async () => {
    const a = channel();
    const note = (f: InputFile) => `\n\n(Input files available in the current working directory: ${f.name})`;
    const approved = await runIn(a, `Total revenue per category${note(SALES)}`, [SALES]);
    const example = await agent.memory!.addApprovedExample(approved.run, 'U7');
    expect(example.text).toBe('Total revenue per category');
    expect(example.example!.request).toBe('Total revenue per category');
    expect(await agent.memory!.list(a)).toEqual([expect.objectContaining({ id: example.id, text: 'Total revenue per category' })]);
    fake.requests.length = 0;

    // the notes' words ("input files available in the current working directory") are no likeness
    const unrelated = await runIn(a, `List the contractors in each department${note(STAFF)}`, [STAFF]);
    expect(unrelated.used).toBeUndefined();
  });
});
