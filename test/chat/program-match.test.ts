/**
 * A request in other words that a team program of the channel answers (src/programs/match.ts, run
 * by the one run lifecycle: src/chat/run-job.ts): the program runs at once with the values the
 * request sets, with one short LLM call and none for code, the thread names it, and "Write a new
 * program" takes the usual path; a request it does not answer never runs it. Real agent, sandbox and
 * SQLite history; the fake LLM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import type { FakeOpenAi } from '../fakes/openai-server.js';
import { runInThread, type RunJobDeps } from '../../src/chat/run-job.js';
import { recordingThread, startRunJobWorld, type RunJobWorld } from '../helpers/recording-thread.js';
import { choicesOf, NEW_PROGRAM_CHOICE, NEW_PROGRAM_FEEDBACK, ranMatchedProgram } from '../../src/chat/settle-view.js';
import { CONFIRM_SYSTEM } from '../../src/programs/match.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;
const CONV = 'test:T:C1';

describe('a team program found for a request in other words', () => {
  let world: RunJobWorld;
  let llm: FakeOpenAi;
  let app: App;
  let deps: RunJobDeps;
  const NO_HOOKS = { setThread: async () => undefined, ending: async () => undefined };
  let warnings: string[];
  const isConfirm = (i: number) => llm.requests[i]!.messages[0]!.content === CONFIRM_SYSTEM;

  beforeAll(async () => {
    world = await startRunJobWorld('program-match-');
    ({ llm, app, deps, warnings } = world);
    // the team's program: a finished run, saved by Alice
    llm.enqueue(py('REGION = "EU"\nWEEKS = 1\nprint("weekly revenue of", REGION, "over", WEEKS, "weeks:", 42 * WEEKS)'));
    const run = await runInThread(deps, recordingThread('t-saved'), { conversation: CONV, userId: 'U1', request: { kind: 'run', requirement: 'weekly revenue for the EU region' }, job: NO_HOOKS });
    await app.agent.programs.save(CONV, run!.id, 'weekly-revenue', { id: 'U1', name: 'Alice' });
  }, 90_000);

  afterAll(() => world?.close());

  it('runs at once with the values the request sets: one short LLM call, none for code; the thread names the program', async () => {
    const asked = llm.requests.length;
    llm.enqueue('{"match": true, "params": {"REGION": "US", "WEEKS": 4}}');
    const thread = recordingThread('t-match');
    const run = await runInThread(deps, thread, { conversation: CONV, userId: 'U2', request: { kind: 'run', requirement: 'How much revenue did the US region make over the past 4 weeks?' }, job: NO_HOOKS });
    expect(llm.requests.length).toBe(asked + 1);
    expect(isConfirm(asked)).toBe(true);
    expect(run?.status).toBe('success');
    expect(run?.requirement).toBe('How much revenue did the US region make over the past 4 weeks?');
    expect(run?.program).toMatchObject({ name: 'weekly-revenue', version: 1, approvedByName: 'Alice', matched: true, params: { REGION: 'US', WEEKS: 4 } });
    expect(thread.posts).toContain('result:1:weekly revenue of US over 4 weeks: 168');
    expect(thread.posts.some((p) => p.startsWith('notice:🧩 This looks like team program `weekly-revenue` v1, approved by Alice on '))).toBe(true);
    expect(choicesOf(run!).map((c) => c.id)).toContain(NEW_PROGRAM_CHOICE);
  }, 60_000);

  it('"Write a new program" takes the usual path: the LLM writes a program for the request, and the choice is gone', async () => {
    llm.enqueue('{"match": true, "params": {}}');
    const thread = recordingThread('t-new');
    const run = await runInThread(deps, thread, { conversation: CONV, userId: 'U2', request: { kind: 'run', requirement: 'the weekly revenue of the EU region, but net of refunds' }, job: NO_HOOKS });
    expect(ranMatchedProgram(run!)).toBe(true);
    const asked = llm.requests.length;
    llm.enqueue(py('print("net weekly revenue of EU: 40")'));
    const improved = await runInThread(deps, thread, { conversation: CONV, userId: 'U2', request: { kind: 'improve', runId: run!.id, feedback: NEW_PROGRAM_FEEDBACK }, job: NO_HOOKS });
    expect(llm.requests.length).toBe(asked + 1);
    const prompt = JSON.stringify(llm.requests[asked]!.messages);
    expect(prompt).toContain('but net of refunds');
    expect(prompt).toContain('Write a new program for the request');
    expect(improved?.status).toBe('success');
    expect(thread.posts).toContain('result:2:net weekly revenue of EU: 40');
    expect(ranMatchedProgram(improved!)).toBe(false);
    expect(choicesOf(improved!).map((c) => c.id)).not.toContain(NEW_PROGRAM_CHOICE);
  }, 60_000);

  it('a request like no program costs no matching call; one the LLM says is not this takes the usual path', async () => {
    let asked = llm.requests.length;
    llm.enqueue(py('print([1, 4, 9, 16, 25])'));
    const other = await runInThread(deps, recordingThread('t-other'), { conversation: CONV, userId: 'U2', request: { kind: 'run', requirement: 'print the first 5 squares' }, job: NO_HOOKS });
    expect(llm.requests.length).toBe(asked + 1);
    expect(isConfirm(asked)).toBe(false);
    expect(other?.program).toBeUndefined();
    asked = llm.requests.length;
    llm.enqueue('{"match": false}', py('print("revenue per customer: 3")'));
    const notThis = await runInThread(deps, recordingThread('t-notthis'), { conversation: CONV, userId: 'U2', request: { kind: 'run', requirement: 'weekly revenue per customer of the EU region' }, job: NO_HOOKS });
    expect(llm.requests.length).toBe(asked + 2);
    expect(isConfirm(asked)).toBe(true);
    expect(notThis?.program).toBeUndefined();
    expect(notThis?.attempts[0]?.result?.stdout.trim()).toBe('revenue per customer: 3');
  }, 60_000);
});
