/**
 * Schedules in embedded mode, end to end in one process: the timer scheduler over the store's
 * schedule records, each tick admitted like a person's request on the in-memory queue, run as a
 * team program by the real agent (an LLM that refuses every call: none is made) in the real
 * sandbox, posted through a recording outgoing port as a new thread. Covers: one post per tick;
 * the work gate (files unchanged → nothing; changed → posted); the result gate (a condition on the
 * printed value); a failing program posted once and paused after three with the pause said; the
 * catch-up at start (one run for the ticks missed, said in the post); the chat commands (nothing
 * half-saved on a refusal).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { IngressOnlyLlm } from '../../src/queue/ingress-llm.js';
import { MemoryJobQueue } from '../../src/chat/memory-queue.js';
import { Deliveries } from '../../src/chat/deliveries.js';
import { requestJobs, type TickJobs } from '../../src/chat/request-jobs.js';
import type { Admitter } from '../../src/chat/admission.js';
import type { ChatThread, OutgoingPort } from '../../src/chat/port.js';
import type { IncomingRequest } from '../../src/chat/incoming-port.js';
import { startSchedules, type SchedulesService } from '../../src/app/schedules-service.js';
import { parseConfig } from '../../src/config/load.js';
import type { App } from '../../src/app/app.js';
import type { NewSchedule } from '../../src/history/schedules.js';
import type { ResultGate } from '../../src/history/programs.js';

/** What the recording port saw: one entry per thread opened, with its messages. */
interface Posted {
  text: string;
  messages: string[];
  scheduled: IncomingRequest['scheduled'];
}

function recordingPort(threads: Posted[]): OutgoingPort<string, string> {
  const make = (posted: Posted, n: number): ChatThread<string, string> => ({
    ref: { channel: 'C1', thread: `t${n}` },
    key: `t${n}`,
    output: {
      post: async (msg) => {
        posted.messages.push(msg);
        return `m${posted.messages.length}`;
      },
      edit: async () => undefined,
    },
    markup: {
      progress: () => undefined,
      partialCode: (_a, _b, code) => code,
      code: (shown) => ({ edit: shown.code }),
      result: (view) => [`result: ${view.result.stdout.trim()}`],
      notice: (n) => n.title,
      improving: () => 'improving',
      final: (run) => `final: ${run.status}${run.program ? ` (team program ${run.program.name} v${run.program.version})` : ''}`,
      failure: (reason) => `failure: ${reason}`,
      note: (text) => `note: ${text}`,
      withdrawn: (n) => n,
    },
    inputs: async () => [],
    ended: async () => undefined,
  });
  return {
    platform: 'test',
    async openThread(request) {
      const posted: Posted = { text: request.text, messages: [], scheduled: request.scheduled };
      threads.push(posted);
      return { thread: make(posted, threads.length), chat: { thread: { channel: 'C1', thread: `t${threads.length}` }, kind: 'run' } };
    },
    runThread: async () => make({ text: '', messages: [], scheduled: undefined }, 0),
    reopenThread: async (_r, ref) => make(threads[Number(ref.thread?.slice(1)) - 1] ?? { text: '', messages: [], scheduled: undefined }, Number(ref.thread?.slice(1))),
    tell: async () => undefined,
    messageId: (ref) => ({ channel: 'C1', id: ref }),
    editMessage: async () => undefined,
  };
}

const dir = tempDir('schedules-embedded-');
let store: KeyvHistoryStore;
let agent: Agent;
let service: SchedulesService | undefined;
const threads: Posted[] = [];
let admitter: Admitter;
let app: App;
let n = 0;
const conversation = () => `test:sched-${++n}`;

const LEVEL = ['from pathlib import Path', 'LABEL = "level"', 'print(f"{LABEL}: {Path(\'level.txt\').read_text().strip()}")'].join('\n');

/** Saves program `name` (v1) whose code reads level.txt from the run it was saved from. */
async function saveProgram(c: string, name: string, code: string, level?: string): Promise<void> {
  const runId = `src-${name}-${n}`;
  if (level !== undefined) await setLevel(c, runId, level);
  await store.programs.save(c, name, {
    code,
    request: `the ${name}`,
    inputs: { files: level !== undefined ? [{ name: 'level.txt' }] : [], sources: [], hosts: [] },
    parameters: [],
    runId,
    approvedBy: 'U1',
    approvedByName: 'Alice',
    approvedAt: new Date().toISOString(),
  });
}

async function setLevel(c: string, runId: string, level: string): Promise<void> {
  await store.putWorkspaceFiles(c, runId, [{ name: 'level.txt', content: Buffer.from(`${level}\n`), origin: { kind: 'input', turn: 1, at: new Date().toISOString() } }]);
}

function schedule(c: string, program: string, cron: string, resultGate: ResultGate = { kind: 'always' }, state: NewSchedule['state'] = { failures: 0 }): NewSchedule {
  return { conversationId: c, platform: 'test', channel: 'C1', program, params: {}, when: cron, cron, timezone: 'UTC', resultGate, workGate: true, createdBy: 'U1', createdAt: new Date().toISOString(), state };
}

const threadsOf = (id: string) => threads.filter((t) => t.scheduled?.id === id || t.text.includes(`${id}:`));
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 40_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await wait(100);
  }
}

beforeAll(async () => {
  store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
  agent = new Agent({ llm: new IngressOnlyLlm(), executor: new BubblewrapExecutor({ limits: { wallTimeS: 20 } }), store, artifactRoot: join(dir, 'artifacts'), maxRetries: 0, verify: 'off' });
  const config = parseConfig({ schedules: { timezone: 'UTC' } }, {});
  app = { config, agent, store } as unknown as App;
  let ticks: TickJobs | undefined;
  const late: TickJobs = { run: (p, r, j) => ticks!.run(p, r, j), retry: (r) => ticks!.retry(r) };
  const jobs = requestJobs({ agent, store, onInternalError: (err) => console.error(err), onWarning: () => undefined }, recordingPort(threads), late);
  const queue = new MemoryJobQueue({ test: jobs }, 5, (what, err) => console.error(what, err));
  admitter = { deliveries: new Deliveries(store, 3_600_000), queue, maxRequirementChars: 8000, onQueueError: (err) => console.error(err) };
  // the schedules of the catch-up test exist before the scheduler starts
  const c = conversation();
  await saveProgram(c, 'hello', 'print("hello")');
  await store.schedules.add(schedule(c, 'hello', '* * * * *', { kind: 'always' }, { failures: 0, lastTickAt: new Date(Date.now() - 60 * 60_000).toISOString() }), { maxPerConversation: 20 });
  service = await startSchedules(app, 'embedded', admitter, { info: () => undefined, warn: (...m) => console.warn(...m), error: (...m) => console.error(...m) });
  ticks = service.ticks;
}, 60_000);

afterAll(async () => {
  await service?.close();
  await store?.close();
});

describe('schedules in embedded mode', () => {
  it('runs a tick missed while no process ran once at start, and says how many were due', async () => {
    const [s] = (await store.schedules.all()).filter((x) => x.program === 'hello');
    const posted = await until('the catch-up post', () => threadsOf(s!.id).find((t) => t.messages.some((m) => m.startsWith('final'))));
    expect(posted.scheduled?.missed).toBeGreaterThanOrEqual(59);
    expect(posted.messages[0]).toMatch(/No scheduler was running when (59|60|61) runs were due: it ran once when one started/);
    expect(posted.messages).toContain('result: hello');
    expect(posted.messages.at(-1)).toBe('final: success (team program hello v1)');
    expect(threadsOf(s!.id)).toHaveLength(1);
    await service!.commands!.unschedule({ conversationId: s!.conversationId, platform: 'test', channel: 'C1' }, s!.id, { schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule' });
  }, 60_000);

  it('posts every tick once, as a new thread, and the work gate holds back ticks whose files did not change', async () => {
    const c = conversation();
    await saveProgram(c, 'level', LEVEL, '3');
    const s = await store.schedules.add(schedule(c, 'level', '*/2 * * * * *'), { maxPerConversation: 20 });
    const scheduler = service!.commands!;
    // the timer takes the schedule as /schedule would give it
    await service!.scheduler!.add(s);
    await until('the first post', () => threadsOf(s.id).length >= 1);
    await wait(5_000); // two more ticks at least: the file did not change, nothing is posted
    expect(threadsOf(s.id)).toHaveLength(1);
    const handled = (await store.schedules.get(c, s.id))!.state;
    expect(handled.ticks).toBeGreaterThanOrEqual(3);
    expect(handled.posted).toBe(1);
    await setLevel(c, `src-level-${n}`, '4');
    await until('the post after the file changed', () => threadsOf(s.id)[1]?.messages.some((m) => m.startsWith('final')));
    expect(threadsOf(s.id)[1]!.messages).toContain('result: level: 4');
    // each post is a tick of its own
    const ticks = threadsOf(s.id).map((t) => t.scheduled!.tickAt);
    expect(new Set(ticks).size).toBe(ticks.length);
    await scheduler.unschedule({ conversationId: c, platform: 'test', channel: 'C1' }, s.id, { schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule' });
  }, 90_000);

  it('the result gate posts only when the condition on the printed value holds', async () => {
    const c = conversation();
    await saveProgram(c, 'level', LEVEL, '3');
    const place = { conversationId: c, platform: 'test', channel: 'C1' };
    const names = { schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule' };
    const reply = await service!.commands!.schedule(place, { userId: 'U1' }, 'level every minute only when level > 5', names);
    expect(reply.refused).toBeUndefined();
    expect(reply.lines.join('\n')).toContain('posted only when the number after "level" in the output > 5');
    expect(reply.lines.join('\n')).toContain('UTC, the default zone');
    const [s] = await store.schedules.list(c);
    // a faster pattern than people may type: the record's cron line, as the test's clock
    await store.schedules.remove(c, s!.id);
    const fast = await store.schedules.add({ ...s!, cron: '*/2 * * * * *' }, { maxPerConversation: 20 });
    await service!.scheduler!.remove(s!);
    await service!.scheduler!.add(fast);
    await wait(4_500);
    expect(threadsOf(fast.id)).toHaveLength(0);
    expect((await store.schedules.get(c, fast.id))!.state.ticks).toBeGreaterThanOrEqual(1);
    await setLevel(c, `src-level-${n}`, '7');
    const posted = await until('the post once level > 5', () => threadsOf(fast.id).find((t) => t.messages.some((m) => m.startsWith('final'))));
    expect(posted.messages[0]).toContain('Result gate: posted only when the number after "level" in the output > 5 — 7 > 5.');
    await service!.commands!.unschedule(place, fast.id, names);
  }, 90_000);

  it('a failing program is posted once, then the schedule pauses after three failures in a row and says so', async () => {
    const c = conversation();
    await saveProgram(c, 'broken', 'raise SystemExit("the shop database is down")');
    const s = await store.schedules.add(schedule(c, 'broken', '*/2 * * * * *'), { maxPerConversation: 20 });
    await service!.scheduler!.add(s);
    const paused = await until('the pause', () => threadsOf(s.id).find((t) => t.messages.some((m) => m.includes('is paused'))), 60_000);
    const all = threadsOf(s.id);
    expect(all).toHaveLength(2); // the first failure, then the pause: the second failure was not posted
    expect(all[0]!.messages.join('\n')).toContain('failed. Further failures in a row are not posted');
    expect(paused.messages.join('\n')).toContain('its last three runs failed');
    expect(paused.messages.join('\n')).toContain(`/schedules resume ${s.id}`);
    const stored = (await store.schedules.get(c, s.id))!;
    expect(stored.paused?.reason).toContain('3 failed runs in a row');
    await wait(4_000); // paused: no more ticks run
    expect(threadsOf(s.id)).toHaveLength(2);
    expect((await store.schedules.get(c, s.id))!.state.ticks).toBe(3);
    const listed = await service!.commands!.schedules({ conversationId: c, platform: 'test', channel: 'C1' }, '', { schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule' });
    expect(listed.lines[0]).toContain('⏸ paused');
  }, 90_000);

  it('/schedule refuses a when, a condition or a program it cannot read, and saves nothing', async () => {
    const c = conversation();
    await saveProgram(c, 'hello', 'print("hello")');
    const place = { conversationId: c, platform: 'test', channel: 'C1' };
    const names = { schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule' };
    const bad = [
      ['hello every fortnight', 'not what comes after it ("fortnight")'],
      ['hello every Monday', 'no time of day'],
      ['hello every Monday at 9 only when lots of refunds', 'no comparison'],
      ['nope every Monday at 9', 'No team program `nope`'],
      ['hello', 'Usage: `/schedule <program>'],
    ];
    for (const [text, said] of bad) {
      const reply = await service!.commands!.schedule(place, { userId: 'U1' }, text!, names);
      expect(reply.refused, text).toBe(true);
      expect([reply.title, ...reply.lines].join('\n'), text).toContain(said);
    }
    expect(await store.schedules.list(c)).toEqual([]);
    const ok = await service!.commands!.schedule(place, { userId: 'U1', userName: 'alice' }, 'hello every weekday at 17:30 in Europe/Berlin', names);
    expect(ok.title).toMatch(/^⏰ Scheduled s\d+: team program `hello` every weekday at 17:30\.$/);
    expect(ok.lines[0]).toBe('Read as: every weekday at 17:30, cron 30 17 * * 1-5, in Europe/Berlin (as given).');
    const listed = await service!.commands!.schedules(place, '', names);
    expect(listed.lines).toHaveLength(1);
    expect(listed.lines[0]).toContain('hello, every weekday at 17:30 in Europe/Berlin (30 17 * * 1-5, Europe/Berlin), by alice');
    const id = listed.lines[0]!.split(':')[0]!;
    expect((await service!.commands!.unschedule({ ...place, conversationId: 'test:other' }, id, names)).refused).toBe(true); // not another channel's
    expect((await service!.commands!.unschedule(place, id, names)).title).toBe(`Removed schedule ${id}.`);
    expect(await store.schedules.list(c)).toEqual([]);
  }, 60_000);
});
