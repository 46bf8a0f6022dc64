/**
 * The one run lifecycle (src/chat/run-job.ts) on a minimal platform of the test's own (a thread that
 * records what it is shown), with the real agent, sandbox and SQLite history and the fake LLM: a new
 * run's thread is linked to its run before the agent is called, a reply sent in that first moment
 * (before the run is stored) is a turn on that run, and a reply in a thread the app made a moment ago
 * waits for the thread's link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import type { FakeOpenAi } from '../fakes/openai-server.js';
import { runInThread, type RunJobDeps } from '../../src/chat/run-job.js';
import { recordingThread, startRunJobWorld, type RunJobWorld } from '../helpers/recording-thread.js';
import type { ThreadRef } from '../../src/chat/thread-ref.js';
import { linkedRunId } from '../../src/chat/thread-link.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;
const CONV = 'test:T:C1';

describe('the run lifecycle', () => {
  let world: RunJobWorld;
  let llm: FakeOpenAi;
  let app: App;
  let deps: RunJobDeps;
  const NO_HOOKS = { setThread: async () => undefined, ending: async () => undefined };
  let warnings: string[];

  beforeAll(async () => {
    world = await startRunJobWorld('run-job-');
    ({ llm, app, deps, warnings } = world);
  }, 60_000);

  afterAll(() => world?.close());

  it('links a new run\'s thread before the agent is called, under the id the run is then stored with', async () => {
    llm.enqueue(py('print("hi")'));
    let linkedBeforeCall: string | undefined;
    let storedBeforeCall = true;
    const thread = recordingThread('1700000000.000100', async () => {
      linkedBeforeCall = await app.store.threadRunId(CONV, '1700000000.000100');
      storedBeforeCall = (await app.store.findRunByThread(CONV, '1700000000.000100')) !== undefined;
    });
    const refs: ThreadRef[] = [];
    let postsWhenEnding: string[] | undefined;
    const job = { setThread: async (r: ThreadRef) => void refs.push(r), ending: async () => void (postsWhenEnding = [...thread.posts]) };
    const run = await runInThread(deps, thread, { conversation: CONV, userId: 'U1', request: { kind: 'run', requirement: 'print hi' }, job });
    expect(run?.status).toBe('success');
    expect(storedBeforeCall).toBe(false);
    expect(linkedBeforeCall).toBe(run!.id);
    expect(refs).toEqual([{ channel: 'C1', thread: '1700000000.000100', runId: run!.id }]);
    expect((await app.store.findRunByThread(CONV, '1700000000.000100'))?.id).toBe(run!.id);
    expect(thread.posts).toContain('result:1:hi');
    expect(thread.posts.at(-1)).toBe('final:success:1');
    expect(thread.endedWith).toEqual(['success']);
    // the job frees its user's slot before the last message: whoever reads "Done" may start another job at once
    expect(postsWhenEnding).toContain('result:1:hi');
    expect(postsWhenEnding).not.toContain('final:success:1');
  }, 60_000);

  it('a reply in the thread\'s first moment, before the run is stored, is a turn on that run once it is', async () => {
    llm.enqueue(py('print("first")'), py('print("second")'));
    const key = '1700000000.000200';
    let reply: Promise<unknown> | undefined;
    const replyThread = recordingThread(key);
    // the reply arrives while the new run's files download: its thread is linked, its run not yet stored
    const runThread = recordingThread(key, async () => {
      const runId = await app.store.threadRunId(CONV, key);
      expect(runId).toBeDefined();
      expect(await app.store.getRun(CONV, runId!)).toBeUndefined();
      reply = runInThread(deps, replyThread, { conversation: CONV, userId: 'U2', request: { kind: 'improve', runId: runId!, feedback: 'print second' }, job: NO_HOOKS });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const run = await runInThread(deps, runThread, { conversation: CONV, userId: 'U1', request: { kind: 'run', requirement: 'print first' }, job: NO_HOOKS });
    expect(run?.status).toBe('success');
    const improved = (await reply) as { id: string; status: string; attempts: unknown[] } | undefined;
    expect(improved?.id).toBe(run!.id);
    expect(improved?.status).toBe('success');
    expect(improved?.attempts).toHaveLength(2);
    expect(replyThread.posts).toContain('result:2:second');
    // the offer to remember the reply may follow the final message (a reply that changed an answered run: src/memory/offer.ts)
    expect(replyThread.posts.filter((p) => !p.startsWith('notice:📌')).at(-1)).toBe('final:success:2');
    expect(JSON.stringify(llm.requests.at(-1)!.messages)).toContain('print second');
  }, 60_000);

  it('a reply in a thread the app made a moment ago, not linked yet, waits for its link; any other thread is looked up once', async () => {
    const young = { madeByApp: true, madeAt: Date.now() };
    setTimeout(() => void app.store.linkThread(CONV, 'young', 'run-young'), 300);
    const started = Date.now();
    expect(await linkedRunId(app.store, CONV, 'young', young)).toBe('run-young');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // a thread someone else made, or one made long ago, is no run's when it has no link
    const quick = Date.now();
    expect(await linkedRunId(app.store, CONV, 'theirs', { madeByApp: false, madeAt: Date.now() })).toBeUndefined();
    expect(await linkedRunId(app.store, CONV, 'old', { madeByApp: true, madeAt: Date.now() - 3_600_000 })).toBeUndefined();
    expect(await linkedRunId(app.store, CONV, 'unknown-age', { madeByApp: true, madeAt: undefined })).toBeUndefined();
    expect(Date.now() - quick).toBeLessThan(1000);
  });

  it('a turn on a run that is not in the history ends with a failure in the thread, not in silence', async () => {
    const thread = recordingThread('1700000000.000300');
    const started = Date.now();
    const run = await runInThread({ ...deps, runAppearsWithinMs: 1000 }, thread, { conversation: CONV, userId: 'U1', request: { kind: 'rerun', runId: 'no-such-run' }, job: NO_HOOKS });
    expect(run).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(thread.posts.at(-1)).toMatch(/^failure:.*no-such-run is not in this channel's history/);
    expect(thread.endedWith).toEqual([`none:run no-such-run is not in this channel's history`]);
  }, 60_000);
});
