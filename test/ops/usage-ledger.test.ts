/**
 * The usage ledger on every backend (SQLite file, real Redis, real PostgreSQL): two processes adding
 * to one channel's row at once lose no addition, the day's totals count a channel and a user apart,
 * and a range of days reads back every row. Token reservations against the daily budgets, by
 * separate processes sharing the store: two processes reserving at once never hold more than a
 * channel's budget; settling releases what a call did not use; a reservation is all-or-nothing
 * across the channel's and the user's budgets; a process that dies with its reservations held
 * frees them when they expire, and a renewed one lives on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, '../helpers/usage-child.mjs');
const RESERVE_CHILD = join(import.meta.dirname, '../helpers/reserve-child.mjs');
/** Additions each process makes at once. */
const EACH = 150;

let dir: string;
let redis: TestServer;
let pg: TestServer;
beforeAll(async () => {
  requireBuiltCli();
  dir = await mkdtemp(join(tmpdir(), 'usage-ledger-'));
  [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([redis?.stop(), pg?.stop()]);
  await rm(dir, { recursive: true, force: true });
}, 60_000);

const backends: [string, () => string][] = [
  ['sqlite', () => `sqlite://${join(dir, 'ledger.sqlite')}`],
  ['redis', () => redis.url],
  ['postgresql', () => pg.url],
];

describe.each(backends)('the usage ledger on %s', (_name, url) => {
  it('two processes adding at once lose nothing', async () => {
    // the schema first, so the children do not race to create it
    await (await KeyvHistoryStore.open(url())).close();
    const startAt = String(Date.now() + 1500);
    const children = ['slack:T:U1', 'slack:T:U2'].map((user) => run(process.execPath, [CHILD, url(), '2030-01-02', 'slack:T:C1', user, String(EACH), startAt]));
    const outs = await Promise.all(children);
    for (const o of outs) expect(JSON.parse(o.stdout)).toEqual({ done: EACH });
    const store = await KeyvHistoryStore.open(url());
    try {
      const totals = await store.usage.totals({ day: '2030-01-02', channel: 'slack:T:C1', user: 'slack:T:U1' });
      expect(totals).toEqual({ channelTokens: 2 * EACH * 3, userTokens: EACH * 3 });
      const rows = await store.usage.rows('2030-01-01', '2030-01-03');
      expect(rows.map((r) => [r.user, r.runs, r.promptTokens, r.completionTokens]).sort()).toEqual([
        ['slack:T:U1', EACH, EACH, 2 * EACH],
        ['slack:T:U2', EACH, EACH, 2 * EACH],
      ]);
      // an addition returns the day's totals with itself in them; other days and channels apart
      const after = await store.usage.add({ day: '2030-01-02', channel: 'slack:T:C2', user: 'slack:T:U1' }, { promptTokens: 10, llmMs: 12.6, cpuMs: 0.4 });
      expect(after).toEqual({ channelTokens: 10, userTokens: EACH * 3 + 10 });
      await store.usage.add({ day: '2030-01-05', channel: 'slack:T:C1', user: 'slack:T:U1' }, { completionTokens: 7 });
      const all = await store.usage.rows('2030-01-01', '2030-01-31');
      expect(all).toHaveLength(4);
      expect(all.find((r) => r.channel === 'slack:T:C2')).toMatchObject({ day: '2030-01-02', promptTokens: 10, llmMs: 13, cpuMs: 0, runs: 0 });
      expect(await store.usage.rows('2030-01-03', '2030-01-04')).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});

interface ChildArgs { day: string; channel: string; user: string; count: number; tokens: number; limit: number; ttlMs: number; startAt: number }

/** Starts reserve-child.mjs; `reserved` resolves with what it printed; `settle()` lets it settle and resolves when it exited. */
function child(url: string, args: ChildArgs & { mode: 'settle' | 'leave' }) {
  const proc = spawn(process.execPath, [RESERVE_CHILD, url, args.day, args.channel, args.user, String(args.count), String(args.tokens), String(args.limit), String(args.ttlMs), String(args.startAt), args.mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve, reject) => proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`reserve-child exited with ${code}`)))));
  let out = '';
  const reserved = new Promise<{ held: number; refused: string[] }>((resolve, reject) => {
    proc.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    exited.then(() => (out.includes('\n') ? undefined : reject(new Error('reserve-child printed nothing'))), reject);
  });
  return {
    reserved,
    async settle() {
      proc.stdin.end('settle\n');
      await exited;
    },
    exited,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('token reservations on %s', (_name, url) => {
  it('two processes reserving at once never hold more than the channel budget; settling frees what calls did not use', async () => {
    await (await KeyvHistoryStore.open(url())).close(); // the schema first
    const day = '2030-02-01';
    const BUDGET = 10_000;
    const EACH = 700;
    const startAt = Date.now() + 1500;
    // 2 × 12 reservations of 700 = 16,800 asked at once on a 10,000 budget: exactly 14 fit
    const children = ['slack:T:U1', 'slack:T:U2'].map((user) => child(url(), { day, channel: 'slack:T:C1', user, count: 12, tokens: EACH, limit: BUDGET, ttlMs: 60_000, startAt, mode: 'settle' }));
    const outs = await Promise.all(children.map((c) => c.reserved));
    await Promise.all(children.map((c) => c.settle())); // once both have reserved
    const held = outs.reduce((n, o) => n + o.held, 0);
    expect(held).toBe(Math.floor(BUDGET / EACH));
    expect(outs.flatMap((o) => o.refused)).toEqual(Array(24 - held).fill('channel_day'));

    const store = await KeyvHistoryStore.open(url());
    try {
      // each held call settled to its real 300 tokens: the rest of its 700 is free again
      const key = { day, channel: 'slack:T:C1', user: 'slack:T:U3' };
      expect(await store.usage.totals(key)).toEqual({ channelTokens: held * 300, userTokens: 0 });
      const left = BUDGET - held * 300;
      expect(await store.usage.reserve({ id: randomUUID(), key, tokens: left + 1, channelLimit: BUDGET, ttlMs: 60_000 })).toEqual({
        held: false,
        budget: 'channel_day',
        limit: BUDGET,
        used: held * 300,
        reserved: 0,
      });
      const last = randomUUID();
      expect(await store.usage.reserve({ id: last, key, tokens: left, channelLimit: BUDGET, ttlMs: 60_000 })).toEqual({ held: true });
      expect(await store.usage.reserve({ id: randomUUID(), key, tokens: 1, channelLimit: BUDGET, ttlMs: 60_000 })).toMatchObject({ held: false, reserved: left });
      // settled with no usage (a failed call): all of it is free again
      await store.usage.settle(last, key, {});
      expect(await store.usage.reserve({ id: randomUUID(), key, tokens: left, channelLimit: BUDGET, ttlMs: 60_000 })).toEqual({ held: true });
    } finally {
      await store.close();
    }
  }, 60_000);

  it('is all-or-nothing across the channel and the user budgets', async () => {
    const store = await KeyvHistoryStore.open(url());
    try {
      const day = '2030-02-02';
      const alice = { day, channel: 'slack:T:C1', user: 'slack:T:UA' };
      await store.usage.add({ ...alice, channel: 'slack:T:C2' }, { promptTokens: 900 }); // alice spent 900 elsewhere today
      const limits = { channelLimit: 5000, userLimit: 1000, ttlMs: 60_000 };
      // fits the channel (0 + 200 ≤ 5000), not alice (900 + 200 > 1000): nothing is held anywhere
      expect(await store.usage.reserve({ id: randomUUID(), key: alice, tokens: 200, ...limits })).toEqual({ held: false, budget: 'user_day', limit: 1000, used: 900, reserved: 0 });
      const bob = { ...alice, user: 'slack:T:UB' };
      expect(await store.usage.reserve({ id: randomUUID(), key: bob, tokens: 5000, ...limits, userLimit: 5000 })).toEqual({ held: true });
      // alice's 100 would fit her budget, but the channel is now fully reserved by bob's call
      expect(await store.usage.reserve({ id: randomUUID(), key: alice, tokens: 100, ...limits })).toEqual({ held: false, budget: 'channel_day', limit: 5000, used: 0, reserved: 5000 });
    } finally {
      await store.close();
    }
  }, 60_000);

  it("frees a dead process's reservations when they expire, and keeps a renewed one", async () => {
    const day = '2030-02-03';
    const channel = 'slack:T:C1';
    // a process reserves 3 × 1,000 for 1.5 s and dies without settling
    const dead = child(url(), { day, channel, user: 'slack:T:U1', count: 3, tokens: 1000, limit: 5000, ttlMs: 1500, startAt: 0, mode: 'leave' });
    expect((await dead.reserved).held).toBe(3);
    await dead.exited;
    const store = await KeyvHistoryStore.open(url());
    try {
      const key = { day, channel, user: 'slack:T:U2' };
      expect(await store.usage.reserve({ id: randomUUID(), key, tokens: 2500, channelLimit: 5000, ttlMs: 60_000 })).toMatchObject({ held: false, reserved: 3000 });
      // a live call of this process: 1.5 s, renewed before it ends for 4 s more
      const mine = randomUUID();
      expect(await store.usage.reserve({ id: mine, key, tokens: 2000, channelLimit: 5000, ttlMs: 1500 })).toEqual({ held: true });
      await sleep(500);
      expect(await store.usage.renew(mine, key, 4000)).toBe(true);
      await sleep(1500); // the dead process's reservations have expired, and so would have ours without the renewal
      expect(await store.usage.reserve({ id: randomUUID(), key, tokens: 3001, channelLimit: 5000, ttlMs: 60_000 })).toMatchObject({ held: false, reserved: 2000 });
      expect(await store.usage.reserve({ id: randomUUID(), key, tokens: 3000, channelLimit: 5000, ttlMs: 60_000 })).toEqual({ held: true });
      // a reservation that is gone cannot be renewed
      expect(await store.usage.renew(randomUUID(), key, 3000)).toBe(false);
    } finally {
      await store.close();
    }
  }, 60_000);
});
