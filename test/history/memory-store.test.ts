/**
 * Channel memory on every history backend, against real servers: SQLite (a temp file),
 * redis-server and PostgreSQL (started on free ports). Entries are kept per conversation, survive
 * reopening, forgetting keeps who removed it and when, the bounds refuse an entry with a message
 * naming the config key, and adds racing from two connections never pass a bound together.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { openBackend } from '../../src/history/backends.js';
import { MemoryEntryError, MemoryFullError, type MemoryLimits, type NewMemoryEntry } from '../../src/history/memory.js';
import { ChannelMemory } from '../../src/memory/channel-memory.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

async function sqliteServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-sqlite-'));
  return { url: `sqlite://${join(dir, 'history.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const BACKENDS = [
  { name: 'sqlite', start: sqliteServer },
  { name: 'redis', start: startRedis },
  { name: 'postgres', start: startPostgres },
];

const definition = (text: string, by = 'U1'): NewMemoryEntry => ({ kind: 'definition', text, addedBy: by, addedAt: new Date().toISOString() });

describe.each(BACKENDS)('channel memory on $name', ({ start }) => {
  let server: TestServer;
  let n = 0;
  const fresh = () => `test:mem${++n}:${Date.now()}`;

  async function withMemory<T>(fn: (memory: ChannelMemory, store: KeyvHistoryStore) => Promise<T>, limits?: MemoryLimits): Promise<T> {
    const store = await KeyvHistoryStore.open(server.url);
    try {
      return await fn(new ChannelMemory(store, limits ? { limits } : {}), store);
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

  it('keeps entries per conversation, oldest first, across reopening; forget keeps a tombstone with who and when', async () => {
    const a = fresh();
    const b = fresh();
    const [first, second] = await withMemory(async (memory) => {
      const first = await memory.remember(a, '  revenue =   units × unit_price ', 'U1');
      const second = await memory.remember(a, 'our fiscal year starts in April', 'U2');
      await memory.remember(b, 'EU means DE, FR, IT, ES and NL', 'U3');
      return [first, second];
    });
    expect(first.id).toMatch(/^m\d+$/);
    expect(second.id).not.toBe(first.id);
    await withMemory(async (memory) => {
      const listed = await memory.list(a);
      expect(listed.map((e) => [e.id, e.kind, e.text, e.addedBy])).toEqual([
        [first.id, 'definition', 'revenue = units × unit_price', 'U1'],
        [second.id, 'definition', 'our fiscal year starts in April', 'U2'],
      ]);
      expect(listed[0]!.bytes).toBeGreaterThan(0);
      // an id of one conversation is not found from another
      expect(await memory.forget(b, first.id, 'U9')).toBeUndefined();
      const gone = await memory.forget(a, first.id, 'U4');
      expect(gone).toMatchObject({ id: first.id, text: 'revenue = units × unit_price', addedBy: 'U1', removedBy: 'U4' });
      expect(await memory.forget(a, first.id, 'U4')).toBeUndefined(); // once
      expect(await memory.forget(a, 'not-an-id', 'U4')).toBeUndefined();
    });
    await withMemory(async (memory) => {
      expect((await memory.list(a)).map((e) => e.id)).toEqual([second.id]);
      const audit = await memory.list(a, true);
      expect(audit.map((e) => [e.id, e.removedBy ?? null])).toEqual([
        [first.id, 'U4'],
        [second.id, null],
      ]);
      expect(Date.parse(audit[0]!.removedAt!)).not.toBeNaN();
      expect((await memory.list(b)).map((e) => e.text)).toEqual(['EU means DE, FR, IT, ES and NL']);
      expect((await memory.recall(a, { request: 'sales of the fiscal year', files: '' })).definitions.map((d) => d.text)).toEqual(['our fiscal year starts in April']);
    });
  });

  it('refuses an entry past a bound with the config key, keeps room freed by forget, and refuses empty or long definitions', async () => {
    const limits: MemoryLimits = { maxEntries: 2, maxBytes: 100_000, maxDefinitionChars: 40, maxExampleBytes: 1000 };
    const a = fresh();
    await withMemory(async (memory) => {
      const one = await memory.remember(a, 'one', 'U1');
      await memory.remember(a, 'two', 'U1');
      await expect(memory.remember(a, 'three', 'U1')).rejects.toThrow(MemoryFullError);
      await expect(memory.remember(a, 'three', 'U1')).rejects.toThrow(/holds 2 entries, the limit is 2 \(memory\.max_entries\)/);
      await memory.forget(a, one.id, 'U2');
      await memory.remember(a, 'three', 'U1');
      expect((await memory.list(a)).map((e) => e.text)).toEqual(['two', 'three']);
      await expect(memory.remember(a, '   ', 'U1')).rejects.toThrow(MemoryEntryError);
      await expect(memory.remember(a, 'x'.repeat(41), 'U1')).rejects.toThrow(/41 characters long; the limit is 40 \(memory\.max_definition_chars\)/);
    }, limits);
    const b = fresh();
    await withMemory(async (memory) => {
      await memory.remember(b, 'a definition of some length', 'U1');
      await expect(memory.remember(b, 'another definition of some length', 'U1')).rejects.toThrow(/bytes used, this entry needs \d+ more, the limit is 200 \(memory\.max_bytes\)/);
      expect(await memory.list(b)).toHaveLength(1);
    }, { ...limits, maxBytes: 200 });
  });

  it("keeps a definition's approved helper across reopening: the same sentence and who added it, a new id, the old one forgotten by the approver", async () => {
    const c = fresh();
    const helper = { name: 'revenue', code: "def revenue(df):\n    return df['units'] * df['unit_price']", checked: 'sales.csv: a number for each of 3 rows', runId: 'r1' };
    const [before, kept] = await withMemory(async (memory) => {
      const before = await memory.remember(c, 'revenue = units × unit_price', 'U1');
      return [before, await memory.keepHelper(c, before.id, helper, 'U2')];
    });
    await withMemory(async (memory) => {
      const live = await memory.list(c);
      expect(live).toHaveLength(1);
      expect(live[0]).toMatchObject({ id: kept!.id, text: 'revenue = units × unit_price', addedBy: 'U1', addedAt: before.addedAt, helper: { ...helper, approvedBy: 'U2' } });
      expect(live[0]!.id).not.toBe(before.id);
      expect(await memory.forgotten(c, before.id)).toMatchObject({ removedBy: 'U2' });
      // a helper is written once: a second approval keeps the first
      const again = await memory.keepHelper(c, kept!.id, { ...helper, name: 'other' }, 'U3');
      expect(again!.helper!.name).toBe('revenue');
      expect(await memory.keepHelper(c, before.id, helper, 'U3')).toBeUndefined();
    });
  });

  it('adds racing from two connections never pass the bound together', async () => {
    const limits: MemoryLimits = { maxEntries: 5, maxBytes: 1_000_000, maxDefinitionChars: 300, maxExampleBytes: 16_000 };
    const a = fresh();
    const one = await openBackend(server.url);
    const two = await openBackend(server.url);
    try {
      const backends = [one.atomics.memory(), two.atomics.memory()];
      const outcomes = await Promise.allSettled(
        Array.from({ length: 16 }, (_, i) => backends[i % 2]!.add(a, definition(`d${i}`), 60, limits)),
      );
      const added = outcomes.filter((o) => o.status === 'fulfilled');
      expect(added).toHaveLength(5);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(MemoryFullError);
      expect(await backends[0]!.list(a, false)).toHaveLength(5);
      expect(new Set((await backends[1]!.list(a, false)).map((e) => e.id)).size).toBe(5);
    } finally {
      await one.atomics.close();
      await two.atomics.close();
    }
  });
});
