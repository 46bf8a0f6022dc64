/**
 * What the server itself enforces (turn 5, T6), and the start-up check that makes it so:
 * - EXPLAIN with an ANALYZE option, whatever its value, never runs its statement;
 * - temp files are capped by the role's temp_file_limit (a role without one is refused, with the
 *   statement that sets it; a superuser's statements pin it);
 * - a file_fdw foreign table and a view over it, readable through the old recipe's default
 *   privileges, are found and refused with the REVOKE that fixes them; the docs' reader cannot read them;
 * - a role with one function it may execute and the source does not allow is refused at start
 *   with the fix printed; once the printed statements run it is accepted, and a function made
 *   later is not executable.
 * Each time the target is untouched: no mark left by a function, the server file's text in no output.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../adapters/cli/doctor.js';
import { parseConfig } from '../../src/config/load.js';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { SqlSources } from '../../src/tools/sql/engine.js';
import { PostgresSource } from '../../src/tools/sql/postgres.js';
import { DEFAULT_SQL_LIMITS, SqlQueryError, SqlRefusedError } from '../../src/tools/sql/types.js';
import { createReader, seedShop } from './sql-fixtures.js';

const SECRET = 'the-secret-in-the-server-file';
let server: TestServer;
let dir: string;

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql.replaceAll('${DIR}', dir));
  } finally {
    await client.end();
  }
}

const onDatabase = (url: string, db: string) => Object.assign(new URL(url), { pathname: `/${db}` }).toString();
const as = (url: string, role: string) => Object.assign(new URL(url), { username: role }).toString();
/** A function that leaves the mark `name` (a file the server writes) when it runs. */
const markFunction = (name: string, security = '') =>
  `CREATE FUNCTION public.${name}() RETURNS int LANGUAGE plpgsql ${security} AS $f$ BEGIN EXECUTE format('COPY (SELECT 1) TO %L', '${'${DIR}'}/${name}'); RETURN 1; END $f$`;

/** The SQL statements of a fix's lines (the heading and `--` comments left out). */
const statements = (fix: string[]) => fix.filter((l) => l.startsWith('  ') && !l.trim().startsWith('--')).map((l) => l.trim().replace(/\s+--.*$/, ''));

beforeAll(async () => {
  server = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'sql-walls-'));
  chmodSync(dir, 0o777); // the server's user may write here: only the walls stop it
  writeFileSync(join(dir, 'secret.txt'), SECRET, { mode: 0o644 });
  await seedShop(server.url);
  await admin(server.url, markFunction('touch'));
});

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('EXPLAIN ANALYZE (T6)', () => {
  it.each([
    'EXPLAIN (ANALYZE true) SELECT touch()',
    'EXPLAIN (ANALYZE false, ANALYZE true) SELECT touch()',
    "EXPLAIN (ANALYZE 'off', ANALYSE 'on') SELECT touch()",
    'EXPLAIN ANALYZE SELECT touch()',
    'EXPLAIN (ANALYZE) SELECT touch()',
  ])('refuses %s: the statement never runs', async (sql) => {
    const source = new PostgresSource('shop', server.url, { privilegedRole: 'allow', functions: ['public.touch'] });
    try {
      const err = (await source.query(sql, [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
      expect(err).toBeInstanceOf(SqlRefusedError);
      expect(err.rule).toBe('EXPLAIN without ANALYZE');
      expect((await source.query('EXPLAIN SELECT touch()', [], DEFAULT_SQL_LIMITS)).rows.length).toBeGreaterThan(0); // a plan, nothing run
    } finally {
      await source.close();
    }
    expect(readdirSync(dir)).toEqual(['secret.txt']);
  });
});

describe('temp files (T6)', () => {
  it('a role without temp_file_limit is refused at start, with the statement that sets it', async () => {
    const url = await createReader(server.url, 'unlimited');
    await admin(server.url, 'ALTER ROLE unlimited RESET temp_file_limit');
    const source = new PostgresSource('shop', url);
    try {
      const found = await source.inspect();
      expect(found.usable).toBe(false);
      expect(found.warning).toContain('may write temp files on the server without a limit (temp_file_limit is not set)');
      expect(statements(found.fix)).toEqual(["ALTER ROLE unlimited SET temp_file_limit = '1GB';"]);
      const err = (await source.query('SELECT count(*) FROM generate_series(1, 10)', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
      expect(err.rule).toBe('role');
    } finally {
      await source.close();
    }
  });

  it('the server stops a query past the role\'s temp_file_limit', async () => {
    const url = await createReader(server.url, 'spiller');
    await admin(server.url, "ALTER ROLE spiller SET temp_file_limit = '1MB'; ALTER ROLE spiller SET work_mem = '64kB'");
    const source = new PostgresSource('shop', url);
    try {
      const err = (await source.query('SELECT count(*) FROM (SELECT g FROM generate_series(1, 400000) g ORDER BY md5(g::text)) s', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlQueryError;
      expect(err).toBeInstanceOf(SqlQueryError);
      expect(err.message).toMatch(/temporary file size exceeds temp_file_limit \(1024kB\)/);
    } finally {
      await source.close();
    }
  });

  it('a superuser role\'s statements pin the limit themselves', async () => {
    const source = new PostgresSource('shop', server.url, { privilegedRole: 'allow' });
    try {
      expect((await source.query("SELECT current_setting('temp_file_limit') AS l", [], DEFAULT_SQL_LIMITS)).rows).toEqual([['1GB']]);
    } finally {
      await source.close();
    }
  });
});

describe('server files through a foreign table (T6)', () => {
  let files: string;
  beforeAll(async () => {
    await admin(server.url, 'CREATE DATABASE files');
    files = onDatabase(server.url, 'files');
    await createReader(files, 'files_reader');
    // the old recipe's default privileges: every table made later is readable, a foreign table too
    await admin(files, `
      CREATE ROLE files_legacy LOGIN; GRANT USAGE ON SCHEMA public TO files_legacy; ALTER ROLE files_legacy SET temp_file_limit = '1GB';
      ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO files_legacy;
      CREATE EXTENSION file_fdw; CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
      CREATE FOREIGN TABLE public.server_file (line text) SERVER files OPTIONS (filename '${'${DIR}'}/secret.txt');
      CREATE VIEW public.file_view AS SELECT upper(line) AS line FROM public.server_file;`);
  });

  it('the start-up check finds the foreign table and the view over it, and prints the REVOKEs; once run, the role is accepted', async () => {
    const source = new PostgresSource('files', as(files, 'files_legacy'));
    try {
      const found = await source.inspect();
      expect(found.usable).toBe(false);
      expect(found.warning).toContain('may read public.server_file (a foreign table of file_fdw: server files), public.file_view (a view over the foreign table public.server_file: server files)');
      for (const sql of ['SELECT * FROM server_file', 'SELECT * FROM file_view']) {
        const err = (await source.query(sql, [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
        expect(err.rule).toBe('role');
        expect(err.message).not.toContain(SECRET);
      }
      expect(statements(found.fix)).toEqual(['REVOKE SELECT ON public.server_file FROM files_legacy;', 'REVOKE SELECT ON public.file_view FROM files_legacy;']);
      await admin(files, statements(found.fix).join('\n'));
    } finally {
      await source.close();
    }
    const fixed = new PostgresSource('files', as(files, 'files_legacy'));
    try {
      expect((await fixed.inspect()).usable).toBe(true);
      const err = (await fixed.query('SELECT * FROM server_file', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as Error;
      expect(err.message).toMatch(/permission denied for (foreign )?table server_file/);
      expect(err.message).not.toContain(SECRET);
    } finally {
      await fixed.close();
    }
  });

  it('the docs\' reader cannot read them', async () => {
    const source = new PostgresSource('files', as(files, 'files_reader'));
    try {
      expect((await source.inspect()).usable).toBe(true);
      for (const sql of ['SELECT * FROM server_file', 'SELECT * FROM file_view']) {
        const err = (await source.query(sql, [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as Error;
        expect(err.message).toMatch(/permission denied for (foreign table|table|view) (server_file|file_view)/);
        expect(err.message).not.toContain(SECRET);
      }
    } finally {
      await source.close();
    }
  });
});

describe('the start-up check: a function the role may execute (the first wall)', () => {
  let flow: string;
  beforeAll(async () => {
    await admin(server.url, 'CREATE DATABASE flow');
    flow = onDatabase(server.url, 'flow');
    // the old recipe: PUBLIC keeps EXECUTE on the owner's function, and on those made later
    await admin(flow, `${markFunction('owners_function', 'SECURITY DEFINER')};
      CREATE ROLE flow_reader LOGIN; GRANT USAGE ON SCHEMA public TO flow_reader; ALTER ROLE flow_reader SET temp_file_limit = '1GB'`);
  });

  it('refuses the role with the fix printed (at start and by the doctor); after the printed statements it is accepted; a function made later is not executable', async () => {
    const url = as(flow, 'flow_reader');
    const engine = new SqlSources({ flow: { url } });
    const said: string[] = [];
    try {
      await engine.announce((m) => said.push(m));
      const err = (await engine.call(() => true, { source: 'flow', query: 'SELECT owners_function()' })).body as { error: string; rule: string };
      expect(err.rule).toBe('role');
    } finally {
      await engine.close();
    }
    expect(said).toHaveLength(1);
    const lines = said[0]!.split('\n');
    expect(lines[0]).toMatch(/^the role flow_reader of the SQL source flow may execute every function postgres will create .*; may execute 1 function not on the allowlist: public\.owners_function\(\) \(SECURITY DEFINER\): refused\./);
    expect(statements(lines)).toEqual([
      'ALTER DEFAULT PRIVILEGES FOR ROLE postgres REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;',
      'REVOKE EXECUTE ON FUNCTION public.owners_function() FROM PUBLIC;',
    ]);
    const doctor = await doctorText({ sql: { sources: { flow: { url } } } });
    expect(doctor).toContain('              to make the role flow_reader of the SQL source flow a reader, run as a superuser (or as each object\'s owner):\n');
    expect(doctor).toContain('                REVOKE EXECUTE ON FUNCTION public.owners_function() FROM PUBLIC;\n');
    expect(readdirSync(dir)).toEqual(['secret.txt']);

    await admin(flow, statements(lines).join('\n'));
    const accepted = new PostgresSource('flow', url);
    try {
      expect(await accepted.inspect()).toMatchObject({ usable: true, fix: [] });
      await admin(flow, markFunction('made_later'));
      const check = new pg.Client({ connectionString: flow });
      await check.connect();
      expect((await check.query("SELECT has_function_privilege('flow_reader', 'public.made_later()', 'EXECUTE') AS may")).rows[0].may).toBe(false);
      await check.end();
      const err = (await accepted.query('SELECT made_later()', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(SqlRefusedError);
    } finally {
      await accepted.close();
    }
    expect(readdirSync(dir)).toEqual(['secret.txt']);
  });
});

async function doctorText(tools: Record<string, unknown>): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  await runDoctor(parseConfig({ sandbox: { warm_pool: 0 }, tools }, {}), { json: false }, out);
  return text;
}
