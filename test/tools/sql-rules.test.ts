/**
 * The PostgreSQL statement rules on the real parser's tree: what is let through, and each rule's
 * refusal. The same statements are sent to a real server in sql-postgres-attacks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkPostgresStatement } from '../../src/tools/sql/postgres-rules.js';
import { SqlRefusedError } from '../../src/tools/sql/types.js';

async function ruleOf(sql: string): Promise<string | null> {
  try {
    await checkPostgresStatement(sql);
    return null;
  } catch (err) {
    if (err instanceof SqlRefusedError) return err.rule;
    throw err;
  }
}

describe('PostgreSQL statement rules', () => {
  it.each([
    'SELECT 1',
    'select a, count(*) from t where b = $1 group by a order by 2 desc limit 10',
    'WITH x AS (SELECT 1 AS a) SELECT * FROM x',
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT * FROM n',
    'VALUES (1, 2), (3, 4)',
    'TABLE orders',
    'EXPLAIN SELECT * FROM orders',
    'EXPLAIN (FORMAT JSON) SELECT 1',
    "SELECT to_char(now(), 'YYYY'), current_setting('TimeZone'), pg_sleep(0)",
    'SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id;',
    '-- a comment\nSELECT 1 /* another */',
  ])('lets through %s', async (sql) => {
    expect(await ruleOf(sql)).toBeNull();
  });

  it.each([
    ['COMMIT; DELETE FROM orders', 'one statement'],
    ['SELECT 1; SELECT 2', 'one statement'],
    [';', 'one statement'],
    ['DELETE FROM orders', 'read only'],
    ['INSERT INTO orders VALUES (1)', 'read only'],
    ['UPDATE orders SET total = 0', 'read only'],
    ['DROP TABLE orders', 'read only'],
    ['TRUNCATE orders', 'read only'],
    ["COPY (SELECT 1) TO PROGRAM 'touch /tmp/x'", 'read only'],
    ["COPY orders FROM '/etc/passwd'", 'read only'],
    ['SET statement_timeout = 0', 'read only'],
    ['SET TRANSACTION READ WRITE', 'read only'],
    ['COMMIT', 'read only'],
    ["DO $$ BEGIN DELETE FROM orders; END $$", 'read only'],
    ['CALL p()', 'read only'],
    ['CREATE TABLE x AS SELECT 1', 'read only'],
    ['WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d', 'read only'],
    ['WITH u AS (UPDATE orders SET total = 0 RETURNING 1) SELECT 1', 'read only'],
    ['EXPLAIN DELETE FROM orders', 'read only'],
    ['EXPLAIN ANALYZE SELECT 1', 'EXPLAIN without ANALYZE'],
    ['EXPLAIN (ANALYZE) SELECT 1', 'EXPLAIN without ANALYZE'],
    ['EXPLAIN (ANALYZE true, BUFFERS) SELECT 1', 'EXPLAIN without ANALYZE'],
    ['SELECT * INTO copy_of_orders FROM orders', 'no SELECT INTO'],
    ['SELECT * FROM orders FOR UPDATE', 'no locking clause'],
    ['SELECT * FROM (SELECT * FROM orders FOR SHARE) s', 'no locking clause'],
    ["SELECT pg_read_file('/etc/passwd')", 'function'],
    ["SELECT PG_CATALOG.\"pg_read_file\"('/etc/passwd')", 'function'],
    ["SELECT * FROM pg_ls_dir('.')", 'function'],
    ["SELECT (x).pg_ls_dir FROM (SELECT '.'::text) s(x)", 'function'],
    ["SELECT pg_read_binary_file('/etc/passwd')", 'function'],
    ["SELECT pg_stat_file('/etc/passwd')", 'function'],
    ["SELECT lo_import('/etc/passwd')", 'function'],
    ["SELECT lo_export(1, '/tmp/x')", 'function'],
    ["SELECT set_config('transaction_read_only', 'off', true)", 'function'],
    ["SELECT 1 WHERE set_config('statement_timeout', '0', false) IS NOT NULL", 'function'],
    ["SELECT * FROM dblink('dbname=x', 'DELETE FROM orders') AS t(a int)", 'function'],
    ["SELECT query_to_xml('DELETE FROM orders RETURNING 1', true, true, '')", 'function'],
    ["SELECT * FROM ts_stat('SELECT 1')", 'function'],
    ['SELECT pg_advisory_lock(1)', 'function'],
    ['SELECT pg_terminate_backend(1)', 'function'],
    ["SELECT nextval('s')", 'function'],
    ["SELECT brin_summarize_new_values('orders_brin')", 'function'],
    ['SELECT pg_stat_statements_reset()', 'function'],
    ['SELEC 1', 'syntax'],
    ['SELECT U&"pg\\005fread_file"(\'/etc/passwd\')', 'function'],
    ["SELECT * FROM orders, LATERAL pg_ls_dir('.') d", 'function'],
    ["SELECT pg_catalog.pg_file_write('x', 'y', false)", 'function'],
    ["SELECT lo_put(1, 0, 'x')", 'function'],
    ['EXPLAIN ANALYSE SELECT 1', 'EXPLAIN without ANALYZE'],
    ['EXPLAIN (ANALYSE) SELECT 1', 'EXPLAIN without ANALYZE'],
    ['EXPLAIN ("analyze" true) SELECT 1', 'EXPLAIN without ANALYZE'],
    ['EXPLAIN (ANALYZE on) SELECT 1', 'EXPLAIN without ANALYZE'],
    ['EXPLAIN (ANALYZE 1) SELECT 1', 'EXPLAIN without ANALYZE'],
    // the server reads every option and the last one wins: an ANALYZE option is refused whatever its value
    ['EXPLAIN (ANALYZE false) SELECT 1', 'EXPLAIN without ANALYZE'],
    ['EXPLAIN (ANALYZE false, ANALYZE true) SELECT 1', 'EXPLAIN without ANALYZE'],
    ["EXPLAIN (ANALYZE 'off', FORMAT JSON, analyse 'on') SELECT 1", 'EXPLAIN without ANALYZE'],
  ])('refuses %s (%s)', async (sql, rule) => {
    expect(await ruleOf(sql)).toBe(rule);
  });

  it('refuses statements nested too deep for the parser, and parses the next one', async () => {
    expect(await ruleOf(`SELECT ${'('.repeat(20_000)}1${')'.repeat(20_000)}`)).toBe('syntax');
    expect(await ruleOf(`SELECT 1${' + 1'.repeat(20_000)}`)).toBe('syntax');
    expect(await ruleOf('SELECT 1')).toBeNull();
  });

  it('names the rule and what to do in the message', async () => {
    await expect(checkPostgresStatement('COMMIT; DELETE FROM orders')).rejects.toThrow(/2 statements given: send exactly one statement/);
    await expect(checkPostgresStatement('DELETE FROM orders')).rejects.toThrow(/DELETE is not allowed: only one SELECT/);
    await expect(checkPostgresStatement("SELECT pg_read_file('/etc/passwd')")).rejects.toThrow(/pg_read_file\(\) is not allowed/);
  });
});
