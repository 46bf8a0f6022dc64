import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { describe, expect, it } from 'vitest';
import { CorruptRecordError, KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { HistoryError, type Run } from '../../src/history/types.js';

function makeRun(id: string, conversationId = 'cli:test'): Run {
  const now = new Date().toISOString();
  return { id, conversationId, requirement: `req ${id}`, status: 'success', attempts: [], createdAt: now, updatedAt: now };
}

function sqliteUrl(): { url: string; file: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'hist-')), 'nested', 'history.sqlite');
  return { url: `sqlite://${file}`, file };
}

function exec(file: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file);
    db.exec(sql, (err) => db.close(() => (err ? reject(err) : resolve())));
  });
}

describe('KeyvHistoryStore on sqlite', () => {
  it('keeps runs per conversation, newest first, across a restart', async () => {
    const { url } = sqliteUrl();
    const store = await KeyvHistoryStore.open(url);
    await store.saveRun(makeRun('a'));
    await store.saveRun(makeRun('b'));
    await store.saveRun(makeRun('x', 'slack:T:C'));
    await store.saveRun({ ...makeRun('a'), status: 'failed' }); // update does not duplicate
    await store.linkThread('slack:T:C', '1700000000.000100', 'x');
    await store.close();

    const reopened = await KeyvHistoryStore.open(url);
    const runs = await reopened.listRuns('cli:test');
    expect(runs.map((r) => r.id)).toEqual(['b', 'a']);
    expect(runs[1]!.status).toBe('failed');
    expect((await reopened.listRuns('slack:T:C')).map((r) => r.id)).toEqual(['x']);
    expect((await reopened.findRunByThread('slack:T:C', '1700000000.000100'))?.id).toBe('x');
    expect(await reopened.findRunByThread('slack:T:C', 'nope')).toBeUndefined();
    expect(await reopened.getRun('cli:test', 'missing')).toBeUndefined();
    await reopened.close();
  });

  it('runs a repeated event once, and again after the TTL', async () => {
    const store = new KeyvHistoryStore(new Map());
    const seen = await Promise.all([store.markEventSeen('Ev1', 200), store.markEventSeen('Ev1', 200)]);
    expect(seen.sort()).toEqual([false, true]);
    expect(await store.markEventSeen('Ev2', 200)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.markEventSeen('Ev1', 200)).toBe(true);
  });

  it('reports a corrupt record clearly, skips it in the list (the others are shown) and leaves it in place', async () => {
    const { url, file } = sqliteUrl();
    const store = await KeyvHistoryStore.open(url);
    for (const id of ['a', 'b', 'c']) await store.saveRun(makeRun(id));
    await store.close();
    await exec(file, `UPDATE keyv SET value = '{not json' WHERE key LIKE '%run:cli:test:a'`);
    await exec(file, `UPDATE keyv SET value = '{"value":{"id":"c","attempts":"nope"},"expires":null}' WHERE key LIKE '%run:cli:test:c'`);

    const logs: string[] = [];
    const reopened = await KeyvHistoryStore.open(url, (m) => logs.push(m));
    await expect(reopened.getRun('cli:test', 'a')).rejects.toBeInstanceOf(CorruptRecordError);
    await expect(reopened.getRun('cli:test', 'a')).rejects.toThrow(/history\.sqlite: the record of run a in cli:test is corrupt/);
    expect((await reopened.listRuns('cli:test')).map((r) => r.id)).toEqual(['b']);
    // one line per corrupt record, in whatever order the list read them
    expect([...logs].sort()).toEqual([
      expect.stringMatching(/history\.sqlite: the record of run a in cli:test is corrupt.*skipped/),
      expect.stringMatching(/history\.sqlite: the record of run c in cli:test is corrupt.*skipped/),
    ]);
    // a new run in the same conversation is saved and listed as usual
    await reopened.saveRun(makeRun('d'));
    expect((await reopened.listRuns('cli:test')).map((r) => r.id)).toEqual(['d', 'b']);
    await reopened.close();
    // the bytes are still there for a human to repair
    const raw = await new Promise<string>((resolve, reject) => {
      const db = new sqlite3.Database(file);
      db.get(`SELECT value FROM keyv WHERE key LIKE '%run:cli:test:a'`, (err, row: { value: string }) =>
        db.close(() => (err ? reject(err) : resolve(row.value))),
      );
    });
    expect(raw).toBe('{not json');
  });

  it('refuses a file that is not a database', async () => {
    const notDb = join(mkdtempSync(join(tmpdir(), 'notdb-')), 'history.sqlite');
    writeFileSync(notDb, 'this is not sqlite, just text '.repeat(200));
    await expect(KeyvHistoryStore.open(`sqlite://${notDb}`)).rejects.toThrow(/history\.sqlite.*(not a database|file is (encrypted|not))/i);
  });

  it('rejects an unknown store scheme', async () => {
    await expect(KeyvHistoryStore.open('mongodb://x')).rejects.toThrow(/unknown scheme/);
  });
});
