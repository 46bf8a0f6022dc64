/**
 * The agent and the tools, per conversation (real Agent, fake OpenAI server, real sandbox): a Slack
 * channel listed in `conversations:` gets the tool described and its calls recorded (a `tool_calls`
 * event, kept with the attempt); a channel not listed is told nothing and its program reaches nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent } from '../../src/agent/run/index.js';
import { parseConfig } from '../../src/config/load.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { Toolbox } from '../../src/tools/toolbox.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { makeExecutor, tempDir } from '../sandbox/helpers.js';
import { targetServer } from './helpers.js';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const ALLOWED = 'slack:T01:C0ALLOWED';
const OTHER = 'slack:T01:C0OTHER';

describe('the agent with tools per conversation', () => {
  it('an allowed channel is told about the host and its calls are recorded; another channel gets neither', async () => {
    const api = await targetServer((_req, res) => res.end('42 signups'));
    const code = `\`\`\`python\nimport urllib.request\ntry:\n    print(urllib.request.urlopen("${api.url}/signups").read().decode())\nexcept Exception as e:\n    print("no access:", type(e).__name__)\n\`\`\``;
    fake = await startFakeOpenAi({ respond: () => code });
    const store = new KeyvHistoryStore(new Map());
    const tools = new Toolbox(parseConfig({ tools: { http: { allow: [api.host], conversations: ['C0ALLOWED'] } } }, {}).tools);
    const agent = new Agent({
      llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
      executor: makeExecutor({ warmPool: 1, spareSlots: 0 }),
      store,
      artifactRoot: tempDir('agent-tools-'),
      maxRetries: 0,
      verify: 'off',
      tools,
    });

    const events: AgentEvent[] = [];
    const allowed = await agent.run(ALLOWED, 'how many signups yesterday?', { onEvent: (e) => events.push(e) });
    expect(allowed.attempts[0]!.result!.stdout).toBe('42 signups\n');
    expect(fake.requests[0]!.messages[0]!.content).toContain(`HTTP: the program may fetch these hosts, and only these: ${api.host}.`);
    const calls = events.find((e) => e.type === 'tool_calls');
    expect(calls).toMatchObject({ type: 'tool_calls', runId: allowed.id, attempt: 1, calls: [{ tool: 'http', ok: true, summary: expect.stringMatching(/^GET 127\.0\.0\.1:\d+\/signups → 200, 10 B, \d+ ms$/) }] });
    expect(events.findIndex((e) => e.type === 'tool_calls')).toBeLessThan(events.findIndex((e) => e.type === 'executed'));
    expect((await store.getRun(ALLOWED, allowed.id))!.attempts[0]!.result!.toolCalls).toHaveLength(1);

    const other = await agent.run(OTHER, 'how many signups yesterday?');
    expect(fake.requests.at(-1)!.messages[0]!.content).not.toContain('HTTP:');
    expect(fake.requests.at(-1)!.messages[0]!.content).toContain('no network, no package installs');
    expect(other.attempts[0]!.result!.stdout).toBe('no access: URLError\n');
    expect(other.attempts[0]!.result!.toolCalls).toBeUndefined();
    expect(api.seen).toHaveLength(1);
  }, 60_000);

  it('the calls of an independent program that checks the answer are shown too, marked as its', async () => {
    const api = await targetServer((_req, res) => res.end('42'));
    const code = `\`\`\`python\nimport urllib.request\nprint(urllib.request.urlopen("${api.url}/signups").read().decode())\n\`\`\``;
    fake = await startFakeOpenAi({ respond: () => code });
    const agent = new Agent({
      llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
      executor: makeExecutor({ warmPool: 1, spareSlots: 0 }),
      store: new KeyvHistoryStore(new Map()),
      artifactRoot: tempDir('agent-tools-'),
      maxRetries: 0,
      verify: 'checks',
      tools: new Toolbox(parseConfig({ tools: { http: { allow: [api.host], conversations: ['C0ALLOWED'] } } }, {}).tools),
    });
    const events: AgentEvent[] = [];
    // a run with an input file: its answer is compared with an independent program's
    const run = await agent.run(ALLOWED, 'how many signups are listed in days.txt and in the API?', {
      inputFiles: [{ name: 'days.txt', content: Buffer.from('mon\ntue\n') }],
      onEvent: (e) => events.push(e),
    });
    expect(run.agreement?.outcome).toBe('agreed');
    const shown = events.filter((e) => e.type === 'tool_calls');
    expect(shown.map((e) => e.type === 'tool_calls' && e.independent)).toEqual([undefined, 1]);
    expect(api.seen).toHaveLength(2); // every request that reached the server was shown
  }, 60_000);
});

