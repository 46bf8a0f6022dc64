/**
 * Schedules bench (docs/programs.md "Schedules"): real processes — two `code-agent slack`
 * ingresses, two `code-agent worker`s, one redis-server (queue, job schedulers, history) — and the
 * fake Slack Web API. One team program (`print`) is scheduled on a 1-second cron line (six fields,
 * with seconds: faster than the forms people may type, so that 100 ticks take under two minutes
 * instead of 100 minutes); one worker is killed (SIGKILL) while it runs a tick, a third of the way.
 *
 * Prints: the ticks BullMQ made, the threads posted, ticks posted exactly once / twice / never, and
 * the time from a tick's due time to its thread's first message (p50, p99, max).
 *
 * Run: `npm run build && npm run bench:schedules [ticks=100]`
 */
import { spawnSync } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startQueueWorld } from '../test/queue/harness.js';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import { parseConfig } from '../src/config/load.js';
import { QueueScheduler, ticksQueueName } from '../src/queue/schedules.js';
import { tickText } from '../src/schedules/when.js';
import { percentile } from './shared/stats.js';

const TICKS = Number(process.argv[2] ?? 100);
const CONVERSATION = 'slack:T0001:C_MAIN';

const runsProgram = (pid: number) => /bwrap/.test(spawnSync('ps', ['-o', 'comm=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout);

async function main(): Promise<void> {
  const world = await startQueueWorld({ replies: [], ingresses: 2, workers: 2, logLevel: 'warn', queue: { lock_s: 2, stalled_interval_s: 1 }, slack: { max_queue_per_channel: 20 } });
  const store = await KeyvHistoryStore.open(world.redis.url);
  const config = parseConfig({ queue: { url: world.redis.url, name: 'test' } }, {});
  const scheduler = QueueScheduler.open(config, store.schedules);
  try {
    await store.programs!.save(CONVERSATION, 'tick', {
      code: 'print("tick")',
      request: 'print tick',
      inputs: { files: [], sources: [], hosts: [] },
      parameters: [],
      runId: 'src-tick',
      approvedBy: 'U_ALICE',
      approvedAt: new Date().toISOString(),
    });
    const s = await store.schedules.add(
      {
        conversationId: CONVERSATION,
        platform: 'slack',
        channel: 'C_MAIN',
        program: 'tick',
        params: {},
        when: 'every second',
        cron: '* * * * * *',
        timezone: 'UTC',
        resultGate: { kind: 'always' },
        workGate: true,
        createdBy: 'U_ALICE',
        createdAt: new Date().toISOString(),
        state: { failures: 0 },
      },
      { maxPerConversation: 20 },
    );
    const started = Date.now();
    await scheduler.add(s);
    const roots = () => world.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C_MAIN' && !c.args.thread_ts && JSON.stringify(c.args).includes(`${s.id}: team program`));
    // kill a worker while it runs a tick, a third of the way
    await world.slack.waitFor(() => roots().length >= Math.round(TICKS / 3), 300_000, 'a third of the ticks');
    await world.slack.waitFor(() => runsProgram(world.workers[0]!.child.pid!), 60_000, 'worker 0 running a tick');
    world.workers[0]!.child.kill('SIGKILL');
    process.stderr.write(`killed worker 0 after ${roots().length} posts\n`);
    // stop making ticks once TICKS were made
    const redis = new Redis(world.redis.url, { maxRetriesPerRequest: null });
    const ticksQueue = new Queue(ticksQueueName(config), { connection: redis });
    const made = async () => {
      const jobs = await ticksQueue.getJobs(['completed', 'failed', 'active', 'waiting', 'prioritized', 'delayed'], 0, -1);
      return [...new Set(jobs.map((j) => /^repeat:[^:]+:(\d+)$/.exec(j?.id ?? '')?.[1]).filter((x): x is string => x !== undefined).map(Number))].sort((a, b) => a - b);
    };
    for (;;) {
      if ((await made()).length >= TICKS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await scheduler.remove(s);
    const ticks = await made();
    await world.slack.waitFor(() => roots().length >= ticks.length, 600_000, 'every tick posted').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 5000));
    // each thread's first note names its tick (to the second)
    const posts = world.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C_MAIN');
    const byTick = new Map<number, number[]>();
    for (const root of roots()) {
      const ts = String(root.result?.ts ?? '');
      const inside = posts.filter((p) => p.args.thread_ts === ts).map((p) => JSON.stringify(p.args)).join('\n');
      const due = ticks.find((ms) => inside.includes(`due ${tickText(new Date(ms), 'UTC')}`));
      if (due === undefined) continue;
      byTick.set(due, [...(byTick.get(due) ?? []), root.at - due]);
    }
    const once = ticks.filter((t) => byTick.get(t)?.length === 1).length;
    const twice = ticks.filter((t) => (byTick.get(t)?.length ?? 0) > 1).length;
    const never = ticks.filter((t) => !byTick.has(t)).length;
    const delays = [...byTick.values()].map((d) => d[0]!).sort((a, b) => a - b);
    const retried = (world.workers[1]!.stderr().match(/trying it again/g) ?? []).length;
    console.log(`schedules bench: a 1-second schedule, two ingresses, two workers (one killed after a third), ${Math.round((Date.now() - started) / 1000)} s`);
    console.log(`  ticks made by BullMQ: ${ticks.length}; threads posted: ${roots().length}`);
    console.log(`  posted exactly once: ${once}; twice or more: ${twice}; never: ${never}; ticks tried again after the kill: ${retried}`);
    console.log(`  tick → first message of its thread: p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${delays.at(-1)} ms`);
    await ticksQueue.close();
    redis.disconnect();
  } finally {
    await scheduler.close();
    await store.close();
    await world.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
