/**
 * Team programs on every history backend, against real servers: SQLite (a temp file), redis-server
 * and PostgreSQL (started on free ports), and the in-process store (a Map). A save creates v1 then
 * appends, programs are kept per conversation and survive reopening, removal keeps who and when
 * (and the name can be saved again as a new program), the bounds refuse with a clear message, and
 * saves racing from two connections never lose a version.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { ProgramRefusedError, type NewProgramVersion, type ProgramLimits } from '../../src/history/programs.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

async function sqliteServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'programs-sqlite-'));
  return { url: `sqlite://${join(dir, 'history.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** One Map shared by the stores of a test (the in-process backend: one process). */
async function inProcess(): Promise<TestServer> {
  return { url: 'map://', port: 0, stop: async () => {} };
}

const BACKENDS = [
  { name: 'in-process', start: inProcess },
  { name: 'sqlite', start: sqliteServer },
  { name: 'redis', start: startRedis },
  { name: 'postgres', start: startPostgres },
];

const version = (code: string, by = 'U1'): NewProgramVersion => ({
  code,
  request: 'revenue per region',
  inputs: { files: [{ name: 'sales.csv', fields: [{ name: 'region', type: 'str' }] }], sources: [], hosts: [] },
  parameters: [{ name: 'REGION', type: 'str', default: 'EU' }],
  runId: 'r-1',
  approvedBy: by,
  approvedByName: 'Alice',
  approvedAt: new Date().toISOString(),
});

describe.each(BACKENDS)('team programs on $name', ({ name, start }) => {
  let server: TestServer;
  let n = 0;
  const fresh = () => `test:prog${++n}:${Date.now()}`;
  const shared = new KeyvHistoryStore(new Map());
  const open = async () => (name === 'in-process' ? shared : KeyvHistoryStore.open(server.url));
  const close = async (store: KeyvHistoryStore) => (store === shared ? undefined : store.close());

  async function withStore<T>(fn: (store: KeyvHistoryStore) => Promise<T>): Promise<T> {
    const store = await open();
    try {
      return await fn(store);
    } finally {
      await close(store);
    }
  }

  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates v1, appends v2, keeps programs per conversation across reopening, and removes with who and when', async () => {
    const a = fresh();
    const b = fresh();
    await withStore(async (store) => {
      const v1 = await store.programs.save(a, 'revenue-by-region', version('print(1)'));
      expect(v1.versions.map((v) => [v.version, v.code])).toEqual([[1, 'print(1)']]);
      const v2 = await store.programs.save(a, 'revenue-by-region', version('print(2)', 'U2'));
      expect(v2.versions.map((v) => [v.version, v.approvedBy])).toEqual([[1, 'U1'], [2, 'U2']]);
      await store.programs.save(a, 'another', version('print(3)'));
      await store.programs.save(b, 'revenue-by-region', version('print("b")'));
    });
    await withStore(async (store) => {
      expect((await store.programs.list(a)).map((p) => [p.name, p.versions.length])).toEqual([['another', 1], ['revenue-by-region', 2]]);
      expect((await store.programs.get(b, 'revenue-by-region'))!.versions.map((v) => v.code)).toEqual(['print("b")']);
      expect(await store.programs.get(a, 'nothing')).toBeUndefined();
      // removed in one conversation, untouched in the other
      const removed = await store.programs.remove(a, 'revenue-by-region', 'U3', '2026-11-30T10:00:00.000Z');
      expect(removed).toMatchObject({ name: 'revenue-by-region', removedBy: 'U3', removedAt: '2026-11-30T10:00:00.000Z' });
      expect(await store.programs.remove(a, 'revenue-by-region', 'U3', 'x')).toBeUndefined();
      expect(await store.programs.get(a, 'revenue-by-region')).toBeUndefined();
      expect(await store.programs.get(b, 'revenue-by-region')).toBeDefined();
      expect((await store.programs.list(a)).map((p) => p.name)).toEqual(['another']);
      // the name saved again is a new program at v1; the removed one stays for the audit
      const again = await store.programs.save(a, 'revenue-by-region', version('print("new")'));
      expect(again.versions.map((v) => [v.version, v.code])).toEqual([[1, 'print("new")']]);
      const audit = await store.programs.list(a, true);
      expect(audit.map((p) => [p.name, p.removedBy ?? null, p.versions.length])).toEqual([
        ['another', null, 1],
        ['revenue-by-region', null, 1],
        ['revenue-by-region', 'U3', 2],
      ]);
    });
  });

  it('refuses a bad name, code too long and a program past the bound; keeps the newest versions', async () => {
    const a = fresh();
    const limits: ProgramLimits = { maxPrograms: 2, maxVersions: 3, maxCodeBytes: 100, maxRemoved: 10 };
    await withStore(async (store) => {
      await expect(store.programs.save(a, 'Bad Name', version('x'), limits)).rejects.toThrow(/"Bad Name" is not a program name: use lower-case letters/);
      await expect(store.programs.save(a, 'long', version('x'.repeat(101)), limits)).rejects.toThrow(/101 bytes long; a team program holds at most 100 bytes/);
      await store.programs.save(a, 'one', version('1'), limits);
      await store.programs.save(a, 'two', version('2'), limits);
      const refused = store.programs.save(a, 'three', version('3'), limits);
      await expect(refused).rejects.toBeInstanceOf(ProgramRefusedError);
      await expect(store.programs.save(a, 'three', version('3'), limits)).rejects.toThrow(/has 2 team programs, the most it may keep is 2: remove one first/);
      for (let i = 2; i <= 5; i++) await store.programs.save(a, 'one', version(`v${i}`), limits);
      expect((await store.programs.get(a, 'one'))!.versions.map((v) => v.version)).toEqual([3, 4, 5]);
      await store.programs.remove(a, 'two', 'U1', new Date().toISOString());
      await store.programs.save(a, 'three', version('3'), limits);
      expect((await store.programs.list(a)).map((p) => p.name)).toEqual(['one', 'three']);
    });
  });

  it('saves racing from two connections never lose a version', async () => {
    const a = fresh();
    const one = await open();
    const two = await open();
    try {
      const stores = [one, two];
      const saves = Array.from({ length: 12 }, (_, i) => stores[i % 2]!.programs.save(a, 'raced', version(`print(${i})`, `U${i}`)));
      await Promise.all(saves);
      const program = (await one.programs.get(a, 'raced'))!;
      expect(program.versions.map((v) => v.version)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(new Set(program.versions.map((v) => v.code)).size).toBe(12);
      // and two new programs racing for the last place: one lands, one is refused
      const limits: ProgramLimits = { maxPrograms: 2, maxVersions: 20, maxCodeBytes: 1000, maxRemoved: 10 };
      const raced = await Promise.allSettled([one.programs.save(a, 'x', version('1'), limits), two.programs.save(a, 'y', version('2'), limits)]);
      expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await two.programs.list(a)).length).toBe(2);
    } finally {
      await close(one);
      await close(two);
    }
  });
});
