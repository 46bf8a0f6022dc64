/**
 * A run's workspace across turns, end to end: the real openai client against the fake OpenAI
 * server, the real sandbox, the history store on a real redis-server (two stores on it stand for two
 * workers on two hosts). Cases W1 (the file arrives after the run asked for it) and W2 (files one
 * turn wrote are inputs of the next), the repeated-program rule, continuing attempt numbers, and one
 * turn at a time per run.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { startRedis, type TestServer } from '../helpers/servers.js';
import { isChecksRequest } from '../helpers/verify-replies.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });

const COUNT_LINES = 'print(sum(1 for _ in open("inventory.csv")))';
const DISTINCT_SKU = 'import csv\nrows = list(csv.DictReader(open("inventory.csv")))\nprint(len({r["sku"] for r in rows}))';
const INVENTORY = 'sku,qty\na,1\nb,2\na,3\n';

let redis: TestServer;
let fake: FakeOpenAi | undefined;
const stores: KeyvHistoryStore[] = [];
let n = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await Promise.all(stores.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await redis?.stop();
});

/** The fake answers each program request with the next of `programs` (the last one repeated); checks requests get none. */
async function llm(programs: string[]): Promise<FakeOpenAi> {
  let next = 0;
  fake = await startFakeOpenAi({
    respond: (req: FakeRequest) => (isChecksRequest(req) ? '```checks\n# nothing to check\n```' : py(programs[Math.min(next++, programs.length - 1)]!)),
  });
  return fake;
}

/** An agent (a "worker") with its own store connection to the shared redis and its own data dir. */
async function worker(server: FakeOpenAi, options: { turnWaitMs?: number } = {}) {
  const store = await KeyvHistoryStore.open(redis.url);
  stores.push(store);
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: server.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store,
    artifactRoot: tempDir('workspace-artifacts-'),
    maxRetries: 2,
    verify: 'off',
    ...options,
  });
  const events: AgentEvent[] = [];
  return { agent, store, events, onEvent: (e: AgentEvent) => events.push(e) };
}

const conversation = () => `test:ws${++n}:${Date.now()}`;
const codeRequests = (server: FakeOpenAi) => server.requests.filter((r) => !isChecksRequest(r));

describe('a run is a workspace', () => {
  it('W1: the file given with an improve runs the same program; a later improve and a re-run on another worker find it', async () => {
    const server = await llm([COUNT_LINES, COUNT_LINES, DISTINCT_SKU]);
    const a = await worker(server);
    const conv = conversation();

    const first = await a.agent.run(conv, 'count the lines of inventory.csv', { onEvent: a.onEvent });
    expect(first.status).toBe('failed');
    expect(first.error).toContain('attach inventory.csv');
    expect(first.attempts).toHaveLength(1);

    // the reply with the file: the model writes the same program, which now runs
    a.events.length = 0;
    const second = await a.agent.improve(first, 'here it is', { inputFiles: [file('inventory.csv', INVENTORY)], onEvent: a.onEvent });
    expect(second.status).toBe('success');
    expect(second.attempts.map((x) => x.index)).toEqual([1, 2]);
    expect(second.attempts[1]!.code).toBe(COUNT_LINES);
    expect(second.attempts[1]!.repeatOf).toBeUndefined();
    expect(second.attempts[1]!.result?.stdout.trim()).toBe('4');
    expect(a.events.some((e) => e.type === 'repeated')).toBe(false);
    // attempt numbers continue: the improve's first attempt is attempt 2 of at most 4
    expect(a.events.find((e) => e.type === 'generating')).toMatchObject({ attempt: 2, lastAttempt: 4, trigger: 'feedback' });
    expect(a.events.find((e) => e.type === 'workspace')).toMatchObject({ files: [{ name: 'inventory.csv', bytes: INVENTORY.length, origin: { kind: 'input', turn: 2 } }] });

    // a later improve without the file finds it, and the model is told it is there
    a.events.length = 0;
    const third = await a.agent.improve(second, 'and the number of distinct sku values', { onEvent: a.onEvent });
    expect(third.status).toBe('success');
    // the file is listed, not profiled again in the thread
    expect(a.events.some((e) => e.type === 'workspace')).toBe(true);
    expect(a.events.some((e) => e.type === 'profiled')).toBe(false);
    expect(third.attempts.at(-1)!.result?.stdout.trim()).toBe('2');
    const prompt = codeRequests(server).at(-1)!.messages[1]!.content;
    expect(prompt).toContain('inventory.csv (20 bytes; given by the user in turn 2)');
    expect(prompt).toMatch(/--- inventory\.csv: .*CSV/);

    // a re-run by another worker (own store connection, own data dir) restores the workspace from the store
    const b = await worker(server);
    const stored = (await b.store.getRun(conv, first.id))!;
    const rerun = await b.agent.execute(stored, { onEvent: b.onEvent });
    expect(rerun.status).toBe('success');
    expect(rerun.attempts.at(-1)).toMatchObject({ trigger: 'rerun', index: 4 });
    expect(rerun.attempts.at(-1)!.result?.stdout.trim()).toBe('2');
  });

  it('W2: a file one turn wrote is an input of the next; a newer file of the same name replaces it and says so', async () => {
    const write = 'open("clean.csv", "w").write("name,value\\nx,1\\ny,5\\n")\nprint("wrote clean.csv")';
    const sum = 'import csv\nrows = list(csv.reader(open("clean.csv")))[1:]\nprint(sum(int(r[1]) for r in rows))';
    const rewrite = 'open("clean.csv", "w").write("name,value\\nx,10\\n")\nprint("rewrote")';
    const server = await llm([write, sum, rewrite]);
    const a = await worker(server);
    const conv = conversation();
    const first = await a.agent.run(conv, 'clean the data into clean.csv', { onEvent: a.onEvent });
    expect(first.status).toBe('success');
    expect((await a.store.getWorkspace(conv, first.id)).files).toEqual([
      expect.objectContaining({ name: 'clean.csv', origin: expect.objectContaining({ kind: 'written', attempt: 1, turn: 1 }) }),
    ]);

    const second = await a.agent.improve(first, 'sum the second column of clean.csv', { onEvent: a.onEvent });
    expect(second.status).toBe('success');
    expect(second.attempts.at(-1)!.result?.stdout.trim()).toBe('6');
    expect(codeRequests(server).at(-1)!.messages[1]!.content).toContain('clean.csv (19 bytes; written by the program of attempt 1)');

    a.events.length = 0;
    const third = await a.agent.improve(second, 'keep only x', { onEvent: a.onEvent });
    expect(third.status).toBe('success');
    expect(a.events.find((e) => e.type === 'workspace_replaced')).toMatchObject({
      file: { name: 'clean.csv', bytes: 16, origin: { kind: 'written', attempt: 3 } },
      previous: { name: 'clean.csv', bytes: 19 },
    });
    const files = await a.store.readWorkspace(conv, first.id);
    expect(files.map((f) => [f.name, f.content.toString()])).toEqual([['clean.csv', 'name,value\nx,10\n']]);
  });

  it('the same code with the same workspace is still not run again', async () => {
    const server = await llm([COUNT_LINES]);
    const a = await worker(server);
    const run = await a.agent.run(conversation(), 'count the lines of stock.csv', { onEvent: a.onEvent });
    expect(run.status).toBe('failed');
    // the model repeats the program in the same turn, with the same (empty) workspace: not executed
    const again = await a.agent.improve(run, undefined, { onEvent: a.onEvent });
    expect(again.attempts[1]).toMatchObject({ repeatOf: 1 });
    expect(again.attempts[1]!.result).toBeUndefined();
    expect(a.events.some((e) => e.type === 'repeated' && e.attempt === 2 && e.repeatOf === 1)).toBe(true);
  });

  it('a second turn on a run waits for the first (another worker), says it is queued, then continues the numbering', async () => {
    const slow = 'import time\ntime.sleep(1.5)\nprint("slow")';
    const server = await llm(['print("first")', slow, 'print("second")']);
    const a = await worker(server);
    const b = await worker(server);
    const conv = conversation();
    const first = await a.agent.run(conv, 'print slow', {});
    const seen: string[] = [];
    const tag = (who: string) => (e: AgentEvent) => {
      if (e.type === 'queued' || e.type === 'done' || e.type === 'generating') seen.push(`${who}:${e.type}`);
    };
    const runA = a.agent.improve(first, 'once more', { onEvent: tag('a') });
    await new Promise((r) => setTimeout(r, 300));
    const storedForB = (await b.store.getRun(conv, first.id))!;
    const runB = b.agent.improve(storedForB, 'now print second', { onEvent: tag('b') });
    const [afterA, afterB] = await Promise.all([runA, runB]);
    expect(afterA.status).toBe('success');
    expect(afterB.error).toBeUndefined();
    expect(afterB.status).toBe('success');
    expect(seen.indexOf('b:queued')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('b:generating')).toBeGreaterThan(seen.indexOf('a:done'));
    // b read the run again after a's turn: its attempt is 3, after a's 2
    expect(afterB.attempts.map((x) => x.index)).toEqual([1, 2, 3]);
    expect(afterB.attempts[2]!.result?.stdout.trim()).toBe('second');
  });

  it('a wait that ends before the other turn does changes nothing and says why', async () => {
    const slow = 'import time\ntime.sleep(2)\nprint("slow")';
    const server = await llm([slow]);
    const a = await worker(server);
    const b = await worker(server, { turnWaitMs: 500 });
    const conv = conversation();
    let executing!: () => void;
    const started = new Promise<void>((resolve) => (executing = resolve));
    const going = a.agent.run(conv, 'print slow', { onEvent: (e) => e.type === 'executing' && executing() });
    await started; // the first turn holds the run's lease while its program sleeps
    const [stored] = await b.store.listRuns(conv, 1);
    await expect(b.agent.improve(stored!, 'faster', {})).rejects.toThrow(/still going after 1 s; nothing was done/);
    const done = await going;
    expect(done.status).toBe('success');
    expect(done.attempts).toHaveLength(1);
  });

  it('files past a workspace bound end the turn with the bound named, and nothing is added', async () => {
    const server = await llm(['print(1)']);
    const a = await worker(server);
    const agent = new Agent({
      llm: new OpenAiProvider({ baseUrl: server.url, model: 'fake-model', maxRetries: 0 }),
      executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
      store: a.store,
      artifactRoot: tempDir('workspace-artifacts-'),
      verify: 'off',
      workspaceLimits: { maxFiles: 1, maxBytes: 1000, maxConversationBytes: 10_000 },
    });
    const run = await agent.run(conversation(), 'print 1', { inputFiles: [file('a.txt', 'a'), file('b.txt', 'b')] });
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/2 files; the limit is 1 \(workspace\.max_files\)/);
    expect(await a.store.getWorkspace(run.conversationId, run.id)).toEqual({ files: [] });
  });
});
