/**
 * Team programs in the agent, end to end: the real openai client against the fake OpenAI server
 * (it writes the first program only), the real sandbox and a real SQLite store. A finished run is
 * saved (its parameters read by Python's ast in the sandbox), then run by name with parameters:
 * no request reaches the LLM, the run is marked with the program, and its output follows the
 * values given. Files that do not fit are said before anything runs; a bad value is refused.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { ParameterError } from '../../src/programs/parameters.js';
import { programMark } from '../../src/programs/text.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });
const SALES = file('sales.csv', 'category,units,unit_price\nGarden,2,10.00\nKitchen,3,5.00\nGarden,1,4.00\n');
const CODE = [
  'import pandas as pd',
  'CATEGORY = "Garden"',
  'MIN_UNITS: int = 0',
  'SHOW_ALL = False',
  'df = pd.read_csv("sales.csv")',
  'rows = df if SHOW_ALL else df[df["category"] == CATEGORY]',
  'rows = rows[rows["units"] >= MIN_UNITS]',
  'print(f"revenue {CATEGORY}: {(rows.units * rows.unit_price).sum():.2f}")',
].join('\n');

let fake: FakeOpenAi;
let store: KeyvHistoryStore;
let agent: Agent;
const dir = tempDir('programs-agent-');

beforeAll(async () => {
  fake = await startFakeOpenAi({ replies: [], respond: (req) => (isChecksRequest(req) ? '# no checks' : py(CODE)) });
  store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
  agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 20 } }),
    store,
    artifactRoot: join(dir, 'artifacts'),
    maxRetries: 0,
    verify: 'off',
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
const channel = () => `test:programs-${++n}-${Date.now()}`;

async function savedProgram(conversation: string) {
  const run = await agent.run(conversation, 'Revenue of the Garden category', { inputFiles: [SALES] });
  expect(run.status).toBe('success');
  const program = await agent.programs.save(conversation, run.id, 'Revenue-By-Category', { id: 'U1', name: 'Alice' });
  return { run, program };
}

describe('team programs in the agent', () => {
  it('saves a run with its parameters and inputs, then runs it by name with no LLM call, marked as the team program', async () => {
    const c = channel();
    const { run, program } = await savedProgram(c);
    expect(program.name).toBe('revenue-by-category');
    const v = program.versions[0]!;
    expect(v).toMatchObject({ version: 1, runId: run.id, approvedBy: 'U1', approvedByName: 'Alice', code: CODE });
    expect(v.parameters.map(({ name, type, default: d }) => [name, type, d])).toEqual([
      ['CATEGORY', 'str', 'Garden'],
      ['MIN_UNITS', 'int', 0],
      ['SHOW_ALL', 'bool', false],
    ]);
    expect(v.inputs.files.map((f) => [f.name, f.fields?.map((x) => x.name)])).toEqual([['sales.csv', ['category', 'units', 'unit_price']]]);
    fake.requests.length = 0;

    // no files given: the saved run's files are used; a parameter given by name
    const events: AgentEvent[] = [];
    const prepared = await agent.programs.prepare(c, 'revenue-by-category', 'category=Kitchen');
    const ran = await agent.runProgram(c, prepared, { onEvent: (e) => events.push(e), requestedBy: 'U2' });
    expect(fake.requests).toHaveLength(0);
    expect(ran.status).toBe('success');
    expect(ran.attempts).toHaveLength(1);
    expect(ran.attempts[0]!.code).toContain('CATEGORY = "Kitchen"');
    expect(ran.attempts[0]!.result!.stdout.trim()).toBe('revenue Kitchen: 15.00');
    expect(ran.program).toMatchObject({ name: 'revenue-by-category', version: 1, approvedBy: 'U1', params: { CATEGORY: 'Kitchen' } });
    expect(programMark(ran)).toEqual({ ok: true, text: `✅ team program \`revenue-by-category\` v1, approved by Alice on ${v.approvedAt.slice(0, 10)}` });
    const start = events.find((e) => e.type === 'program');
    expect(start).toMatchObject({ name: 'revenue-by-category', version: 1, params: [{ name: 'CATEGORY', value: '"Kitchen"', given: true }, { name: 'MIN_UNITS', value: '0', given: false }, { name: 'SHOW_ALL', value: 'False', given: false }] });
    expect((await store.getRun(c, ran.id))!.program?.name).toBe('revenue-by-category');

    // defaults; and a second save is v2
    const again = await agent.runProgram(c, await agent.programs.prepare(c, 'revenue-by-category', 'SHOW_ALL=yes MIN_UNITS=2'), {});
    expect(again.attempts[0]!.result!.stdout.trim()).toBe('revenue Garden: 35.00');
    expect(fake.requests).toHaveLength(0);
    const v2 = await agent.programs.save(c, again.id, 'revenue-by-category', { id: 'U3' });
    expect(v2.versions.map((x) => x.version)).toEqual([1, 2]);
  });

  it('says files that do not fit before anything runs, and a reply adapts the program as usual', async () => {
    const c = channel();
    await savedProgram(c);
    fake.requests.length = 0;
    const events: AgentEvent[] = [];
    const renamed = file('sales.csv', 'category,qty,unit_price\nGarden,2,10.00\n');
    const ran = await agent.runProgram(c, await agent.programs.prepare(c, 'revenue-by-category'), { inputFiles: [renamed], onEvent: (e) => events.push(e) });
    expect(fake.requests).toHaveLength(0);
    expect(ran.status).toBe('failed');
    expect(ran.attempts[0]!.result).toBeUndefined(); // nothing ran
    expect(events.some((e) => e.type === 'executing')).toBe(false);
    const misfit = events.find((e) => e.type === 'program_misfit');
    expect(misfit).toMatchObject({ misfits: ['sales.csv has no column "units" (its columns: "category", "qty", "unit_price")'] });
    expect(ran.error).toContain('the files do not fit team program `revenue-by-category` v1');
    expect(programMark(ran)?.text).toBe('❌ team program `revenue-by-category` v1 was not run: its files do not fit what it was saved with');

    // a missing file and a changed type
    const typed = await agent.runProgram(c, await agent.programs.prepare(c, 'revenue-by-category'), { inputFiles: [file('other.csv', 'a\n1\n')] });
    expect(typed.program?.misfits).toEqual([expect.stringMatching(/^the file sales\.csv is missing \(the program reads it: /)]);
    const strings = await agent.runProgram(c, await agent.programs.prepare(c, 'revenue-by-category'), { inputFiles: [file('sales.csv', 'category,units,unit_price\nGarden,two,10.00\n')] });
    expect(strings.program?.misfits).toEqual(['the column "units" of sales.csv holds str values now; it held int when the program was saved']);

    // the reply improves it as usual (an LLM call), and the mark is the agent's afterwards
    const improved = await agent.improve(ran, 'the units column is now called qty');
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(improved.attempts.length).toBe(2);
    expect(programMark(improved)).toBeUndefined();
  });

  it('refuses an unknown program, an unknown parameter and a value of another type, saying what and an example', async () => {
    const c = channel();
    await savedProgram(c);
    await expect(agent.programs.prepare(c, 'nothing')).rejects.toThrow('No team program `nothing` in this channel; its programs are `revenue-by-category`.');
    await expect(agent.programs.prepare(c, 'revenue-by-category', 'REGION=EU')).rejects.toThrow(
      '`revenue-by-category` has no parameter "REGION": its parameters are CATEGORY (str, default "Garden"), MIN_UNITS (int, default 0), SHOW_ALL (bool, default False).',
    );
    const bad = agent.programs.prepare(c, 'revenue-by-category', 'MIN_UNITS=two');
    await expect(bad).rejects.toBeInstanceOf(ParameterError);
    await expect(agent.programs.prepare(c, 'revenue-by-category', 'MIN_UNITS=two')).rejects.toThrow('MIN_UNITS takes a whole number (int); "two" was not read as a number. For example: MIN_UNITS=1');
    await expect(agent.programs.prepare(c, 'revenue-by-category', 'SHOW_ALL=maybe')).rejects.toThrow(/SHOW_ALL takes true or false \(bool\); "maybe" was read as neither true nor false\. For example: SHOW_ALL=true/);
    await expect(agent.programs.prepare(c, 'revenue-by-category', 'MIN_UNITS')).rejects.toThrow('"MIN_UNITS" is not a parameter: write name=value, e.g. REGION=EU');
    // a run that failed cannot be saved
    const failed = await store.getRun(c, (await agent.run(c, 'x', { inputFiles: [] })).id);
    expect(failed!.status).toBe('failed');
    await expect(agent.programs.save(c, failed!.id, 'broken', { id: 'U1' })).rejects.toThrow(/Only a run that ran with an answer can be saved as a team program/);
  });
});
