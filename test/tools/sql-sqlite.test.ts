/**
 * The SQLite source on a real file: kinds and caps, the time limit, aborting, describe and ping,
 * and attacks: each refused by a named rule, the file byte-for-byte the same and nothing written
 * next to it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlSource } from '../../src/tools/sql/open.js';
import { SqliteSource } from '../../src/tools/sql/sqlite.js';
import { DEFAULT_SQL_LIMITS, SqlQueryError, SqlRefusedError } from '../../src/tools/sql/types.js';

let dir: string;
let file: string;
let shop: SqliteSource;
let digest: string;
const sha = () => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sql-sqlite-'));
  file = join(dir, 'shop.db');
  const seed = `
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript('''
CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL, placed_on TEXT, note TEXT, raw BLOB);
INSERT INTO orders VALUES (1, 12.5, '2024-03-01', 'first', x'00ff'), (2, 3, '2024-03-02', NULL, NULL), (3, NULL, NULL, 'ß ✓', NULL);
CREATE VIEW paid AS SELECT id, total FROM orders WHERE total IS NOT NULL;
''')
c.commit()
c.close()
`;
  execFileSync('/usr/bin/python3', ['-c', seed, file]);
  shop = new SqliteSource('shop', file);
  digest = sha();
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SQLite source', () => {
  it('is opened from sqlite:/// URLs', () => {
    const source = openSqlSource({ name: 'shop', url: `sqlite://${file}` });
    expect(source).toBeInstanceOf(SqliteSource);
    expect((source as SqliteSource).path).toBe(file);
    expect(() => openSqlSource({ name: 'x', url: 'mysql://u:pw@h/db' })).toThrow('tools.sql.sources.x.url: expected postgresql://… or sqlite:///path.db, not mysql:');
  });

  it('returns columns with kinds from the values, parameters bound', async () => {
    const r = await shop.query('SELECT id, total, placed_on, note, raw FROM orders WHERE id >= ? ORDER BY id', [1], DEFAULT_SQL_LIMITS);
    expect(r.columns.map((c) => [c.name, c.type])).toEqual([['id', 'int'], ['total', 'float'], ['placed_on', 'text'], ['note', 'text'], ['raw', 'bytes']]);
    expect(r.rows).toEqual([
      [1, 12.5, '2024-03-01', 'first', 'AP8='],
      [2, 3, '2024-03-02', null, null],
      [3, null, null, 'ß ✓', null],
    ]);
  });

  it('keeps big integers exact, mixed columns as text, and an empty result\'s columns', async () => {
    const r = await shop.query("SELECT 9007199254740993 AS big, 1 AS m UNION ALL SELECT 1, 'x'", [], DEFAULT_SQL_LIMITS);
    expect(r.columns.map((c) => c.type)).toEqual(['int', 'other']);
    expect(r.rows).toEqual([['9007199254740993', '1'], [1, 'x']]);
    const empty = await shop.query('SELECT id, note FROM orders WHERE 0', [], DEFAULT_SQL_LIMITS);
    expect([empty.columns.map((c) => c.name), empty.rows]).toEqual([['id', 'note'], []]);
  });

  it('stops a million-row result at the row cap, and at the byte cap', async () => {
    const million = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT i, hex(randomblob(100)) FROM n';
    const r = await shop.query(million, [], { ...DEFAULT_SQL_LIMITS, maxRows: 20_000 });
    expect([r.rows.length, r.truncated]).toEqual([20_000, true]);
    expect(r.note).toMatch(/stopped at 20000 rows \(the row cap\)/);
    const b = await shop.query(million, [], { ...DEFAULT_SQL_LIMITS, maxBytes: 500_000 });
    expect(b.truncated).toBe(true);
    expect(JSON.stringify(b.rows).length).toBeLessThanOrEqual(500_000);
    expect(b.note).toMatch(/byte cap/);
  });

  it('refuses a single value past the byte cap', async () => {
    await expect(shop.query('SELECT randomblob(50000000)', [], { ...DEFAULT_SQL_LIMITS, maxBytes: 1_000_000 })).rejects.toThrow('the database refused the query: string or blob too big');
  });

  it('stops an endless query at the time limit', async () => {
    const t0 = Date.now();
    const err = await shop.query('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n', [], { ...DEFAULT_SQL_LIMITS, timeoutMs: 1500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlQueryError);
    expect((err as SqlQueryError).timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(8000);
  });

  it('keeps a large DISTINCT in its bounded memory, never in temp files on the host: it fails with a clear reason', async () => {
    // ~400 MB of distinct values (the reader may use 256 MB + 8 × the byte cap); spilled to a temp file this would succeed
    const err = await shop.query('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500000) SELECT count(DISTINCT hex(randomblob(400))) FROM n', [], { maxRows: 10, maxBytes: 1000, timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlQueryError);
    expect((err as SqlQueryError).message).toMatch(/needs more memory than the reader may use \(256 MB\)/);
  }, 90_000);

  it('stops when the execution aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(shop.query('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n', [], DEFAULT_SQL_LIMITS, controller.signal))
      .rejects.toThrow(/execution ended/);
  });

  it('describes tables and views with their columns; pings; a missing file fails clearly', async () => {
    expect(await shop.describe()).toBe('shop (SQLite), 2 tables:\n  orders(id integer, total real, placed_on text, note text, raw blob)\n  paid(id integer, total real)');
    await shop.ping();
    await expect(new SqliteSource('gone', join(dir, 'missing.db')).ping()).rejects.toThrow(`no SQLite file at ${join(dir, 'missing.db')}`);
    // a relative path is read from the working directory, and the message says so
    const relative = openSqlSource({ name: 'rel', url: 'sqlite://missing-here.db' });
    expect((relative as SqliteSource).path).toBe(join(process.cwd(), 'missing-here.db'));
    await expect(relative.ping()).rejects.toThrow(`no SQLite file at ${join(process.cwd(), 'missing-here.db')} ("missing-here.db" is read from the directory code-agent runs in`);
    // a query on a missing file fails without naming the host path (the program sees this message)
    await expect(new SqliteSource('gone', join(dir, 'missing.db')).query('SELECT 1', [], { maxRows: 1, maxBytes: 100, timeoutMs: 5000 })).rejects.toThrow(/cannot open the database/);
    expect(readdirSync(dir)).toEqual(['shop.db']);
  });

  it.each([
    ['DELETE FROM orders', 'read only'],
    ["UPDATE orders SET note = 'x'", 'read only'],
    ['INSERT INTO orders (id) VALUES (9)', 'read only'],
    ['DROP TABLE orders', 'read only'],
    ['CREATE TABLE t (a)', 'read only'],
    ['SELECT 1; DELETE FROM orders', 'one statement'],
    ['BEGIN', 'read only'],
    ["ATTACH 'DIR/other.db' AS o", 'read only'],
    ["VACUUM INTO 'DIR/copy.db'", 'read only'],
    ['PRAGMA query_only = 0', 'read only'],
    ['PRAGMA writable_schema = 1', 'read only'],
    ['ANALYZE', 'read only'],
    ['/* x */ -- y\n  REINDEX', 'read only'],
    ['REINDEX', 'read only'],
    ["SELECT load_extension('DIR/evil')", 'function'],
    ['WITH d AS (SELECT 1) DELETE FROM orders', 'read only'],
  ])('refuses %s (%s); the file unchanged', async (template, rule) => {
    const err = await shop.query(template.replaceAll('DIR', dir), [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlRefusedError);
    expect((err as SqlRefusedError).rule).toBe(rule);
    expect(sha()).toBe(digest);
    expect(readdirSync(dir)).toEqual(['shop.db']);
  });
});
