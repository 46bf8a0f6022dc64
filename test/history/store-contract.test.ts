/**
 * One contract for every history backend, run against real servers: SQLite (a temp file),
 * redis-server and PostgreSQL (started on free ports by the test). Includes two processes writing
 * one conversation's index and claiming the same event ids at the same moment.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { openBackend } from '../../src/history/backends.js';
import type { Run } from '../../src/history/types.js';
import { contentHash, WorkspaceLimitError, type NewWorkspaceFile } from '../../src/history/workspace.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

const run = promisify(execFile);
const CHILD = resolve('test/helpers/store-child.mjs');
const TURN_CHILD = resolve('test/helpers/turn-child.mjs');

function makeRun(id: string, conversationId: string, status: Run['status'] = 'success'): Run {
  const now = new Date().toISOString();
  return { id, conversationId, requirement: `req ${id}`, status, attempts: [], createdAt: now, updatedAt: now };
}

async function sqliteServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-sqlite-'));
  return { url: `sqlite://${join(dir, 'history.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const AT = '2026-01-01T00:00:00.000Z';
const given = (name: string, text: string, turn = 1): NewWorkspaceFile => ({ name, content: Buffer.from(text), origin: { kind: 'input', turn, at: AT } });
const written = (name: string, text: string, attempt: number): NewWorkspaceFile => ({
  name,
  content: Buffer.from(text),
  origin: { kind: 'written', attempt, turn: 1, at: AT },
});

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
      // a chat links a new run's thread before the agent stores the run
      await store.linkThread(b, '1700000000.000200', 'not-stored-yet');
    });
    await withStore(async (reopened) => {
      const runs = await reopened.listRuns(a);
      expect(runs.map((r) => r.id)).toEqual(['r2', 'r1']);
      expect(runs[1]!.status).toBe('failed');
      expect((await reopened.listRuns(a, 1)).map((r) => r.id)).toEqual(['r2']);
      expect((await reopened.listRuns(b)).map((r) => r.id)).toEqual(['x1']);
      expect((await reopened.findRunByThread(b, '1700000000.000100'))?.id).toBe('x1');
      expect(await reopened.findRunByThread(b, 'nope')).toBeUndefined();
      expect(await reopened.threadRunId(b, '1700000000.000100')).toBe('x1');
      expect(await reopened.findRunByThread(b, '1700000000.000200')).toBeUndefined();
      expect(await reopened.threadRunId(b, '1700000000.000200')).toBe('not-stored-yet');
      expect(await reopened.threadRunId(b, 'nope')).toBeUndefined();
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

  it('keeps a run\'s workspace: contents once per hash, a newer file replaces an older, another store reads it', async () => {
    const conv = fresh();
    const { adapter, atomics } = await openBackend(server.url);
    const raw = new Keyv({ store: adapter, namespace: 'code-agent' });
    const blob = (text: string) => raw.get(`blob:${conv}:r1:${contentHash(Buffer.from(text))}`);
    try {
      await withStore(async (store) => {
        await store.saveRun(makeRun('r1', conv));
        expect(await store.getWorkspace(conv, 'r1')).toEqual({ files: [] });
        const first = await store.putWorkspaceFiles(conv, 'r1', [given('inventory.csv', 'sku\na\n'), given('notes.txt', 'same')]);
        expect(first.added).toEqual(['inventory.csv', 'notes.txt']);
        // an artifact with the content of an input: one stored content; the same file again changes nothing
        const second = await store.putWorkspaceFiles(conv, 'r1', [written('copy.txt', 'same', 1), given('inventory.csv', 'sku\na\n', 2)]);
        expect(second.added).toEqual(['copy.txt']);
        expect(second.replaced).toEqual([]);
        const third = await store.putWorkspaceFiles(conv, 'r1', [given('inventory.csv', 'sku\na\nb\n', 2)]);
        expect(third.replaced.map((f) => [f.name, f.bytes])).toEqual([['inventory.csv', 6]]);
        expect(third.manifest.files.map((f) => f.name)).toEqual(['notes.txt', 'copy.txt', 'inventory.csv']);
      });
      // the replaced content is gone, the shared one stays
      expect(await blob('sku\na\n')).toBeUndefined();
      expect(await blob('same')).toBe(Buffer.from('same').toString('base64'));
      await withStore(async (other) => {
        const manifest = await other.getWorkspace(conv, 'r1');
        expect(manifest.files.map((f) => [f.name, f.bytes, f.origin.kind])).toEqual([
          ['notes.txt', 4, 'input'],
          ['copy.txt', 4, 'written'],
          ['inventory.csv', 8, 'input'],
        ]);
        expect(manifest.files[1]!.origin).toEqual({ kind: 'written', attempt: 1, turn: 1, at: AT });
        const files = await other.readWorkspace(conv, 'r1');
        expect(files.map((f) => [f.name, f.content.toString()])).toEqual([
          ['notes.txt', 'same'],
          ['copy.txt', 'same'],
          ['inventory.csv', 'sku\na\nb\n'],
        ]);
        // removing a file keeps a content another file still uses, and drops one nobody uses
        expect(await other.removeWorkspaceFile(conv, 'r1', 'notes.txt')).toBe(true);
        expect(await other.removeWorkspaceFile(conv, 'r1', 'notes.txt')).toBe(false);
        expect(await blob('same')).toBeDefined();
        expect(await other.removeWorkspaceFile(conv, 'r1', 'copy.txt')).toBe(true);
        expect(await blob('same')).toBeUndefined();
        // deleting the run takes its files
        expect(await other.deleteRun(conv, 'r1')).toBe(true);
        expect(await other.getRun(conv, 'r1')).toBeUndefined();
        expect(await other.listRuns(conv)).toEqual([]);
        expect(await other.getWorkspace(conv, 'r1')).toEqual({ files: [] });
        expect(await blob('sku\na\nb\n')).toBeUndefined();
        expect(await other.deleteRun(conv, 'r1')).toBe(false);
      });
    } finally {
      await raw.disconnect().catch(() => undefined);
      await atomics.close();
    }
  });

  it('refuses a change past a run\'s bound with a clear message, writing nothing; keeps a conversation within its bound', async () => {
    const conv = fresh();
    const limits = { maxFiles: 2, maxBytes: 10, maxConversationBytes: 15 };
    await withStore(async (store) => {
      await store.putWorkspaceFiles(conv, 'a', [given('one.txt', '12345')], limits);
      const before = await store.getWorkspace(conv, 'a');
      await expect(store.putWorkspaceFiles(conv, 'a', [given('two.txt', '1'), given('three.txt', '1')], limits)).rejects.toThrow(
        /3 files; the limit is 2 \(workspace\.max_files\)/,
      );
      await expect(store.putWorkspaceFiles(conv, 'a', [given('big.txt', '123456')], limits)).rejects.toThrow(WorkspaceLimitError);
      await expect(store.putWorkspaceFiles(conv, 'a', [given('big.txt', '123456')], limits)).rejects.toThrow(/workspace\.max_bytes/);
      expect(await store.getWorkspace(conv, 'a')).toEqual(before);
      // the conversation's bound counts the other runs' workspaces: past it, the oldest other runs lose theirs
      await store.putWorkspaceFiles(conv, 'a0', [given('old.txt', '1234')], limits);
      expect((await store.putWorkspaceFiles(conv, 'b', [given('b.txt', '123456')], limits)).evicted).toEqual([]); // 5 + 4 + 6 = 15
      const put = await store.putWorkspaceFiles(conv, 'a', [given('more.txt', '1')], limits);
      expect(put.evicted).toEqual(['a0']);
      expect(await store.getWorkspace(conv, 'a0')).toEqual({ files: [] });
      expect((await store.getWorkspace(conv, 'b')).files.map((f) => f.name)).toEqual(['b.txt']);
      expect((await store.getWorkspace(conv, 'a')).files.map((f) => f.name)).toEqual(['one.txt', 'more.txt']);
      // deleting a run frees its share
      await store.deleteRun(conv, 'b');
      expect((await store.putWorkspaceFiles(conv, 'a', [given('more.txt', '12345')], limits)).evicted).toEqual([]); // 5 + 5 ≤ 15
    });
  });

  it('gives a run\'s turn to one owner at a time; the owner renews it; an expired lease is taken over', async () => {
    const runId = `turn-${fresh()}`;
    await withStore(async (store) => {
      const taken = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((owner) => store.takeTurn(runId, owner, 400)));
      expect(taken.filter(Boolean)).toHaveLength(1);
      const holder = ['w1', 'w2', 'w3', 'w4'][taken.indexOf(true)]!;
      const other = holder === 'w1' ? 'w2' : 'w1';
      expect(await store.takeTurn(runId, holder, 400)).toBe(true); // renewed
      await store.releaseTurn(runId, other); // not the holder: nothing happens
      expect(await store.takeTurn(runId, other, 400)).toBe(false);
      await store.releaseTurn(runId, holder);
      expect(await store.takeTurn(runId, other, 300)).toBe(true);
      // the holder stops renewing (a killed process): the lease expires
      await new Promise((r) => setTimeout(r, 450));
      expect(await store.takeTurn(runId, holder, 300)).toBe(true);
      expect(await store.takeTurn(runId, other, 300)).toBe(false);
    });
  });

  it('a turn lease left by a killed process blocks the run until it expires, then is taken', async () => {
    requireBuiltCli();
    const runId = `killed-${fresh()}`;
    const child = spawn(process.execPath, [TURN_CHILD, server.url, runId, '4000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const held = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
    expect(held).toBe('held');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await withStore(async (store) => {
      expect(await store.takeTurn(runId, 'next', 1000)).toBe(false);
      const started = Date.now();
      while (!(await store.takeTurn(runId, 'next', 1000))) {
        expect(Date.now() - started).toBeLessThan(10_000);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  });
});
