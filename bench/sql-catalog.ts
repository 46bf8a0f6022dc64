/**
 * The catalog check's cost (issues: SQL functions by allowlist; the database as the first wall).
 * Build with `npm run build`, run with `npm run bench:sql-catalog`. Starts a throwaway PostgreSQL
 * with contrib's hstore, pg_trgm and tablefunc installed (a catalog a little larger than a bare
 * server's), makes the docs' reader role, then prints p50 and p99 over `BENCH_RUNS` (default 30) of
 * a one-row query, interleaved with its baseline in the same run:
 * - first call of a source: a new PostgresSource's first query (connect, read the catalog, the role
 *   and what it may reach, check, run) against a new pool's first query run read-only without any check;
 * - cached: a warm source's query (rules + catalog check from the cache + the catalog's fingerprint
 *   read with the transaction's settings + run) against the same read-only run without the rules,
 *   the check and the fingerprint, on a warm pool;
 * - after a change: the first query after a function was made (the fingerprint differs: the
 *   catalog, the role and its reach read again on the statement's connection, then the check);
 * - the check alone: parsing the statement and resolving its names in the cached catalog, in µs;
 * - the privilege check alone (what the role may reach, the start-up check's new part) and the
 *   fingerprint alone, each one query on a warm connection.
 */
import pg from 'pg';
import { startPostgres } from '../test/helpers/servers.js';
import { createReader } from '../test/tools/sql-fixtures.js';
import { CATALOG_FINGERPRINT, CATALOG_QUERY, indexCatalog } from '../src/tools/sql/pg-catalog.js';
import { REACH_READ } from '../src/tools/sql/pg-reach.js';
import { checkReferences } from '../src/tools/sql/pg-functions.js';
import { checkPostgresStatement } from '../src/tools/sql/postgres-rules.js';
import { runReadOnly } from '../src/tools/sql/postgres-run.js';
import { PostgresSource } from '../src/tools/sql/postgres.js';
import { DEFAULT_SQL_LIMITS } from '../src/tools/sql/types.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const QUERY = "SELECT id, lower(label) || '!' AS l, amount * 2 AS a, date_trunc('day', at) AS d FROM bench_rows WHERE id = $1 AND label LIKE $2";
const PARAMS = [7, '%'];

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const row = (label: string, xs: number[], unit = 'ms', digits = 2) =>
  `${label.padEnd(44)} p50 ${quantile(xs, 0.5).toFixed(digits).padStart(8)} ${unit}   p99 ${quantile(xs, 0.99).toFixed(digits).padStart(8)} ${unit}`;
const noCancel = async () => undefined;

async function main(): Promise<void> {
  const server = await startPostgres();
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE EXTENSION hstore; CREATE EXTENSION pg_trgm; CREATE EXTENSION tablefunc;
      CREATE TABLE bench_rows AS SELECT g AS id, md5(g::text) AS label, (g * 1.25)::numeric(12,2) AS amount,
        timestamptz '2024-01-01' + g * interval '1 minute' AS at FROM generate_series(1, 1000) g`);
    const counts = (await admin.query('SELECT (SELECT count(*) FROM pg_proc) AS f, (SELECT count(*) FROM pg_operator) AS o, (SELECT count(*) FROM pg_type) AS t')).rows[0];
    const readerUrl = await createReader(server.url);

    const firstCheck: number[] = [];
    const firstBase: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const source = new PostgresSource('bench', readerUrl);
      let t0 = performance.now();
      await source.query(QUERY, PARAMS, DEFAULT_SQL_LIMITS);
      firstCheck.push(performance.now() - t0);
      await source.close();
      const pool = new pg.Pool({ connectionString: readerUrl, max: 1 });
      t0 = performance.now();
      await runReadOnly(pool, noCancel, QUERY, PARAMS, DEFAULT_SQL_LIMITS);
      firstBase.push(performance.now() - t0);
      await pool.end();
    }

    const source = new PostgresSource('bench', readerUrl);
    const pool = new pg.Pool({ connectionString: readerUrl, max: 1 });
    const warm: number[] = [];
    const warmBase: number[] = [];
    for (let i = 0; i < RUNS * 4 + 3; i++) {
      let t0 = performance.now();
      await source.query(QUERY, PARAMS, DEFAULT_SQL_LIMITS);
      const checked = performance.now() - t0;
      t0 = performance.now();
      await runReadOnly(pool, noCancel, QUERY, PARAMS, DEFAULT_SQL_LIMITS);
      const base = performance.now() - t0;
      if (i >= 3) {
        warm.push(checked);
        warmBase.push(base);
      }
    }

    const changed: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await admin.query(`CREATE FUNCTION public.made_${i}() RETURNS int LANGUAGE sql AS 'SELECT 1'`);
      const t0 = performance.now();
      await source.query(QUERY, PARAMS, DEFAULT_SQL_LIMITS);
      changed.push(performance.now() - t0);
    }

    const reader = new pg.Client({ connectionString: readerUrl });
    await reader.connect();
    const reach: number[] = [];
    const print: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      let t0 = performance.now();
      await reader.query(`BEGIN READ ONLY; SET LOCAL search_path = pg_catalog; ${REACH_READ}; ROLLBACK`);
      const r = performance.now() - t0;
      t0 = performance.now();
      await reader.query(`SELECT ${CATALOG_FINGERPRINT}`);
      const f = performance.now() - t0;
      if (i >= 3) {
        reach.push(r);
        print.push(f);
      }
    }
    const results = (await reader.query(`BEGIN; ${CATALOG_QUERY}; ROLLBACK`)) as unknown as pg.QueryResult[];
    await reader.end();
    const catalog = indexCatalog(results.slice(1, -1).map((r) => r.rows));
    const policy = { source: 'bench', functions: new Set<string>(), securityDefiner: false };
    const alone: number[] = [];
    for (let i = 0; i < RUNS * 10; i++) {
      const t0 = performance.now();
      checkReferences(await checkPostgresStatement(QUERY), catalog, policy);
      alone.push((performance.now() - t0) * 1000);
    }

    const refs = await checkPostgresStatement(QUERY);
    console.log(`catalog check, one-row query naming ${refs.functions.length} functions, ${refs.operators.length} operators; catalog of ${counts.f} functions, ${counts.o} operators, ${counts.t} types; ${RUNS} runs`);
    console.log(row('first call: checked (catalog + role read)', firstCheck));
    console.log(row('first call: baseline (read-only run alone)', firstBase));
    console.log(`  added at the first call: p50 ${(quantile(firstCheck, 0.5) - quantile(firstBase, 0.5)).toFixed(2)} ms`);
    console.log(row('cached: checked', warm));
    console.log(row('cached: baseline (read-only run alone)', warmBase));
    console.log(`  added when cached: p50 ${(quantile(warm, 0.5) - quantile(warmBase, 0.5)).toFixed(2)} ms, ratio ${(quantile(warm, 0.5) / quantile(warmBase, 0.5)).toFixed(2)}`);
    console.log(row('after a change: checked (catalog read again)', changed));
    console.log(row('the check alone (parse + resolve, cached)', alone, 'µs', 0));
    console.log(row('the privilege check alone (at start)', reach));
    console.log(row('the fingerprint alone (every query)', print));
    await source.close();
    await pool.end();
    await admin.end();
  } catch (err) {
    console.error(err);
    throw err;
  } finally {
    await server.stop();
  }
}

await main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
