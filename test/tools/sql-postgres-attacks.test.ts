/**
 * Attacks on the PostgreSQL source, as the superuser (the role could do anything): each is refused
 * by a named rule, and the tables, settings and files are as they were. Then the second layer on its
 * own (the statement sent without the rules): the read-only, rolled-back, reset session still holds.
 * And a hung server: the host drops the connection when neither the server nor a cancel ends the query.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { PostgresSource } from '../../src/tools/sql/postgres.js';
import { runReadOnly } from '../../src/tools/sql/postgres-run.js';
import { DEFAULT_SQL_LIMITS, SqlQueryError, SqlRefusedError } from '../../src/tools/sql/types.js';
import { fingerprint, seedShop } from './sql-fixtures.js';

const SECRET = 'the-secret-in-the-server-file';
let server: TestServer;
let shop: PostgresSource;
let dir: string;
let before: string;

beforeAll(async () => {
  server = await startPostgres();
  await seedShop(server.url);
  shop = new PostgresSource('shop', server.url, { privilegedRole: 'allow' });
  dir = mkdtempSync(join(tmpdir(), 'sql-attack-'));
  chmodSync(dir, 0o777); // the server's user could write here: only the rules stop it
  writeFileSync(join(dir, 'secret.txt'), SECRET, { mode: 0o644 });
  before = await fingerprint(server.url);
});

afterAll(async () => {
  await shop?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const attacks: [string, string][] = [
  ['COMMIT; DELETE FROM orders', 'one statement'],
  ['SELECT 1; DELETE FROM orders', 'one statement'],
  ['/* ; */ DELETE FROM orders -- ;', 'read only'],
  ['DELETE FROM orders', 'read only'],
  ['UPDATE orders SET total = 0', 'read only'],
  ['WITH d AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM d', 'read only'],
  ['DROP TABLE orders', 'read only'],
  ['TRUNCATE customers CASCADE', 'read only'],
  ["COPY (SELECT 1) TO PROGRAM 'touch DIR/marker'", 'read only'],
  ["COPY orders TO 'DIR/marker'", 'read only'],
  ['DO $$ BEGIN DELETE FROM orders; END $$', 'read only'],
  ['ALTER ROLE postgres SET statement_timeout = 0', 'read only'],
  ['ALTER SYSTEM SET statement_timeout = 0', 'read only'],
  ['SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE', 'read only'],
  ['SET transaction_read_only = off', 'read only'],
  ['PREPARE p AS DELETE FROM orders', 'read only'],
  ['CREATE EXTENSION dblink', 'read only'],
  ['EXPLAIN ANALYZE DELETE FROM orders', 'EXPLAIN without ANALYZE'],
  ['SELECT * INTO stolen FROM orders', 'no SELECT INTO'],
  ['SELECT * FROM orders FOR UPDATE', 'no locking clause'],
  ["SELECT pg_read_file('DIR/secret.txt')", 'function'],
  ["SELECT (x).pg_read_file FROM (SELECT 'DIR/secret.txt'::text) s(x)", 'function'],
  ["SELECT convert_from(pg_read_binary_file('DIR/secret.txt'), 'UTF8')", 'function'],
  ["SELECT * FROM pg_ls_dir('DIR')", 'function'],
  ["SELECT lo_import('DIR/secret.txt')", 'function'],
  ["SELECT lo_export(lo_from_bytea(0, 'x'), 'DIR/marker')", 'function'],
  ["SELECT set_config('transaction_read_only', 'off', true), (SELECT count(*) FROM orders)", 'function'],
  ["SELECT set_config('statement_timeout', '0', false)", 'function'],
  ["SELECT query_to_xml('DELETE FROM orders RETURNING 1', true, true, '')", 'function'],
  ["SELECT * FROM dblink('dbname=postgres', 'DELETE FROM orders') AS t(n int)", 'function'],
  ['SELECT pg_advisory_lock(42)', 'function'],
  ['SELECT pg_terminate_backend(pid) FROM pg_stat_activity', 'function'],
  ['SELECT pg_reload_conf()', 'function'],
];

describe('PostgreSQL source: attacks as a superuser', () => {
  it.each(attacks)('refuses %s (%s), the database and files untouched', async (template, rule) => {
    const sql = template.replaceAll('DIR', dir);
    const err = await shop.query(sql, [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlRefusedError);
    expect((err as SqlRefusedError).rule).toBe(rule);
    expect((err as Error).message).not.toContain(SECRET);
    expect(readdirSync(dir)).toEqual(['secret.txt']);
    expect(await fingerprint(server.url)).toBe(before);
  });
});

describe('PostgreSQL session: the backstop without the rules', () => {
  let pool: pg.Pool;
  const cancel = async () => undefined;
  const run = (sql: string) => runReadOnly(pool, cancel, sql, [], DEFAULT_SQL_LIMITS);

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: server.url, max: 1 }); // one connection: each query sees the last one's session
  });
  afterAll(async () => {
    await pool?.end();
  });

  it.each([
    ['DELETE FROM orders', /cannot execute DELETE in a read-only transaction/],
    ['WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', /in a read-only transaction/],
    ['CREATE TABLE stolen AS SELECT * FROM orders', /cannot execute CREATE TABLE AS in a read-only transaction/],
    ['SELECT 1; DELETE FROM orders', /cannot insert multiple commands into a prepared statement/],
    ["SELECT set_config('transaction_read_only', 'off', true)", /read-write mode/],
  ])('the database refuses %s', async (sql, message) => {
    const err = await run(sql).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlQueryError);
    expect((err as Error).message).toMatch(message);
    expect(await fingerprint(server.url)).toBe(before);
  });

  it('a session setting does not outlive its query', async () => {
    await run("SELECT set_config('app.who', 'attacker', false)");
    const [[value]] = (await run("SELECT current_setting('app.who', true)")).rows as [[unknown]];
    expect(value === null || value === '').toBe(true);
  });

  it('a session lock does not outlive its query', async () => {
    await run('SELECT pg_advisory_lock(42)');
    const other = new pg.Client({ connectionString: server.url });
    await other.connect();
    try {
      expect((await other.query('SELECT pg_try_advisory_lock(42) AS got')).rows[0].got).toBe(true);
    } finally {
      await other.end();
    }
  });

  it('the statement timeout cannot be lifted from inside the query', async () => {
    const err = await runReadOnly(pool, cancel, "SELECT set_config('statement_timeout', '0', true), pg_sleep(30)", [], { ...DEFAULT_SQL_LIMITS, timeoutMs: 1000 }).catch((e: unknown) => e);
    expect((err as SqlQueryError).timedOut).toBe(true);
  });

  it('leaves no file behind', () => {
    expect(existsSync(join(dir, 'marker'))).toBe(false);
  });
});

describe('PostgreSQL source: a hung server', () => {
  it('a query on a hung server stops at the time limit: its connection is dropped', async () => {
    const t0 = Date.now();
    const query = shop.query('SELECT pg_sleep(20) AS hung_backend', [], { ...DEFAULT_SQL_LIMITS, timeoutMs: 1000 }).catch((e: unknown) => e);
    const pid = await backendRunning(server.url, 'hung_backend');
    process.kill(pid, 'SIGSTOP'); // neither the server's timer nor a cancel can end it now
    try {
      const err = await query;
      expect((err as SqlQueryError).timedOut).toBe(true);
      expect(Date.now() - t0).toBeGreaterThan(1000 + 5000); // the host's clock, then the grace for the cancel
      expect(Date.now() - t0).toBeLessThan(15_000);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect((await shop.query('SELECT 1 AS one', [], DEFAULT_SQL_LIMITS)).rows).toEqual([[1]]);
  });
});

/** The pid of the backend running a query containing `marker`, once it runs. */
async function backendRunning(url: string, marker: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const r = await client.query("SELECT pid FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%' || $1 || '%'", [marker]);
      if (r.rows[0]) return r.rows[0].pid as number;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no backend ran ${marker}`);
  } finally {
    await client.end();
  }
}
