/**
 * The Python client `tools.sql` end to end: Debian's python3 and pandas call the SQL engine's
 * `/sql` route (served by this test on a Unix socket, reached through a harness `_broker.call` with
 * the broker client's contract) against a real PostgreSQL; dtypes, values, parameters, refusals, caps.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { SqlSources } from '../../src/tools/sql/engine.js';
import { createReader, seedShop } from './sql-fixtures.js';

let server: TestServer;
let engine: SqlSources;
let dir: string;
let http: Server;
const socket = () => join(dir, 'broker.sock');

beforeAll(async () => {
  server = await startPostgres();
  await seedShop(server.url);
  engine = new SqlSources({ shop: { url: await createReader(server.url), max_rows: 1000 } });
  dir = mkdtempSync(join(tmpdir(), 'sql-python-'));
  mkdirSync(join(dir, 'tools'));
  writeFileSync(join(dir, 'tools', '__init__.py'), 'from .sql import sql\n');
  copyFileSync(new URL('../../src/tools/python/tools/sql.py', import.meta.url), join(dir, 'tools', 'sql.py'));
  copyFileSync(new URL('./sql-harness/_broker.py', import.meta.url), join(dir, 'tools', '_broker.py'));
  http = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', async () => {
      if (req.url !== '/sql') return res.writeHead(404).end('{"error": "no such route"}');
      const out = await engine.call((name) => name === 'shop', JSON.parse(text));
      res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((r) => http.listen(socket(), r));
});

afterAll(async () => {
  await new Promise((r) => http?.close(r));
  await engine?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs `code` (after `from tools import sql`) with Debian's python3; returns stdout and stderr. */
function python(code: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', ['-c', `from tools import sql\nimport json\n${code}`], { cwd: dir, env: { PATH: '/usr/bin:/bin', SQL_HARNESS_SOCKET: socket() } }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve({ stdout, stderr }));
  });
}

describe('tools.sql from Python', () => {
  it('builds a DataFrame with a dtype per kind', async () => {
    const { stdout } = await python(`
df = sql("shop", "SELECT id, customer_id, total, placed_on, placed_at, paid, note, 9007199254740993::int8 AS big, 0.5::float8 AS f, '\\\\x00ff'::bytea AS b, '{\\"k\\": 1}'::json AS j FROM orders ORDER BY id")
print(json.dumps({c: str(t) for c, t in df.dtypes.items()}))
print(json.dumps([repr(v) for v in df.iloc[0]]))
print(json.dumps([repr(v) for v in df.iloc[2]]))
`);
    const [dtypes, first, last] = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(dtypes).toEqual({
      id: 'int64', customer_id: 'int64', total: 'object', placed_on: 'datetime64[ns]', placed_at: 'datetime64[ns, UTC]',
      paid: 'boolean', note: 'object', big: 'int64', f: 'float64', b: 'object', j: 'object',
    });
    expect(first).toEqual([
      '1', '1', "Decimal('12.50')", "Timestamp('2024-03-01 00:00:00')", "Timestamp('2024-03-01 08:30:00.123456+0000', tz='UTC')",
      'True', "'first'", '9007199254740993', '0.5', "b'\\x00\\xff'", "{'k': 1}",
    ]);
    expect(last.slice(0, 7)).toEqual(['3', '1', 'None', 'NaT', 'NaT', '<NA>', "'ß ünïcode ✓'"]);
  });

  it('keeps NULLs in integer columns as Int64, and repeated column names', async () => {
    const { stdout } = await python(`
df = sql("shop", "SELECT o.id, c.id, NULLIF(o.id, 2) AS n FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id")
print(list(df.columns), str(df.dtypes.iloc[2]), df["n"].isna().tolist())
`);
    expect(stdout.trim()).toBe("['id', 'id', 'n'] Int64 [False, True, False]");
  });

  it('binds parameters from Python values', async () => {
    const { stdout } = await python(`
import datetime, decimal, numpy as np
df = sql("shop", "SELECT id FROM orders WHERE placed_on >= $1 AND total < $2 AND id = ANY($3) ORDER BY id",
         [datetime.date(2024, 3, 1), decimal.Decimal("100000000"), np.array([1, 2])])
print(df["id"].tolist())
`);
    expect(stdout.trim()).toBe('[1, 2]');
  });

  it('gives an empty DataFrame with the columns when no row matches', async () => {
    const { stdout } = await python('df = sql("shop", "SELECT id, note FROM orders WHERE false")\nprint(len(df), list(df.columns))');
    expect(stdout.trim()).toBe("0 ['id', 'note']");
  });

  it('raises SqlError with the rule for a refused statement, and for a source not allowed', async () => {
    const { stdout } = await python(`
from tools.sql import SqlError
from tools._broker import ToolError
assert issubclass(SqlError, ToolError)
for source, q in [("shop", "COMMIT; DELETE FROM orders"), ("shop", "DELETE FROM orders"), ("secret", "SELECT 1"), ("shop", "SELECT nope")]:
    try:
        sql(source, q)
    except SqlError as e:
        print(e)
print(sql("shop", "SELECT count(*) AS n FROM orders")["n"][0])
`);
    expect(stdout.trim().split('\n')).toEqual([
      '2 statements given: send exactly one statement per call (no ";" between statements)',
      'DELETE is not allowed: only one SELECT, WITH … SELECT, VALUES, TABLE or EXPLAIN (without ANALYZE) statement is allowed',
      'unknown SQL source "secret": this conversation may use "shop"',
      'the database refused the query: column "nope" does not exist',
      '3',
    ]);
  });

  it('warns when the result was capped, and says so in attrs', async () => {
    const { stdout, stderr } = await python('df = sql("shop", "SELECT g FROM generate_series(1, 5000) g")\nprint(len(df), df.attrs["truncated"])');
    expect(stdout.trim()).toBe('1000 True');
    expect(stderr).toMatch(/UserWarning: sql\('shop'\): stopped at 1000 rows \(the row cap\)/);
  });

  it('refuses bad arguments in Python before calling', async () => {
    const { stdout } = await python(`
for args in [(1, "SELECT 1"), ("shop", ""), ("shop", "SELECT $1", "x"), ("shop", "SELECT $1", [float("nan")]), ("shop", "SELECT $1", [object()])]:
    try:
        sql(*args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
`);
    expect(stdout.trim().split('\n')).toEqual([
      'TypeError sql(): source must be the name of a SQL source, e.g. sql("shop", "SELECT 1")',
      'TypeError sql(): query must be SQL text, e.g. sql("shop", "SELECT 1")',
      'TypeError sql(): params must be a list of values, e.g. [42, "2024-03-01"]',
      'ValueError sql(): params[0] is nan: pass None for NULL',
      'TypeError sql(): params[0] has type object: pass a str, int, float, bool, None, date/datetime, Decimal or a list',
    ]);
  });
});
