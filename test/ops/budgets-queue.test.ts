/**
 * Budgets across processes (queue mode): two `code-agent slack` ingresses and two `code-agent
 * worker` processes (three jobs each at once), queued on one Redis, spend against one channel's
 * daily budget kept in the history store: Redis, PostgreSQL or one SQLite file. Six runs admitted at once never take the channel past its budget: each LLM call is
 * reserved in the store at the most it can cost before it is made, a call that would fit once the
 * calls in progress settle waits for them, and one that cannot fit is not made: its run stops,
 * saying which budget, what is left and when it resets. Every token the LLM served is counted
 * exactly once; once the budget is spent, both ingresses refuse the channel's next request at
 * admission, before any LLM call. Each worker serves /readyz and /metrics on its ops port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { utcDay } from '../../src/history/usage.js';
import { callTokensAtMost, promptTokensAtMost } from '../../src/usage/reservations.js';
import type { FakeRequest } from '../fakes/openai-server.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { startQueueWorld, spawnCli, stopProc, type Proc, type QueueWorld } from '../queue/harness.js';

/**
 * The channel's daily budget. Each call here is reserved at 3,341 tokens (1,277 prompt bytes and
 * template tokens, 2,048 reply) and uses 2,479: two reservations do not fit at once (6,682), so
 * the second call waits for the first to settle; then 2,479 + 3,341 fit; after two calls
 * 4,958 + 3,341 do not, so the other four runs stop. Without reservations: 6 × 2,479 = 14,874.
 */
const BUDGET = 6100;
/** `llm.max_tokens` (the config's default): every reply is reserved at this many tokens. */
const MAX_TOKENS = 2048;

/**
 * What the fake LLM says each call used: its whole reply length, and a third of its prompt's
 * bytes (about what a tokenizer makes of English and code); always within the call's reservation.
 */
function usageOf(request: FakeRequest): { prompt_tokens: number; completion_tokens: number } {
  return { prompt_tokens: Math.floor(promptTokensAtMost(request.messages as never) / 3), completion_tokens: MAX_TOKENS };
}
const tokensOf = (r: FakeRequest) => Object.values(usageOf(r)).reduce((a, b) => a + b, 0);

let pg: TestServer | undefined;
let sqliteDir: string | undefined;
afterAll(async () => {
  await pg?.stop();
  if (sqliteDir) await rm(sqliteDir, { recursive: true, force: true });
}, 60_000);

/** The history store of the world (the queue is always on Redis): Redis itself, a PostgreSQL server, or one SQLite file every process opens. */
const stores: [string, () => Promise<string | undefined>][] = [
  ['redis', async () => undefined],
  ['postgresql', async () => (pg ??= await startPostgres()).url],
  ['sqlite', async () => `sqlite://${join((sqliteDir ??= await mkdtemp(join(tmpdir(), 'budgets-queue-'))), 'history.sqlite')}`],
];

describe.each(stores)('budgets in queue mode, history store on %s', (_name, storeUrl) => {
  let w: QueueWorld;
  let url: string;
  let opsWorker: (Proc & { match: RegExpMatchArray }) | undefined;

  beforeAll(async () => {
    const store = await storeUrl();
    w = await startQueueWorld({
      // each call takes 1.5 s, so the six runs' calls overlap
      replies: [(request) => ({ content: 'Here:\n```python\nprint("ok")\n```', usage: usageOf(request), delayMs: 1500 })],
      ingresses: 2,
      workers: 2,
      queue: { concurrency: 3 },
      slack: { max_queue_per_channel: 8 },
      config: { limits: { budgets: { tokens_per_channel_per_day: BUDGET } } },
      ...(store ? { store } : {}),
    });
    url = store ?? w.redis.url;
  }, 120_000);

  afterAll(async () => {
    if (opsWorker) await stopProc(opsWorker.child);
    await w?.close();
  }, 60_000);

  /** Channel messages whose final status was set (one per finished run). */
  const finishedRuns = (): number =>
    new Set(w.slack.callsOf('chat.update').filter((c) => /Status:\* (✅|⚠️|❌)/.test(String(c.args.text))).map((c) => c.args.ts)).size;

  /** Every text posted or edited in Slack so far. */
  const slackText = (): string => JSON.stringify([...w.slack.callsOf('chat.postMessage'), ...w.slack.callsOf('chat.update')].map((c) => c.args));

  it('six runs at once never take the channel past its budget; the runs it cannot cover stop saying so; both ingresses refuse once spent', async () => {
    // six runs at once (six users, both ingresses): all admitted, nothing is spent yet
    const acks = await Promise.all(['U1', 'U2', 'U3', 'U4', 'U5', 'U6'].map((u, i) => w.command(i % 2, { text: `print ok ${i}`, user_id: u, user_name: u.toLowerCase() })));
    for (const ack of acks) expect(JSON.stringify(ack.body)).not.toContain('budget');
    await w.slack.waitFor(() => finishedRuns() >= 6 || undefined, 120_000, 'six finished runs');

    const served = w.llm.requests;
    for (const r of served) expect(tokensOf(r)).toBeLessThanOrEqual(callTokensAtMost(r.messages as never, MAX_TOKENS));
    const spent = served.reduce((n, r) => n + tokensOf(r), 0);
    // without reservations all six calls would be made: far past the budget
    expect(6 * tokensOf(served[0]!)).toBeGreaterThan(BUDGET);
    // with them: the budget holds, and a call waited for another to settle rather than be refused
    expect(spent).toBeLessThanOrEqual(BUDGET);
    expect(served.length).toBe(2);
    expect(served[1]!.at - served[0]!.at).toBeGreaterThanOrEqual(1400); // the second waited for the first (1.5 s) to settle

    // the ledger in Redis holds exactly what the LLM served, and no reservation is left behind
    const store = await KeyvHistoryStore.open(url);
    try {
      const rows = (await store.usage.rows(utcDay(), utcDay())).filter((r) => r.channel === 'slack:T0001:C_MAIN');
      expect(rows.reduce((n, r) => n + r.promptTokens + r.completionTokens, 0)).toBe(spent);
      expect(rows.reduce((n, r) => n + r.runs, 0)).toBe(6);
      const key = { day: utcDay(), channel: 'slack:T0001:C_MAIN', user: 'slack:T0001:U9' };
      expect(await store.usage.reserve({ id: randomUUID(), key, tokens: BUDGET - spent, channelLimit: BUDGET, ttlMs: 1 })).toEqual({ held: true });
    } finally {
      await store.close();
    }

    // each run the budget could not cover stopped before its call, saying which budget, what is left and when it resets
    const text = slackText();
    const stops = text.match(/stopped before the next LLM call: this channel's daily budget of 6,100 LLM tokens \(limits\.budgets\.tokens_per_channel_per_day\) has [\d,]+ left today \([\d,]+ used, [\d,]+ reserved by calls in progress\), and the call may use up to [\d,]+\. It resets at 00:00 UTC, in (\d+ h )?\d+ min\./g);
    expect(stops).not.toBeNull();
    expect(stops![0]).toContain('has 1,142 left today (4,958 used, 0 reserved by calls in progress), and the call may use up to 3,341.');
    // four runs stopped before their first call: their status says so (and their thread, with the reason)
    const stoppedRuns = new Set(w.slack.callsOf('chat.update').filter((c) => /Status:\* ❌ Failed · 0 attempts · run `[^`]+` · stopped before the next LLM call/.test(String(c.args.text))).map((c) => c.args.ts));
    expect(stoppedRuns.size).toBe(4);

    // spend the rest of the day (another process's runs): both ingresses refuse the channel, with no LLM call
    const topUp = await KeyvHistoryStore.open(url);
    await topUp.usage.add({ day: utcDay(), channel: 'slack:T0001:C_MAIN', user: 'slack:T0001:U9' }, { promptTokens: BUDGET - spent });
    await topUp.close();
    for (const ingress of [0, 1]) {
      const refused = await w.command(ingress, { text: 'print more', user_id: 'U7', user_name: 'u7' });
      const said = JSON.stringify(refused.body);
      expect(said).toContain('This channel has used its daily budget of 6,100 LLM tokens (limits.budgets.tokens_per_channel_per_day): 6,100 used today.');
      expect(said).toMatch(/It resets at 00:00 UTC, in (\d+ h )?\d+ min\./);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(w.llm.requests).toHaveLength(served.length);
    // another channel is not refused
    const other = await w.command(0, { text: 'print other', channel_id: 'C_OTHER', user_id: 'U8', user_name: 'u8' });
    expect(JSON.stringify(other.body)).not.toContain('budget');
    await w.slack.waitFor(() => finishedRuns() >= 7 || undefined, 60_000, 'the run in the other channel');
  }, 240_000);

  it('a worker with ops.port serves /readyz and /metrics of its own', async () => {
    const { configWithOps } = await import('./config-copy.js');
    opsWorker = await spawnCli(['worker', '--config', await configWithOps(w.configFile)], w.dir, /ops endpoints on http:\/\/127\.0\.0\.1:(\d+)/);
    const base = `http://127.0.0.1:${opsWorker.match[1]}`;
    const ready = await fetch(`${base}/readyz`);
    const body = (await ready.json()) as { parts: Record<string, { ok: boolean }> };
    expect(ready.status, JSON.stringify(body)).toBe(200);
    expect(Object.keys(body.parts).sort()).toEqual(['llm', 'queue', 'sandbox', 'store']);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('# TYPE code_agent_queue_waiting_jobs gauge');
    expect(metrics).toMatch(/^code_agent_queue_waiting_jobs 0$/m);
    // a new process has run nothing: its own counters (each process exports its own)
    expect(metrics).not.toMatch(/^code_agent_runs_total\{/m);
  }, 60_000);
});
