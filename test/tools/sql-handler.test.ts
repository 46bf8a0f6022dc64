/**
 * The `/sql` route's handler on a real SQLite file: payload checks (400), sources a conversation may
 * not use (403), refusals with their rule (400), database errors (422), the time limit (504), and the
 * record: a one-line summary without the source's URL; and the engine over configured sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlSources } from '../../src/tools/sql/engine.js';
import { handleSqlCall } from '../../src/tools/sql/handler.js';
import { openSqlSource } from '../../src/tools/sql/open.js';
import { DEFAULT_SQL_LIMITS, type SqlSource } from '../../src/tools/sql/types.js';

let dir: string;
let sources: Map<string, SqlSource>;
const allowed = (name: string) => name === 'shop';
const call = (payload: unknown, limits = DEFAULT_SQL_LIMITS) => handleSqlCall(sources, allowed, payload, limits);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sql-handler-'));
  const seed = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(\"CREATE TABLE orders (id INTEGER, total REAL); INSERT INTO orders VALUES (1, 2.5), (2, 3), (3, 4);\")\nc.commit()";
  for (const db of ['shop', 'hr']) execFileSync('/usr/bin/python3', ['-c', seed, join(dir, `${db}.db`)]);
  sources = new Map(['shop', 'hr'].map((name) => [name, openSqlSource({ name, url: `sqlite://${join(dir, `${name}.db`)}` })]));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('handleSqlCall', () => {
  it('runs a query: 200, the rows, and a one-line record', async () => {
    const out = await call({ source: 'shop', query: 'SELECT id, total FROM orders WHERE id <= ? ORDER BY id', params: [3] });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({
      columns: [{ name: 'id', type: 'int', dbType: 'integer' }, { name: 'total', type: 'float', dbType: 'real' }],
      rows: [[1, 2.5], [2, 3], [3, 4]],
      truncated: false,
    });
    expect(out.record.summary).toMatch(/^sql shop: 1 query, 3 rows, \d+ ms$/);
    expect(out.record.ok).toBe(true);
    expect(out.record.bytes).toBe(Buffer.byteLength(JSON.stringify(out.body)));
    expect(JSON.stringify(out)).not.toContain(dir);
  });

  it('says when the rows were capped', async () => {
    const out = await call({ source: 'shop', query: 'SELECT id FROM orders' }, { ...DEFAULT_SQL_LIMITS, maxRows: 2 });
    expect(out.body).toMatchObject({ truncated: true, note: expect.stringMatching(/stopped at 2 rows \(the row cap\)/) });
    expect(out.record.summary).toMatch(/^sql shop: 1 query, 2 rows \(truncated\), \d+ ms$/);
  });

  it.each([
    [null, 'expected a JSON object {source, query, params?}'],
    [[1], 'expected a JSON object {source, query, params?}'],
    [{ query: 'SELECT 1' }, 'source: expected the name of a SQL source (a non-empty string)'],
    [{ source: 'shop' }, 'query: expected SQL text (a non-empty string)'],
    [{ source: 'shop', query: '  ' }, 'query: expected SQL text (a non-empty string)'],
    [{ source: 'shop', query: 'SELECT 1', params: 'x' }, 'params: expected a list of values, or none'],
    [{ source: 'shop', query: 'SELECT ?', params: [{ a: 1 }] }, 'params[0]: expected a string, number, boolean, null or a list of them (dates and decimals as text)'],
    [{ source: 'shop', query: 'SELECT 1', sql: 'x' }, 'unexpected field "sql": expected {source, query, params?}'],
    [{ source: 'shop', query: 'x'.repeat(100_001) }, 'query: 100001 characters, more than the 100000 allowed'],
  ])('400 for a bad payload %#', async (payload, error) => {
    const out = await call(payload);
    expect([out.status, out.body]).toEqual([400, { error }]);
    expect(out.record.ok).toBe(false);
  });

  it('403 for a source this conversation may not use, or none configured, naming the ones it may', async () => {
    for (const source of ['hr', 'nope']) {
      const out = await call({ source, query: 'SELECT 1' });
      expect([out.status, out.body]).toEqual([403, { error: `unknown SQL source "${source}": this conversation may use "shop"` }]);
      expect(out.record.summary).toBe(`sql ${source}: refused (not a source this conversation may use)`);
    }
    const none = await handleSqlCall(sources, () => false, { source: 'shop', query: 'SELECT 1' }, DEFAULT_SQL_LIMITS);
    expect(none.body).toEqual({ error: 'unknown SQL source "shop": this conversation may use no SQL source' });
  });

  it('400 with the rule for a refused statement; 422 for a database error; 504 for the time limit', async () => {
    const refused = await call({ source: 'shop', query: 'DELETE FROM orders' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ rule: 'read only', error: expect.stringMatching(/^DELETE is not allowed/) });
    expect(refused.record.summary).toBe('sql shop: 1 query refused (read only)');
    const failed = await call({ source: 'shop', query: 'SELECT nope FROM orders' });
    expect([failed.status, failed.body]).toEqual([422, { error: 'the database refused the query: no such column: nope' }]);
    expect(failed.record.summary).toBe('sql shop: 1 query failed (the database refused the query: no such column: nope)');
    const slow = await call({ source: 'shop', query: 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n' }, { ...DEFAULT_SQL_LIMITS, timeoutMs: 500 });
    expect(slow.status).toBe(504);
    expect(slow.body).toEqual({ error: 'the query ran longer than the 0.5 s time limit and was stopped: filter, aggregate or LIMIT it' });
  });

  it('keeps control characters and long names out of the record', async () => {
    const out = await call({ source: `x\n${'y'.repeat(100)}`, query: 'SELECT 1' });
    expect(out.record.summary).toBe(`sql x?${'y'.repeat(62)}…: refused (not a source this conversation may use)`);
  });
});

describe('SqlSources (the engine)', () => {
  it('applies each source its own limits, describes and pings by name', async () => {
    const engine = new SqlSources({
      shop: { url: `sqlite://${join(dir, 'shop.db')}`, max_rows: 2 },
      hr: { url: `sqlite://${join(dir, 'hr.db')}`, timeout_s: 5, max_result_mb: 1 },
    });
    try {
      expect(engine.names).toEqual(['shop', 'hr']);
      expect(engine.limitsOf('hr')).toEqual({ maxRows: 100_000, maxBytes: 1024 * 1024, timeoutMs: 5000 });
      const shop = await engine.call(() => true, { source: 'shop', query: 'SELECT id FROM orders' });
      expect(shop.body).toMatchObject({ rows: [[1], [2]], truncated: true });
      expect(shop.record).toMatchObject({ tool: 'sql', ok: true });
      const hr = await engine.call(() => true, { source: 'hr', query: 'SELECT id FROM orders' });
      expect(hr.body).toMatchObject({ rows: [[1], [2], [3]], truncated: false });
      expect(await engine.describe('hr')).toBe('hr (SQLite), 1 table:\n  orders(id integer, total real)');
      await engine.ping('shop');
      await expect(engine.describe('nope')).rejects.toThrow('no SQL source named "nope"');
    } finally {
      await engine.close();
    }
  });

  it('refuses a URL of another kind, naming the source but not the URL', () => {
    expect(() => new SqlSources({ crm: { url: 'mysql://admin:hunter2@db/crm' } })).toThrow(/^tools\.sql\.sources\.crm\.url: expected postgresql:\/\/… or sqlite:\/\/\/path\.db, not mysql:$/);
    for (const url of ['postgresql://admin:hunter2@db:99999/crm', 'postgresql://admin:hunter2@[db/crm']) {
      expect(() => new SqlSources({ crm: { url } })).toThrow(/^tools\.sql\.sources\.crm\.url: not a valid URL \(expected postgresql:\/\/user:password@host:port\/database; a password with reserved characters is written %-encoded\)$/);
    }
  });
});
