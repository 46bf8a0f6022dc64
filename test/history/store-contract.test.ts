/**
 * One contract for every history backend, run against real servers: SQLite (a temp file),
 * redis-server and PostgreSQL (started on free ports by the test). Includes two processes writing
 * one conversation's index and claiming the same event ids at the same moment.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { openBackend } from '../../src/history/backends.js';
import type { Run } from '../../src/history/types.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

const run = promisify(execFile);
const CHILD = resolve('test/helpers/store-child.mjs');

function makeRun(id: string, conversationId: string, status: Run['status'] = 'success'): Run {
  const now = new Date().toISOString();
  return { id, conversationId, requirement: `req ${id}`, status, attempts: [], createdAt: now, updatedAt: now };
}

async function sqliteServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-sqlite-'));
  return { url: `sqlite://${join(dir, 'history.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const BACKENDS = [
  { name: 'sqlite', start: sqliteServer },
  { name: 'redis', start: startRedis },
  { name: 'postgres', start: startPostgres },
];

describe.each(BACKENDS)('history store contract on $name', ({ start }) => {
  let server: TestServer;
  let n = 0;
  /** A conversation id no other test of this suite uses. */
  const fresh = () => `test:conv${++n}:${Date.now()}`;

  /** Opens a store, passes it to `fn`, closes it (@keyv/postgres keeps one pool per process: one open store at a time). */
  async function withStore<T>(fn: (store: KeyvHistoryStore) => Promise<T>): Promise<T> {
    const store = await KeyvHistoryStore.open(server.url);
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps runs per conversation, newest first; an update does not duplicate; survives reopening', async () => {
    const a = fresh();
    const b = fresh();
    await withStore(async (store) => {
      await store.saveRun(makeRun('r1', a));
      await store.saveRun(makeRun('r2', a));
      await store.saveRun(makeRun('x1', b));
      await store.saveRun(makeRun('r1', a, 'failed'));
      await store.linkThread(b, '1700000000.000100', 'x1');
    });
    await withStore(async (reopened) => {
      const runs = await reopened.listRuns(a);
      expect(runs.map((r) => r.id)).toEqual(['r2', 'r1']);
      expect(runs[1]!.status).toBe('failed');
      expect((await reopened.listRuns(a, 1)).map((r) => r.id)).toEqual(['r2']);
      expect((await reopened.listRuns(b)).map((r) => r.id)).toEqual(['x1']);
      expect((await reopened.findRunByThread(b, '1700000000.000100'))?.id).toBe('x1');
      expect(await reopened.findRunByThread(b, 'nope')).toBeUndefined();
      expect(await reopened.getRun(a, 'missing')).toBeUndefined();
    });
  });

  it('claims an event id once among concurrent claims, and again after its TTL', async () => {
    const id = `ev-${fresh()}`;
    await withStore(async (store) => {
      const seen = await Promise.all(Array.from({ length: 10 }, () => store.markEventSeen(id, 300)));
      expect(seen.filter(Boolean)).toHaveLength(1);
      expect(await store.markEventSeen(`${id}-other`, 300)).toBe(true);
      await new Promise((r) => setTimeout(r, 400));
      expect(await store.markEventSeen(id, 300)).toBe(true);
      expect(await store.markEventSeen(id, 300)).toBe(false);
    });
  });

  it('keeps the newest entries of an index when it is capped, and moves an index of the earlier layout', async () => {
    const { adapter, atomics } = await openBackend(server.url);
    const keyv = new Keyv({ store: adapter, namespace: 'code-agent' });
    try {
      const capped = fresh();
      for (const id of ['a', 'b', 'c', 'b', 'd']) await atomics.append(capped, id, 3);
      expect(await atomics.recent(capped, 10)).toEqual(['b', 'c', 'd']);
      expect(await atomics.recent(capped, 2)).toEqual(['c', 'd']);

      // before: the index was a Keyv value `runs:<conversation>`, oldest first
      const legacy = fresh();
      for (const id of ['old1', 'old2']) await keyv.set(`run:${legacy}:${id}`, makeRun(id, legacy));
      await keyv.set(`runs:${legacy}`, ['old1', 'old2']);
      await keyv.disconnect();
      await withStore(async (reader) => {
        await reader.saveRun(makeRun('new1', legacy));
        expect((await reader.listRuns(legacy)).map((r) => r.id)).toEqual(['new1', 'old2', 'old1']);
        // moved: a second reader does not import it again
        await reader.saveRun(makeRun('new2', legacy));
      });
      await withStore(async (reader) => {
        expect((await reader.listRuns(legacy)).map((r) => r.id)).toEqual(['new2', 'new1', 'old2', 'old1']);
      });
    } finally {
      await atomics.close();
    }
  });

  it('loses no index entry and claims each event once when two processes write at the same moment', async () => {
    requireBuiltCli();
    const conv = fresh();
    const events = `shared-${conv}-`;
    const startAt = String(Date.now() + 1500);
    const children = ['p1-', 'p2-'].map((prefix) => run(process.execPath, [CHILD, server.url, conv, prefix, '50', events, '20', startAt]));
    const outputs = await Promise.all(children);
    const claimed = outputs.flatMap((o) => (JSON.parse(o.stdout) as { claimed: string[] }).claimed);
    expect(claimed.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `${events}${i}`).sort());
    const ids = await withStore(async (store) => (await store.listRuns(conv, 500)).map((r) => r.id));
    expect(ids).toHaveLength(100);
    expect(new Set(ids)).toEqual(new Set([...Array.from({ length: 50 }, (_, i) => `p1-${i}`), ...Array.from({ length: 50 }, (_, i) => `p2-${i}`)]));
  });
});
