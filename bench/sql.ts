/**
 * SQL tool benchmark: a 10 000-row query's time to a pandas DataFrame. Build with `npm run build`,
 * run with `node dist/bench/sql.js` (needs the Debian packages postgresql and python3-pandas that
 * `npm run setup` installs). Starts a throwaway PostgreSQL, fills a table of 10 000 rows (int,
 * numeric, text, timestamptz, float, bool), then prints p50 and p99 over `BENCH_RUNS` (default 15) of:
 * - baseline: the same query with the pg client alone (one plain query, rows parsed by pg), interleaved;
 * - host query: the PostgreSQL source's query() alone (rules, read-only transaction, cursor, encoding);
 * - host route: the `/sql` handler plus its JSON body's serialisation;
 * - to DataFrame: `sql("bench", …)` in one warm python3 process (pandas imported once), through a
 *   Unix-socket HTTP route to the handler — the whole call as a program sees it;
 * - of which in Python: JSON parsing and the DataFrame build, from the same body;
 * - a one-row query (`WHERE id = $1`): the pg client alone against source.query(), the fixed cost
 *   of a call (parsing the statement, the read-only transaction, rollback and session reset).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../test/helpers/servers.js';
import { handleSqlCall } from '../src/tools/sql/handler.js';
import { PostgresSource } from '../src/tools/sql/postgres.js';
import { DEFAULT_SQL_LIMITS, type SqlSource } from '../src/tools/sql/types.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ROWS = 10_000;
const QUERY = 'SELECT * FROM bench_rows ORDER BY id';
const ONE_ROW = 'SELECT * FROM bench_rows WHERE id = $1';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const show = (label: string, xs: number[]) => console.log(`${label.padEnd(34)} p50 ${quantile(xs, 0.5).toFixed(1).padStart(7)} ms   p99 ${quantile(xs, 0.99).toFixed(1).padStart(7)} ms`);

const PYTHON = (runs: number) => `
import json, sys, time
from tools import sql
from tools.sql import _frame
from tools._broker import call
total, build = [], []
for _ in range(${runs + 2}):
    t0 = time.perf_counter()
    df = sql("bench", "${QUERY}")
    total.append((time.perf_counter() - t0) * 1000)
    assert len(df) == ${ROWS}, len(df)
    raw = json.dumps(call("sql", {"source": "bench", "query": "${QUERY}", "params": []}))
    t0 = time.perf_counter()
    body = json.loads(raw)
    _frame(body["columns"], body["rows"])
    build.append((time.perf_counter() - t0) * 1000)
print(json.dumps({"total": total[2:], "build": build[2:], "dtypes": [str(t) for t in df.dtypes]}))
`;

async function main(): Promise<void> {
  const server = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'bench-sql-'));
  const source = new PostgresSource('bench', server.url, { privilegedRole: 'allow' });
  const http = createServer();
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE TABLE bench_rows AS SELECT g AS id, (g * 1.25)::numeric(12,2) AS amount, md5(g::text) AS label,
      timestamptz '2024-01-01' + g * interval '1 minute' AS at, g / 7.0::float8 AS ratio, g % 2 = 0 AS even
      FROM generate_series(1, ${ROWS}) g`);
    await admin.query('CREATE UNIQUE INDEX ON bench_rows (id)');

    const sources = new Map<string, SqlSource>([['bench', source]]);
    const limits = DEFAULT_SQL_LIMITS;
    const baseline: number[] = [];
    const hostQuery: number[] = [];
    const hostRoute: number[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      let t0 = performance.now();
      await admin.query({ text: QUERY, rowMode: 'array' });
      const plain = performance.now() - t0;
      t0 = performance.now();
      const result = await source.query(QUERY, [], limits);
      const query = performance.now() - t0;
      if (result.rows.length !== ROWS) throw new Error(`expected ${ROWS} rows, got ${result.rows.length}`);
      t0 = performance.now();
      const out = await handleSqlCall(sources, () => true, { source: 'bench', query: QUERY }, limits);
      JSON.stringify(out.body);
      const route = performance.now() - t0;
      if (i >= 2) {
        baseline.push(plain);
        hostQuery.push(query);
        hostRoute.push(route);
      }
    }

    const smallPlain: number[] = [];
    const smallTool: number[] = [];
    for (let i = 0; i < RUNS * 4 + 2; i++) {
      let t0 = performance.now();
      await admin.query({ text: ONE_ROW, values: [i + 1], rowMode: 'array' });
      const plain = performance.now() - t0;
      t0 = performance.now();
      await source.query(ONE_ROW, [i + 1], limits);
      const tool = performance.now() - t0;
      if (i >= 2) {
        smallPlain.push(plain);
        smallTool.push(tool);
      }
    }

    mkdirSync(join(dir, 'tools'));
    writeFileSync(join(dir, 'tools', '__init__.py'), 'from .sql import sql\n');
    copyFileSync(new URL('../../src/tools/python/tools/sql.py', import.meta.url), join(dir, 'tools', 'sql.py'));
    copyFileSync(new URL('../../test/tools/sql-harness/_broker.py', import.meta.url), join(dir, 'tools', '_broker.py'));
    http.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', async () => {
        const out = await handleSqlCall(sources, () => true, JSON.parse(Buffer.concat(chunks).toString()), limits);
        res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
      });
    });
    const socket = join(dir, 'broker.sock');
    await new Promise<void>((r) => http.listen(socket, r));
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile('/usr/bin/python3', ['-c', PYTHON(RUNS)], { cwd: dir, env: { PATH: '/usr/bin:/bin', SQL_HARNESS_SOCKET: socket }, maxBuffer: 1 << 20 }, (err, out, errText) =>
        err ? reject(new Error(`${err.message}\n${errText}`)) : resolve(out)));
    const py = JSON.parse(stdout) as { total: number[]; build: number[]; dtypes: string[] };

    console.log(`SQL tool, ${ROWS} rows × 6 columns (${py.dtypes.join(', ')}), ${RUNS} runs each`);
    show('baseline (pg client alone)', baseline);
    show('host query (source.query)', hostQuery);
    show('host route (handler + JSON)', hostRoute);
    show('to DataFrame (sql() in Python)', py.total);
    show('  of which JSON parse + DataFrame', py.build);
    console.log(`one-row query, ${RUNS * 4} runs each`);
    show('baseline (pg client alone)', smallPlain);
    show('source.query', smallTool);
    await admin.end();
  } finally {
    await new Promise((r) => http.close(r));
    await source.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
