/**
 * The PostgreSQL source against a real server: types round-trip, parameters, the row and byte
 * caps on a million-row result, the time limit on a 60 s query, aborting, describe and ping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import pg from 'pg';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { closedPort } from '../helpers/net.js';
import { PostgresSource } from '../../src/tools/sql/postgres.js';
import { DEFAULT_SQL_LIMITS, SqlQueryError } from '../../src/tools/sql/types.js';
import { fingerprint, seedShop } from './sql-fixtures.js';

let server: TestServer;
let shop: PostgresSource;

beforeAll(async () => {
  server = await startPostgres();
  await seedShop(server.url);
  shop = new PostgresSource('shop', server.url, { privilegedRole: 'allow' });
});

afterAll(async () => {
  await shop?.close();
  await server?.stop();
});

describe('PostgreSQL source', () => {
  it('returns columns with their kinds and values that round-trip', async () => {
    const r = await shop.query('SELECT id, total, placed_on, placed_at, paid, note FROM orders WHERE id = ANY($1) ORDER BY id', [[1, 2, 3]], DEFAULT_SQL_LIMITS);
    expect(r.columns).toEqual([
      { name: 'id', type: 'int', dbType: 'int4' },
      { name: 'total', type: 'decimal', dbType: 'numeric' },
      { name: 'placed_on', type: 'date', dbType: 'date' },
      { name: 'placed_at', type: 'timestamptz', dbType: 'timestamptz' },
      { name: 'paid', type: 'bool', dbType: 'bool' },
      { name: 'note', type: 'text', dbType: 'text' },
    ]);
    expect(r.rows).toEqual([
      [1, '12.50', '2024-03-01', '2024-03-01 08:30:00.123456+00', true, 'first'],
      [2, '99999999.99', '2024-03-02', '2024-03-02 23:59:59+00', false, null],
      [3, null, null, null, null, 'ß ünïcode ✓'],
    ]);
    expect(r.truncated).toBe(false);
  });

  it('keeps int8 beyond 2^53, special floats, json, bytes and arrays', async () => {
    const r = await shop.query(
      "SELECT 9007199254740993::int8 AS big, 42::int8 AS small, 'NaN'::float8 AS nan, '-Infinity'::float8 AS ninf, 0.1::float8 AS f, " +
        "'{\"a\": [1, 2]}'::jsonb AS j, '\\x00ff'::bytea AS b, ARRAY[1, 2] AS a, interval '1 day 02:00' AS i, $1::text AS p",
      ['x'],
      DEFAULT_SQL_LIMITS,
    );
    expect(r.columns.map((c) => c.type)).toEqual(['int', 'int', 'float', 'float', 'float', 'json', 'bytes', 'array', 'interval', 'text']);
    expect(r.rows[0]).toEqual(['9007199254740993', 42, 'NaN', '-Infinity', 0.1, { a: [1, 2] }, 'AP8=', [1, 2], '1 day 02:00:00', 'x']);
  });

  it('encodes array elements as their own type would be', async () => {
    const r = await shop.query(
      "SELECT ARRAY[date '2024-03-01', NULL] AS d, ARRAY[[1, 2], [3, 4]] AS m, ARRAY[9007199254740993::int8] AS b, ARRAY['NaN'::float8, 0.5] AS f, " +
        "ARRAY[1.10::numeric] AS n, ARRAY[true, false] AS t, ARRAY['a,b', 'NULL', '\"q\"'] AS s, ARRAY['{\"k\": 1}'::jsonb] AS j, ARRAY[timestamptz '2024-03-01 12:00+02'] AS ts",
      [],
      DEFAULT_SQL_LIMITS,
    );
    expect(r.columns.map((c) => c.dbType)).toEqual(['date[]', 'int4[]', 'int8[]', 'float8[]', 'numeric[]', 'bool[]', 'text[]', 'jsonb[]', 'timestamptz[]']);
    expect(r.rows[0]).toEqual([['2024-03-01', null], [[1, 2], [3, 4]], ['9007199254740993'], ['NaN', 0.5], ['1.10'], [true, false], ['a,b', 'NULL', '"q"'], [{ k: 1 }], ['2024-03-01 10:00:00+00']]);
  });

  it('gives the columns of an empty result', async () => {
    const r = await shop.query('SELECT id, note FROM orders WHERE false', [], DEFAULT_SQL_LIMITS);
    expect(r.columns.map((c) => c.name)).toEqual(['id', 'note']);
    expect(r.rows).toEqual([]);
  });

  it('stops a million-row result at the row cap, with a note saying so', async () => {
    const r = await shop.query('SELECT g, md5(g::text) FROM generate_series(1, 1000000) g', [], { ...DEFAULT_SQL_LIMITS, maxRows: 50_000 });
    expect(r.rows.length).toBe(50_000);
    expect(r.rows.at(-1)?.[0]).toBe(50_000);
    expect(r.truncated).toBe(true);
    expect(r.note).toMatch(/stopped at 50000 rows \(the row cap\)/);
  });

  it('stops at the byte cap before the row cap', async () => {
    const r = await shop.query("SELECT g, repeat('x', 1000) FROM generate_series(1, 1000000) g", [], { ...DEFAULT_SQL_LIMITS, maxBytes: 1_000_000 });
    expect(r.truncated).toBe(true);
    expect(r.bytes).toBeLessThanOrEqual(1_000_000);
    expect(JSON.stringify(r.rows).length).toBeLessThanOrEqual(1_000_000);
    expect(r.rows.length).toBeGreaterThan(900);
    expect(r.note).toMatch(/byte cap \(1000000 bytes\)/);
  });

  it('cuts wide rows at the byte cap without fetching far past it', async () => {
    const r = await shop.query("SELECT g, repeat('x', 100000) FROM generate_series(1, 100000) g", [], { ...DEFAULT_SQL_LIMITS, maxBytes: 1_000_000 });
    expect([r.rows.length, r.truncated]).toEqual([9, true]);
  });

  it('stops a single value larger than the byte cap on the wire, and the source still answers', async () => {
    await expect(shop.query("SELECT repeat('x', 50000000)", [], { ...DEFAULT_SQL_LIMITS, maxBytes: 1_000_000 }))
      .rejects.toThrow('the result passed the byte cap (1000000 bytes) before its rows could be cut: select fewer or smaller columns');
    expect((await shop.query('SELECT 1 AS one', [], DEFAULT_SQL_LIMITS)).rows).toEqual([[1]]);
  });

  it('says not truncated when the rows end exactly at the cap', async () => {
    const r = await shop.query('SELECT g FROM generate_series(1, 10) g', [], { ...DEFAULT_SQL_LIMITS, maxRows: 10 });
    expect([r.rows.length, r.truncated]).toEqual([10, false]);
  });

  it('stops a 60 s query at the time limit, and the server stops it too', async () => {
    const t0 = Date.now();
    const err = await shop.query('SELECT pg_sleep(60)', [], { ...DEFAULT_SQL_LIMITS, timeoutMs: 1500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlQueryError);
    expect((err as SqlQueryError).timedOut).toBe(true);
    expect((err as Error).message).toMatch(/longer than the 1.5 s time limit/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await running(server.url, 'pg_sleep(60)')).toBe(0);
  });

  it('stops at the time limit a result that streams for longer', async () => {
    const t0 = Date.now();
    // a result streamed slowly, batch after batch, for longer than the limit
    const err = await shop.query('SELECT pg_sleep(0.001), g FROM generate_series(1, 100000) g', [], { ...DEFAULT_SQL_LIMITS, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect((err as SqlQueryError).timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await running(server.url, 'generate_series(1, 100000)')).toBe(0);
  });

  it('stops the query when the execution aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const t0 = Date.now();
    await expect(shop.query('SELECT pg_sleep(30)', [], DEFAULT_SQL_LIMITS, controller.signal)).rejects.toThrow(/stopped: the program's execution ended/);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await running(server.url, 'pg_sleep(30)')).toBe(0);
  });

  it('reports the database refusing a query with its message, and reuses the connection after', async () => {
    await expect(shop.query('SELECT nope FROM orders', [], DEFAULT_SQL_LIMITS)).rejects.toThrow(/the database refused the query: column "nope" does not exist/);
    expect((await shop.query('SELECT count(*) FROM orders', [], DEFAULT_SQL_LIMITS)).rows).toEqual([[3]]);
  });

  it('describes tables and columns, bounded', async () => {
    const text = await shop.describe();
    expect(text).toContain('shop (PostgreSQL), 2 tables:');
    expect(text).toContain('orders(id integer, customer_id integer, total numeric, placed_on date, placed_at timestamp with time zone, paid boolean, note text)');
    const short = await shop.describe(60);
    expect(short.length).toBeLessThanOrEqual(60);
    expect(short).toMatch(/… \d more tables?/);
  });

  it('pings; an unreachable source fails without its URL or password in the message', async () => {
    await shop.ping();
    const port = await closedPort();
    const down = new PostgresSource('down', `postgresql://reader:s3cret-pw@127.0.0.1:${port}/shop`);
    try {
      const err = await down.ping().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SqlQueryError);
      expect((err as Error).message).toBe('cannot connect to the database: ECONNREFUSED');
      expect((err as Error).message).not.toMatch(/s3cret|reader|127\.0\.0\.1/);
    } finally {
      await down.close();
    }
  });

  it('a server that never answers fails at the connect timeout, saying so', async () => {
    const silent = net.createServer(() => undefined); // accepts, then says nothing
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    const mute = new PostgresSource('mute', `postgresql://reader:s3cret-pw@127.0.0.1:${port}/shop`, { connectTimeoutMs: 500 });
    try {
      await expect(mute.ping()).rejects.toThrow('cannot connect to the database: no connection within the connect timeout (the server did not answer, or every connection of this source stayed busy)');
    } finally {
      await mute.close();
      silent.close();
    }
  });

  it('left the data as it was', async () => {
    const before = await fingerprint(server.url);
    await shop.query('SELECT * FROM orders', [], DEFAULT_SQL_LIMITS);
    expect(await fingerprint(server.url)).toBe(before);
  });
});

/** How many other sessions are running a query containing `text`. */
async function running(url: string, text: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await new Promise((r) => setTimeout(r, 200));
    const r = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%' || $1 || '%'", [text]);
    return r.rows[0].n as number;
  } finally {
    await client.end();
  }
}
