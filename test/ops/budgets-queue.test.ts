/**
 * Budgets across processes (queue mode): two `code-agent slack` ingresses and two `code-agent
 * worker` processes on one Redis spend against one channel's daily budget. Every token the LLM
 * served is counted exactly once in the shared ledger (two workers adding at once lose nothing),
 * and once the budget is spent both ingresses refuse the channel's next request with the budget
 * and its reset, before any LLM call. Each worker serves /readyz and /metrics on its ops port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { utcDay } from '../../src/history/usage.js';
import { startQueueWorld, spawnCli, stopProc, type Proc, type QueueWorld } from '../queue/harness.js';

/** Tokens of every LLM reply (prompt 250 + completion 50). */
const PER_CALL = 300;
const BUDGET = 1000;

let w: QueueWorld;
let opsWorker: (Proc & { match: RegExpMatchArray }) | undefined;

beforeAll(async () => {
  w = await startQueueWorld({
    replies: [{ content: 'Here:\n```python\nprint("ok")\n```', usage: { prompt_tokens: 250, completion_tokens: 50 } }],
    ingresses: 2,
    workers: 2,
    config: { limits: { budgets: { tokens_per_channel_per_day: BUDGET } } },
  });
}, 120_000);

afterAll(async () => {
  if (opsWorker) await stopProc(opsWorker.child);
  await w?.close();
}, 60_000);

/** Channel messages whose final status was set (one per finished run). */
function finishedRuns(): number {
  return new Set(w.slack.callsOf('chat.update').filter((c) => /Status:\* (✅|⚠️|❌)/.test(String(c.args.text))).map((c) => c.args.ts)).size;
}

describe('budgets in queue mode', () => {
  it('counts every token once across processes and refuses the channel at both ingresses once spent', async () => {
    // four runs at once (four users, both ingresses): admitted while the channel has tokens left
    const acks = await Promise.all(['U1', 'U2', 'U3', 'U4'].map((u, i) => w.command(i % 2, { text: `print ok ${i}`, user_id: u, user_name: u.toLowerCase() })));
    for (const ack of acks) expect(JSON.stringify(ack.body)).not.toContain('budget');
    await w.slack.waitFor(() => finishedRuns() >= 4 || undefined, 90_000, 'four finished runs');
    expect(w.llm.requests).toHaveLength(4);

    // the ledger in Redis holds exactly what the LLM served: no addition lost between the workers
    const store = await KeyvHistoryStore.open(w.redis.url);
    const rows = await store.usage.rows(utcDay(), utcDay());
    await store.close();
    const channel = rows.filter((r) => r.channel === 'slack:T0001:C_MAIN');
    expect(channel.reduce((n, r) => n + r.promptTokens + r.completionTokens, 0)).toBe(w.llm.requests.length * PER_CALL);
    expect(channel.reduce((n, r) => n + r.runs, 0)).toBe(4);
    expect(channel.map((r) => r.user).sort()).toEqual(['slack:T0001:U1', 'slack:T0001:U2', 'slack:T0001:U3', 'slack:T0001:U4']);

    // spent (1200 ≥ 1000): both ingresses refuse the channel, with no LLM call
    for (const ingress of [0, 1]) {
      const refused = await w.command(ingress, { text: 'print more', user_id: 'U5', user_name: 'u5' });
      const text = JSON.stringify(refused.body);
      expect(text).toContain('This channel has used its daily budget of 1,000 LLM tokens (limits.budgets.tokens_per_channel_per_day): 1,200 used today.');
      expect(text).toMatch(/It resets at 00:00 UTC, in (\d+ h )?\d+ min\./);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(w.llm.requests).toHaveLength(4);
    // another channel is not refused
    const other = await w.command(0, { text: 'print other', channel_id: 'C_OTHER', user_id: 'U6', user_name: 'u6' });
    expect(JSON.stringify(other.body)).not.toContain('budget');
    await w.slack.waitFor(() => finishedRuns() >= 5 || undefined, 60_000, 'the run in the other channel');
  }, 180_000);

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
