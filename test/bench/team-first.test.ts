/**
 * bench/team `--first`: how a first request is scored. The real agent (openai client against the
 * fake OpenAI server, the real sandbox, a real SQLite store) answers a team case: the scripted
 * teammate clicks a right candidate only when the answer shown is wrong or unconfirmed, the click
 * is the real settle (the run ends ✅ with that candidate's output), and a wrong answer both
 * programs agree on stays wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';
import { TEAM_CASES } from '../../bench/team/cases.js';
import { askFirst, formatFirstReport } from '../../bench/team/first.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const c = TEAM_CASES.find((x) => x.id === 'revenue-per-category')!;
const NAIVE = py(`print(${JSON.stringify(c.naive)})`);
const RIGHT = py(c.program);
const isIndependent = (r: FakeRequest) => r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false;

/** What the fake model writes: the attempt's program and the independent programs'. */
let programs = { attempt: NAIVE, independent: RIGHT };
let fake: FakeOpenAi;
let store: KeyvHistoryStore;
let agent: Agent;
const dir = tempDir('team-first-');

beforeAll(async () => {
  fake = await startFakeOpenAi({
    replies: [],
    respond: (req) => (isChecksRequest(req) ? '# no checks' : isIndependent(req) ? programs.independent : programs.attempt),
  });
  store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
  agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 20 } }),
    store,
    artifactRoot: join(dir, 'artifacts'),
    maxRetries: 0,
    verify: 'checks',
  });
});
afterAll(async () => {
  await store?.close();
  await fake?.close();
});

describe('first requests and one click', () => {
  it('a wrong attempt against two right independent programs: their answer is shown ⚠️ (two against one), the teammate confirms it in one click and the run ends ✅ right', async () => {
    programs = { attempt: NAIVE, independent: RIGHT };
    const r = await askFirst(agent, c);
    expect(r.status).toBe('unverified');
    expect(r.candidates).toBeGreaterThanOrEqual(2);
    expect(r.reason).toBe(''); // the answer shown before the click is already the two programs' right one
    expect(r.outcome).toBe('right-one-click');
    const stored = (await store.getRun(r.conversationId, r.runId))!;
    expect(stored.status).toBe('success');
    expect(stored.settlement).toMatchObject({ by: { id: 'teammate' }, choice: r.clicked });
    expect(c.check(stored.attempts.at(-1)!.result!.stdout).pass).toBe(true);
  }, 120_000);

  it('every program reads it the plain way: they agree, the run ends ✅ and it is scored wrong with no click', async () => {
    programs = { attempt: NAIVE, independent: NAIVE };
    const r = await askFirst(agent, c);
    expect(r).toMatchObject({ outcome: 'wrong', status: 'success', candidates: 0 });
    expect(r.clicked).toBeUndefined();
  }, 120_000);

  it('every program reads it the team way: right with no click; the report counts both kinds', async () => {
    programs = { attempt: RIGHT, independent: RIGHT };
    const right = await askFirst(agent, c);
    expect(right).toMatchObject({ outcome: 'right', status: 'success' });
    const report = formatFirstReport('fake', 'checks', 0, [right, { ...right, id: 'x', outcome: 'right-one-click', clicked: 2 }, { ...right, id: 'y', outcome: 'wrong' }]);
    expect(report).toContain('end right after at most one click: 2/3 (66.7%)');
  }, 120_000);
});
