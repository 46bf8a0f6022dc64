/**
 * Stores written by earlier releases (test/fixtures/store/) opened by this one: a SQLite store from
 * before format versions is stamped 1 and every record reads as it was; a version-1 dump is
 * imported into real PostgreSQL and Redis with every record.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { importDump } from '../../src/history/transfer/import.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

const C = 'slack:T1:C1';
const RUN = 'mhiqz2a0-3c1f9e';
const FIXTURES = resolve('test/fixtures/store');

/** What every store holding the fixture's records shows. */
async function expectFixtureRecords(store: KeyvHistoryStore): Promise<void> {
  const run = await store.findRunByThread(C, '1762160400.000100');
  expect(run?.id).toBe(RUN);
  expect(run?.attempts.map((a) => [a.trigger, a.result?.success])).toEqual([['requirement', false], ['error', true]]);
  expect((await store.listRuns(C)).map((r) => r.id)).toEqual([RUN]);
  expect((await store.readWorkspace(C, RUN)).map((f) => [f.name, f.content.toString()])).toEqual([['sales.csv', 'region,amount\nnorth,5\n']]);
  expect((await store.memory.list(C, true)).map((e) => [e.text, e.removedBy])).toEqual([
    ['revenue = units × unit_price', undefined],
    ['quarters start in April', 'U2'],
  ]);
  expect((await store.programs.get(C, 'revenue-by-region'))?.versions).toHaveLength(1);
}

describe('stores written by earlier releases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-fixtures-'));
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens a SQLite store from before format versions: stamped 1, every record as it was', async () => {
    const file = join(dir, 'history.sqlite');
    copyFileSync(join(FIXTURES, 'v0-unversioned.sqlite'), file);
    const store = await KeyvHistoryStore.open(`sqlite://${file}`);
    try {
      expect(await store.formatVersion()).toBe(1);
      await expectFixtureRecords(store);
    } finally {
      await store.close();
    }
  });

  it.each([
    { name: 'postgres', start: startPostgres },
    { name: 'redis', start: startRedis },
  ])('imports a version-1 dump into $name with every record', async ({ start }) => {
    const server = await start();
    servers.push(server);
    const store = await KeyvHistoryStore.open(server.url);
    try {
      const report = await importDump(store, join(FIXTURES, 'v1-dump.jsonl'));
      expect(Object.fromEntries(Object.entries(report.kinds).map(([k, c]) => [k, c.imported]))).toEqual({ run: 1, thread: 1, workspace: 1, memory: 2, usage: 1, program: 1, schedule: 0 }); // a dump from before schedules were exported has none
      expect(report.skipped).toEqual([]);
      await expectFixtureRecords(store);
    } finally {
      await store.close();
    }
  }, 60_000);
});
