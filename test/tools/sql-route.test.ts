/**
 * The SQL tool through the broker from a real sandbox (`from tools import sql` → the broker's
 * `/sql` route → the engine), per conversation: a DataFrame and a record for an allowed source; a
 * source the conversation may not use is refused (403) and no query reaches it; calls past
 * `tools.sql.max_calls` are refused (429); a write is refused and the table is unchanged.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Toolbox } from '../../src/tools/toolbox.js';
import { makeExecutor, tempDir } from '../sandbox/helpers.js';

const dir = tempDir('sql-route-');
const sqlite = (file: string, script: string) => execFileSync('/usr/bin/python3', ['-c', `import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n${script}\nc.commit()`, file]).toString();
const shop = join(dir, 'shop.db');
const hr = join(dir, 'hr.db');
sqlite(shop, 'c.execute("CREATE TABLE orders (id INTEGER, total REAL)")\nc.executemany("INSERT INTO orders VALUES (?, ?)", [(1, 12.5), (2, 7.25), (3, 30.0)])');
sqlite(hr, 'c.execute("CREATE TABLE salaries (name TEXT, pay INTEGER)")\nc.execute("INSERT INTO salaries VALUES (\'ada\', 100)")');

const box = new Toolbox(
  parseConfig({ tools: { sql: { max_calls: 3, sources: { shop: { url: `sqlite://${shop}`, conversations: ['C0SHOP'] }, hr: { url: `sqlite://${hr}` } } } } }, {}).tools,
);
afterAll(() => box.close());

describe('the SQL tool from the sandbox', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it('a channel allowed the shop gets a DataFrame and a record; the terminal-only source is refused to it', async () => {
    const code = [
      'from tools import sql',
      'df = sql("shop", "SELECT id, total FROM orders WHERE total > ? ORDER BY id", [10])',
      'print(df.to_dict("list"))',
      'try:',
      '    sql("hr", "SELECT * FROM salaries")',
      'except Exception as e:',
      '    print(type(e).__name__, e)',
    ].join('\n');
    const result = await ex.execute(code, { tools: box.brokerFor('slack:T1:C0SHOP') });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`{'id': [1, 3], 'total': [12.5, 30.0]}\nSqlError unknown SQL source "hr": this conversation may use "shop"\n`);
    expect(result.toolCalls?.map((c) => c.summary.replace(/\d+ ms/, 'N ms'))).toEqual(['sql shop: 1 query, 2 rows, N ms', 'sql hr: refused (not a source this conversation may use)']);
    expect(result.toolCalls?.map((c) => c.ok)).toEqual([true, false]);
  }, 30_000);

  it('calls past tools.sql.max_calls are refused; a write is refused and the table is unchanged', async () => {
    const code = [
      'from tools import sql',
      'for q in ["DELETE FROM orders", "SELECT 1 AS x", "SELECT 2 AS x", "SELECT 3 AS x"]:',
      '    try:',
      '        print(sql("shop", q)["x"][0])',
      '    except Exception as e:',
      '        print(type(e).__name__, str(e)[:80])',
    ].join('\n');
    const result = await ex.execute(code, { tools: box.brokerFor('cli:local') });
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^SqlError /);
    expect(lines.slice(1)).toEqual(['1', '2', 'SqlError this execution already made 3 sql calls, the most allowed (tools.sql.max_calls)']);
    expect(sqlite(shop, 'print(c.execute("SELECT count(*) FROM orders").fetchone()[0])').trim()).toBe('3');
  }, 30_000);
});
