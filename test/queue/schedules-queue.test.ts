/**
 * Schedules in queue mode, with real processes: a real redis-server (queue, job schedulers and
 * the shared store), two `code-agent slack` ingresses and two `code-agent worker`s built from dist/,
 * the fake Slack Web API. A team program is scheduled every 2 seconds (a six-field cron line with
 * seconds, faster than the forms people may type, written in the store as `/schedule` would; the job
 * scheduler upserted as an ingress does); one worker is killed (SIGKILL) while ticks run, and one
 * ingress is restarted (it upserts every job scheduler again at start). Every tick BullMQ made
 * posts exactly one thread in the channel, none lost, none twice. A failing program posts its
 * failure once and pauses after three failures in a row, saying so.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { parseConfig } from '../../src/config/load.js';
import { QueueScheduler, ticksQueueName } from '../../src/queue/schedules.js';
import type { NewSchedule } from '../../src/history/schedules.js';
import type { Schedule } from '../../src/history/programs.js';
import { tickText } from '../../src/schedules/when.js';
import { spawnCli, startQueueWorld, stopProc, type QueueWorld } from './harness.js';

const CONVERSATION = 'slack:T0001:C_MAIN';
let world: QueueWorld;
let store: KeyvHistoryStore;
let scheduler: QueueScheduler;
const config = () => parseConfig({ queue: { url: world.redis.url, name: 'test' } }, {});

async function saveProgram(name: string, code: string): Promise<void> {
  await store.programs.save(CONVERSATION, name, {
    code,
    request: `the ${name}`,
    inputs: { files: [], sources: [], hosts: [] },
    parameters: [],
    runId: `src-${name}`,
    approvedBy: 'U_ALICE',
    approvedByName: 'alice',
    approvedAt: new Date().toISOString(),
  });
}

async function addSchedule(program: string, cron: string): Promise<Schedule> {
  const s: NewSchedule = {
    conversationId: CONVERSATION,
    platform: 'slack',
    channel: 'C_MAIN',
    program,
    params: {},
    when: cron,
    cron,
    timezone: 'UTC',
    resultGate: { kind: 'always' },
    workGate: true,
    createdBy: 'U_ALICE',
    createdByName: 'alice',
    createdAt: new Date().toISOString(),
    state: { failures: 0 },
  };
  const saved = await store.schedules.add(s, { maxPerConversation: 20 });
  await scheduler.add(saved);
  return saved;
}

/** The channel's new threads (messages without thread_ts) and, by thread, the text of every message in it. */
function threads(): Array<{ ts: string; root: string; inside: string }> {
  const posts = world.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C_MAIN');
  const text = (c: (typeof posts)[number]) => JSON.stringify(c.args);
  return posts
    .filter((c) => !c.args.thread_ts)
    .map((c) => {
      const ts = String(c.result?.ts ?? '');
      return { ts, root: text(c), inside: posts.filter((p) => p.args.thread_ts === ts).map(text).join('\n') };
    });
}

/** Whether a process has a sandbox (bwrap) among its children: it is running a program. */
function runsProgram(pid: number): boolean {
  const out = spawnSync('ps', ['-o', 'comm=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;
  return /bwrap/.test(out);
}

/** The tick times BullMQ made for a schedule (its jobs' ids `repeat:<id>:<ms>`), in every state. */
async function ticksMade(scheduleId: string): Promise<number[]> {
  const redis = new Redis(world.redis.url, { maxRetriesPerRequest: null });
  const queue = new Queue(ticksQueueName(config()), { connection: redis });
  try {
    const jobs = await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'prioritized', 'delayed'], 0, -1);
    const times = jobs.map((j) => j?.id ?? '').map((id) => new RegExp(`^repeat:${scheduleId}:(\\d+)$`).exec(id)?.[1]).filter((x): x is string => x !== undefined);
    return [...new Set(times.map(Number))].sort((a, b) => a - b);
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

beforeAll(async () => {
  world = await startQueueWorld({ replies: [], ingresses: 2, workers: 2, logLevel: 'info', queue: { lock_s: 2, stalled_interval_s: 1 } });
  store = await KeyvHistoryStore.open(world.redis.url);
  scheduler = QueueScheduler.open(config(), store.schedules);
}, 180_000);

afterAll(async () => {
  await scheduler?.close();
  await store?.close();
  // the ingress restarted by the test is not among the world's own processes: stopped here, or it outlives the run
  await Promise.all((world?.ingressProcs ?? []).map((p) => stopProc(p.child)));
  await world?.close();
});

describe('schedules in queue mode (real Redis, two ingresses, two workers)', () => {
  it('every tick posts exactly once across the processes, with a worker killed and an ingress restarted mid-way', async () => {
    await saveProgram('slow-hello', 'import time\ntime.sleep(1)\nprint("hello from the schedule")');
    const s = await addSchedule('slow-hello', '*/2 * * * * *');
    const mine = () => threads().filter((t) => t.root.includes(`${s.id}: team program`));
    await world.slack.waitFor(() => mine().length >= 2, 60_000, 'two scheduled posts');
    // a worker dies in the middle of a tick's run (while its program sleeps 1 s in the sandbox): the other tries that tick again
    const victim = world.workers[0]!;
    await world.slack.waitFor(() => runsProgram(victim.child.pid!), 60_000, 'worker 0 running a tick');
    victim.child.kill('SIGKILL');
    await world.slack.waitFor(() => mine().length >= 4, 90_000, 'two more posts after the kill');
    // an ingress restarts: it upserts every job scheduler again, which makes no tick twice
    await stopProc(world.ingressProcs[1]!.child);
    world.ingressProcs[1] = await spawnCli(['slack', '--config', world.configFile], world.dir, /HTTP on port (\d+)/);
    await world.slack.waitFor(() => mine().length >= 6, 90_000, 'two more posts after the restart');
    await scheduler.remove(s);
    // let the ticks made so far end (a stalled one is found after lock_s + stalled_interval_s, then tried again)
    const made = await ticksMade(s.id);
    await world.slack
      .waitFor(() => mine().filter((t) => t.inside.includes('hello from the schedule')).length >= made.length, 90_000, 'every tick made posted');
    await new Promise((r) => setTimeout(r, 2500)); // nothing more comes
    const posted = mine();
    // each thread names its tick's time (to the second): every tick made is posted once, none twice
    const due = posted.map((t) => made.find((ms) => t.inside.includes(`due ${tickText(new Date(ms), 'UTC')}`)));
    expect(due.every((d) => d !== undefined)).toBe(true);
    expect(new Set(due).size).toBe(posted.length);
    expect([...new Set(due)].sort((a, b) => a! - b!)).toEqual(made);
    expect(made.length).toBeGreaterThanOrEqual(6);
    // every post holds the program's output and is marked as the team's program
    for (const t of posted) expect(t.inside).toContain('hello from the schedule');
    // the channel message is the root every platform composes: who scheduled what
    for (const t of posted) expect(t.root).toMatch(/\*alice\* scheduled: ⏰ /);
    // the killed worker's tick was tried again by the other (and posted once, above)
    expect(world.workers[1]!.stderr()).toMatch(new RegExp(`schedule ${s.id}: the worker of the tick of .* stopped; trying it again`));
    const state = (await store.schedules.get(CONVERSATION, s.id))!.state;
    expect(state.posted).toBe(made.length);
  }, 400_000);

  it('a failing program posts its failure once and pauses after three failures in a row', async () => {
    await saveProgram('broken', 'raise SystemExit("the shop database is down")');
    const s = await addSchedule('broken', '*/2 * * * * *');
    const mine = () => threads().filter((t) => t.root.includes(`${s.id}: team program`) || t.root.includes(`${s.id}: team program \`broken\` paused`));
    await world.slack.waitFor(() => mine().some((t) => t.inside.includes('is paused')), 90_000, 'the pause');
    await new Promise((r) => setTimeout(r, 6000)); // paused: nothing more is posted
    const posted = mine();
    expect(posted).toHaveLength(2);
    expect(posted[0]!.inside).toContain('Further failures in a row are not posted');
    expect(posted[1]!.inside).toContain('its last three runs failed');
    const stored = (await store.schedules.get(CONVERSATION, s.id))!;
    expect(stored.paused?.reason).toContain('3 failed runs in a row');
    expect(stored.state.ticks).toBe(3);
    await scheduler.remove(s);
  }, 200_000);
});
