/**
 * Attacks on the SQL tool's SQLite sources from a real sandbox (`from tools import sql` through the
 * broker): statements that would write, attach, load code or reveal the host, and a flood of
 * concurrent queries; each asserts the refusal, the file byte-for-byte the same, nothing new next to
 * it, and the host processes bounded.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { MAX_SQLITE_READERS } from '../../src/tools/sql/sqlite.js';
import { Toolbox } from '../../src/tools/toolbox.js';
import { makeExecutor, tempDir } from '../sandbox/helpers.js';

const dir = tempDir('attacks-sql-');
const shop = join(dir, 'shop.db');
execFileSync('/usr/bin/python3', ['-c', 'import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.execute("CREATE TABLE orders (id INTEGER, total REAL)")\nc.execute("INSERT INTO orders VALUES (1, 2.5)")\nc.commit()', shop]);
const sha = () => createHash('sha256').update(readFileSync(shop)).digest('hex');
const box = new Toolbox(parseConfig({ tools: { sql: { sources: { shop: { url: `sqlite://${shop}`, timeout_s: 1 } } } } }, {}).tools);
afterAll(() => box.close());

/** Host processes running the SQLite reader right now. */
function readers(): number {
  let n = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sqlite_reader.py')) n += 1;
    } catch {
      /* gone */
    }
  }
  return n;
}

describe('SQL tool attacks (SQLite, from the sandbox)', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0, limits: { wallTimeS: 30, cpuTimeS: 30 } });

  it('ATTACH, load_extension, writable_schema, VACUUM INTO, file functions and the host path are refused; the file is unchanged', async () => {
    const before = sha();
    const attacks = [
      `ATTACH DATABASE '/tmp/evil.db' AS evil`,
      `EXPLAIN ATTACH DATABASE '/tmp/evil.db' AS evil`,
      `/* hi */ ATTACH '/tmp/evil.db' AS evil`,
      `SELECT load_extension('/tmp/evil')`,
      `PRAGMA writable_schema = ON`,
      `SELECT * FROM pragma_writable_schema`,
      `SELECT * FROM pragma_database_list`,
      `SELECT file FROM pragma_database_list`,
      `VACUUM INTO '/tmp/copy.db'`,
      `WITH x AS (SELECT 1) INSERT INTO orders VALUES (9, 9)`,
      `REPLACE INTO orders VALUES (1, 0)`,
      `SELECT writefile('/tmp/x', 'y')`,
      `SELECT readfile('/etc/passwd')`,
      `SELECT * FROM sqlite_dbpage`,
      `SELECT * FROM pragma_table_info('orders', 'evil')`,
      `SELECT sqlite_compileoption_used('ENABLE_LOAD_EXTENSION'), * FROM pragma_function_list`,
    ];
    const code = [
      'import json',
      'from tools import sql',
      `for q in ${JSON.stringify(attacks)}:`,
      '    try:',
      '        print("ALLOWED", q, sql("shop", q).to_dict("list"))',
      '    except Exception as e:',
      '        print("refused", type(e).__name__, str(e)[:300])',
    ].join('\n');
    const result = await ex.execute(code, { tools: box.brokerFor('cli:local') });
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(attacks.length);
    expect(lines.filter((l) => !l.startsWith('refused SqlError'))).toEqual([]);
    // a table-valued pragma is refused by its name, not as the write SQLite makes to load it
    expect(lines[attacks.indexOf('SELECT * FROM pragma_database_list')]).toContain('the pragma pragma_database_list is not allowed: only the schema pragmas table_info');
    expect(result.stdout).not.toContain('UPDATE (sqlite_master)');
    expect(result.stdout).not.toContain(dir); // the database's host path stays on the host
    expect(sha()).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['shop.db']);
  }, 60_000);

  it(`a flood of concurrent queries runs at most ${MAX_SQLITE_READERS} reader processes on the host at once`, async () => {
    let most = 0;
    const poll = setInterval(() => (most = Math.max(most, readers())), 20);
    const code = [
      'import threading',
      'from tools import sql',
      'out = []',
      'def one():',
      '    try:',
      '        sql("shop", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")',
      '        out.append("ran")',
      '    except Exception as e:',
      '        out.append("time" if "time limit" in str(e) else str(e))',
      'ts = [threading.Thread(target=one) for _ in range(12)]',
      '[t.start() for t in ts]',
      '[t.join() for t in ts]',
      'print(sorted(set(out)))',
    ].join('\n');
    const result = await ex.execute(code, { tools: box.brokerFor('cli:local') });
    clearInterval(poll);
    expect(result.stdout).toBe("['time']\n");
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(MAX_SQLITE_READERS);
    expect(readers()).toBe(0);
  }, 60_000);
});
