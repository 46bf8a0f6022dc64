/**
 * The usage ledger on every backend (SQLite file, real Redis, real PostgreSQL): two processes adding
 * to one channel's row at once lose no addition, the day's totals count a channel and a user apart,
 * and a range of days reads back every row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, '../helpers/usage-child.mjs');
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
