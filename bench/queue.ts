/**
 * Queue-mode bench (docs/deploy.md "Sizing"): real processes — one `code-agent slack` ingress,
 * 1 or 2 `code-agent worker`s, one redis-server (queue, limits and history) — with the fake Slack
 * Web API and the fake OpenAI server; the program is trivial (`print`), so the figures are the
 * queue's and the chat rendering's cost, plus one sandbox start per job.
 *
 * Prints, for 1 and for 2 workers: jobs/s for N `/run` sent at once (from the first send to the
 * last final message), the enqueue → start latency p50/p99 (logged by the workers), the CPU time
 * per job of the worker (its own and its sandbox children's) and of the ingress, and the Redis
 * commands per job (INFO commandstats). Then the ack p50/p99 of a burst of B `/run` sent at once
 * to the ingress with the queue on.
 *
 * Run: `npm run build && node dist/bench/queue.js [jobs=60] [burst=200]`
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { startQueueWorld, type QueueWorld } from '../test/queue/harness.js';
import { percentile } from './shared/stats.js';

const JOBS = Number(process.argv[2] ?? 60);
const BURST = Number(process.argv[3] ?? 200);
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;
const REPLY = 'Here you go:\n```python\nprint("hi")\n```';

/** CPU ms of a process: [its own, its waited-for children's]. */
function cpuMs(pid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  // fields 14–17 of proc(5): utime stime cutime cstime; f[0] is field 3
  return [((f[11]! + f[12]!) * 1000) / TICKS, ((f[13]! + f[14]!) * 1000) / TICKS];
}

async function redisCalls(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  return [...info.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** Jobs sent one at a time for the idle latency. */
const IDLE_JOBS = 15;

/** The enqueue → start delays (ms) the workers logged after the given stderr offsets. */
function waitsSince(w: QueueWorld, offsets: number[]): number[] {
  return w.workers.flatMap((p, i) => [...p.stderr().slice(offsets[i]).matchAll(/started job \S+ \(slack run, (\d+) ms after/g)].map((m) => Number(m[1])));
}

const finals = (w: QueueWorld) => w.slack.callsOf('chat.update').filter((c) => /Status:\* (✅|❌|⚠️)/.test(String(c.args.text))).length;

/** Sends `count` /run at once from distinct users and channels; resolves with the ack times (ms). */
async function burst(w: QueueWorld, count: number, tag: string): Promise<number[]> {
  const acks = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      w.command(0, { text: `print hi ${tag}${i}`, user_id: `U${tag}${i}`, channel_id: `C${tag}${i}`, trigger_id: `${tag}.${i}` }),
    ),
  );
  const refused = acks.filter((a) => a.status !== 200 || /busy|too many|Could not/.test(JSON.stringify(a.body)));
  if (refused.length) throw new Error(`${refused.length} of ${count} commands were refused: ${JSON.stringify(refused[0]!.body)}`);
  return acks.map((a) => a.ms);
}

async function throughput(workers: number): Promise<void> {
  const w = await startQueueWorld({ replies: [REPLY], ingresses: 1, workers, logLevel: 'info', slack: { max_queue_per_channel: 5 } });
  const redis = new Redis(w.redis.url);
  try {
    await burst(w, 1, 'warm');
    await w.slack.waitFor(() => finals(w) >= 1, 60_000, 'the warm-up run');
    // an idle queue: one job at a time, each after the previous one ended
    const idleFrom = w.workers.map((p) => p.stderr().length);
    for (let i = 0; i < IDLE_JOBS; i++) {
      await burst(w, 1, `idle${i}-`);
      await w.slack.waitFor(() => finals(w) >= i + 2, 60_000, `idle run ${i}`);
    }
    const idleWaits = waitsSince(w, idleFrom);
    const cpu0 = w.workers.map((p) => cpuMs(p.child.pid!));
    const ing0 = cpuMs(w.ingressProcs[0]!.child.pid!);
    const calls0 = await redisCalls(redis);
    const logged0 = w.workers.map((p) => p.stderr().length);
    const started = performance.now();
    await burst(w, JOBS, 'job');
    await w.slack.waitFor(() => finals(w) >= JOBS + 1 + IDLE_JOBS, 600_000, `${JOBS} runs`);
    const seconds = (performance.now() - started) / 1000;
    const calls = (await redisCalls(redis)) - calls0 - 1;
    const cpu1 = w.workers.map((p) => cpuMs(p.child.pid!));
    const ing1 = cpuMs(w.ingressProcs[0]!.child.pid!);
    const own = cpu1.reduce((s, c, i) => s + c[0] - cpu0[i]![0], 0) / JOBS;
    const children = cpu1.reduce((s, c, i) => s + c[1] - cpu0[i]![1], 0) / JOBS;
    const waits = waitsSince(w, logged0);
    console.log(`${workers} worker(s), ${JOBS} /run at once:`);
    console.log(`  throughput               ${(JOBS / seconds).toFixed(2)} jobs/s (${seconds.toFixed(1)} s)`);
    console.log(`  enqueue → start, idle    p50 ${percentile(idleWaits, 50).toFixed(0)} ms  p99 ${percentile(idleWaits, 99).toFixed(0)} ms  (${idleWaits.length} jobs one at a time)`);
    console.log(`  enqueue → start, burst   p50 ${percentile(waits, 50).toFixed(0)} ms  p99 ${percentile(waits, 99).toFixed(0)} ms  (${waits.length} jobs; mostly waiting for a free worker)`);
    console.log(`  CPU per job, worker      ${own.toFixed(0)} ms own + ${children.toFixed(0)} ms sandbox (python) children`);
    console.log(`  CPU per job, ingress     ${((ing1[0] - ing0[0]) / JOBS).toFixed(1)} ms`);
    console.log(`  Redis commands per job   ${(calls / JOBS).toFixed(1)} (queue, limits, dedupe and history together)`);
    if (workers === 2) {
      const acks = await burst(w, BURST, 'burst');
      console.log(`  ack of ${BURST} /run at once  p50 ${percentile(acks, 50).toFixed(1)} ms  p99 ${percentile(acks, 99).toFixed(1)} ms  max ${Math.max(...acks).toFixed(1)} ms`);
    }
  } finally {
    redis.disconnect();
    await w.close();
  }
}

async function main(): Promise<void> {
  console.log(`queue bench: trivial program, fake LLM and Slack, real sandbox, redis-server; ${JOBS} jobs per measure`);
  await throughput(1);
  await throughput(2);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
