/**
 * Definitions as code end to end in the agent (`memory.definition_helpers`): the real openai client
 * against the fake OpenAI server, the real sandbox, a real SQLite store. A run given a definition
 * writes its helper once (one LLM call), checks it on the run's files in the sandbox (a broken one
 * gets one fix, then the run reads the sentence alone), shows it (`definition_helper`), and its
 * programs import it; a 👍 of a run whose program used it keeps it with the definition, and the
 * next run gets it with no helper call. Off, runs are given sentences only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent, DefinitionHelperEvent } from '../../src/agent/run/events.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';
import { HELPER_PROMPT } from '../../src/memory/helpers.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });
const SALES = file('sales.csv', 'category,units,unit_price,sales\nGarden,2,10.00,30.00\nKitchen,3,5.00,20.00\nGarden,1,4.00,6.00\n');
const DEFINITION = 'revenue = units × unit_price (never the sales column)';
/** The helper the fake model writes, with an example call under it that must not run at import. */
const HELPER = "import pandas as pd\n\ndef revenue(df):\n    \"\"\"the revenue of each row\"\"\"\n    return df['units'] * df['unit_price']\n\nprint(revenue(pd.read_csv('sales.csv')))";
const BROKEN_HELPER = "def revenue(df):\n    return df['price'] * df['qty']";
const USES_HELPER = "import pandas as pd\nfrom team import revenue\ndf = pd.read_csv('sales.csv')\nfor c, v in revenue(df).groupby(df['category']).sum().items():\n    print(f'{c}: {v:.2f}')";
const PLAIN = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nfor c, v in df.groupby('category')['sales'].sum().items():\n    print(f'{c}: {v:.2f}')";

const isHelperRequest = (r: FakeRequest) => r.messages[0]?.content === HELPER_PROMPT;
const isAttempt = (r: FakeRequest) => !isHelperRequest(r) && !isChecksRequest(r);
const firstUser = (r: FakeRequest) => r.messages.find((m) => m.role === 'user')?.content ?? '';

/** What the fake model writes for a helper request (by how many helper calls came before), and for an attempt. */
let helperReplies: string[] = [HELPER];
let attemptReply = USES_HELPER;
let fake: FakeOpenAi;
let store: KeyvHistoryStore;
const dir = tempDir('definition-helpers-');

function agentWith(helpers: boolean): Agent {
  return new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store,
    artifactRoot: join(dir, 'artifacts'),
    maxRetries: 0,
    memory: { definitionHelpers: helpers },
  });
}

beforeAll(async () => {
  fake = await startFakeOpenAi({
    replies: [],
    respond: (req) => {
      if (isChecksRequest(req)) return '# no checks';
      if (isHelperRequest(req)) {
        const made = req.messages.filter((m) => m.role === 'assistant').length;
        return py(helperReplies[Math.min(made, helperReplies.length - 1)]!);
      }
      return py(attemptReply);
    },
  });
  store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
});
afterAll(async () => {
  await store?.close();
  await fake?.close();
});
afterEach(() => {
  fake.requests.length = 0;
  helperReplies = [HELPER];
  attemptReply = USES_HELPER;
});

let n = 0;
const channel = () => `test:helpers-${++n}-${Date.now()}`;

async function ask(agent: Agent, conversationId: string, files: InputFile[] = [SALES]) {
  const events: AgentEvent[] = [];
  const run = await agent.run(conversationId, 'How much money did each category bring in?', { inputFiles: files, onEvent: (e) => events.push(e) });
  const helperEvents = events.filter((e): e is DefinitionHelperEvent => e.type === 'definition_helper');
  const stdout = run.attempts.at(-1)?.result?.stdout ?? '';
  return { run, helperEvents, stdout, helperCalls: fake.requests.filter(isHelperRequest), attempts: fake.requests.filter(isAttempt) };
}

describe('definitions as code', () => {
  it('writes the helper once, checks it on the files, shows it, and the program imports it from team', async () => {
    const agent = agentWith(true);
    const c = channel();
    const def = await agent.memory!.remember(c, DEFINITION, 'U1');
    const r = await ask(agent, c);
    expect(r.helperCalls).toHaveLength(1);
    expect(firstUser(r.helperCalls[0]!)).toContain('revenue = units * unit_price');
    expect(firstUser(r.helperCalls[0]!)).toContain('category'); // the files' profile
    expect(r.helperEvents).toHaveLength(1);
    const shown = r.helperEvents[0]!;
    expect(shown).toMatchObject({ written: true, definition: { id: def.id }, helper: { name: 'revenue' } });
    expect(shown.helper!.checked).toBe('sales.csv: a number for each of 3 rows');
    expect(shown.helper!.code).not.toContain('print('); // the example call under it is not kept
    expect(firstUser(r.attempts[0]!)).toContain('`from team import revenue`, then revenue(df) returns the revenue of each row');
    expect(r.run.status).toBe('success');
    // 2×10 + 1×4 and 3×5, through the helper (the sales column would give 36 and 20)
    expect(r.stdout).toContain('Garden: 24.00');
    expect(r.stdout).toContain('Kitchen: 15.00');
    expect(r.run.memory!.definitions[0]!.helper).toMatchObject({ name: 'revenue', written: true, runId: r.run.id });
    // not in memory before a person approves it
    expect((await agent.memory!.list(c))[0]!.helper).toBeUndefined();
  });

  it('a 👍 of a run whose program used it keeps it with the definition; the next run gets it with no helper call', async () => {
    const agent = agentWith(true);
    const c = channel();
    const def = await agent.memory!.remember(c, DEFINITION, 'U1');
    const first = await ask(agent, c);
    const approved = await agent.approve(c, first.run.id, 'up', { id: 'U2', name: 'Bea' });
    expect(approved.helpers).toHaveLength(1);
    const live = (await agent.memory!.list(c)).filter((e) => e.kind === 'definition');
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ kind: 'definition', text: DEFINITION, addedBy: 'U1', helper: { name: 'revenue', approvedBy: 'U2', runId: first.run.id } });
    expect(live[0]!.id).toBe(approved.helpers![0]!.definitionId);
    expect(await agent.memory!.forgotten(c, def.id)).toMatchObject({ removedBy: 'U2' });
    // the approved example outlives the run's work dir: the helper is written into its program
    const example = (await agent.memory!.list(c)).find((e) => e.kind === 'example')!;
    expect(example.example!.code).not.toContain('from team import');
    expect(example.example!.code).toContain("def revenue(df):");
    fake.requests.length = 0;
    const next = await ask(agent, c);
    expect(next.helperCalls).toHaveLength(0);
    expect(next.helperEvents).toHaveLength(1);
    expect(next.helperEvents[0]).toMatchObject({ written: false, helper: { name: 'revenue', approvedBy: 'U2' } });
    expect(next.stdout).toContain('Garden: 24.00');
    // approving the next run again keeps nothing new: the helper was written once
    expect((await agent.approve(c, next.run.id, 'up', { id: 'U3' })).helpers).toBeUndefined();
  });

  it('a 👍 of a run whose program did not import the helper does not keep it', async () => {
    const agent = agentWith(true);
    const c = channel();
    await agent.memory!.remember(c, DEFINITION, 'U1');
    attemptReply = PLAIN;
    const r = await ask(agent, c);
    expect(r.helperEvents[0]!.helper).toBeDefined();
    expect((await agent.approve(c, r.run.id, 'up', { id: 'U2' })).helpers).toBeUndefined();
    expect((await agent.memory!.list(c)).find((e) => e.kind === 'definition')!.helper).toBeUndefined();
  });

  it('a helper that fails its check gets one fix with the error; fixed, it is kept for the run', async () => {
    const agent = agentWith(true);
    const c = channel();
    await agent.memory!.remember(c, DEFINITION, 'U1');
    helperReplies = [BROKEN_HELPER, HELPER];
    const r = await ask(agent, c);
    expect(r.helperCalls).toHaveLength(2);
    expect(r.helperCalls[1]!.messages.at(-1)!.content).toContain("on sales.csv: KeyError: 'price'");
    expect(r.helperEvents[0]).toMatchObject({ written: true, helper: { name: 'revenue' } });
    expect(r.stdout).toContain('Garden: 24.00');
  });

  it('a helper still failing after its fix: the thread says why and the run reads the sentence alone', async () => {
    const agent = agentWith(true);
    const c = channel();
    await agent.memory!.remember(c, DEFINITION, 'U1');
    helperReplies = [BROKEN_HELPER];
    attemptReply = PLAIN;
    const r = await ask(agent, c);
    expect(r.helperCalls).toHaveLength(2);
    expect(r.helperEvents[0]!.helper).toBeUndefined();
    expect(r.helperEvents[0]!.note).toContain("its check failed: on sales.csv: KeyError: 'price'");
    expect(firstUser(r.attempts[0]!)).toContain('revenue = units * unit_price');
    expect(firstUser(r.attempts[0]!)).not.toContain('from team import');
    expect(r.run.memory!.definitions[0]!.helper).toBeUndefined();
    expect(r.run.status).toBe('success');
  });

  it('a team.py the team gave wins: no helper is written or placed', async () => {
    const agent = agentWith(true);
    const c = channel();
    await agent.memory!.remember(c, DEFINITION, 'U1');
    attemptReply = "import team\nprint(team.WHO)";
    const r = await ask(agent, c, [SALES, file('team.py', "WHO = 'ours'\n")]);
    expect(r.helperCalls).toHaveLength(0);
    expect(r.helperEvents).toHaveLength(0);
    expect(r.stdout.trim()).toBe('ours');
  });

  it('off (the default): no helper call, and a helper kept in memory is not given', async () => {
    const on = agentWith(true);
    const c = channel();
    await on.memory!.remember(c, DEFINITION, 'U1');
    const first = await ask(on, c);
    await on.approve(c, first.run.id, 'up', { id: 'U2' });
    fake.requests.length = 0;
    attemptReply = PLAIN;
    const off = await ask(agentWith(false), c);
    expect(off.helperCalls).toHaveLength(0);
    expect(off.helperEvents).toHaveLength(0);
    expect(firstUser(off.attempts[0]!)).toContain('revenue = units * unit_price');
    expect(firstUser(off.attempts[0]!)).not.toContain('from team import');
    expect(off.run.memory!.definitions[0]!.helper).toBeUndefined();
  });
});
