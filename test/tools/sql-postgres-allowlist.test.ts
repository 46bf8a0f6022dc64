/**
 * The PostgreSQL source's function allowlist, decided by the server's own catalog, against a real
 * server with contrib's tablefunc, dblink, xml2, adminpack, hstore and pg_trgm installed, and user
 * functions (one that runs text, one SECURITY DEFINER). Every statement of the hostile corpus is
 * sent as a superuser source (`privileged_role: allow`) and as the docs' reader role; each is
 * refused, and the targets are untouched: the server file not read, no file written, the rows as
 * they were, the other session alive.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { PostgresSource } from '../../src/tools/sql/postgres.js';
import { SqlSources } from '../../src/tools/sql/engine.js';
import { DEFAULT_SQL_LIMITS, SqlRefusedError } from '../../src/tools/sql/types.js';
import { CATALOG_QUERY, indexCatalog } from '../../src/tools/sql/pg-catalog.js';
import { checkReferences } from '../../src/tools/sql/pg-functions.js';
import { checkPostgresStatement } from '../../src/tools/sql/postgres-rules.js';
import { createReader, fingerprint, seedShop } from './sql-fixtures.js';
import { HOSTILE_STATEMENTS } from './fixtures/postgres-hostile.js';

const SECRET = 'the-secret-in-the-server-file';
const NAMED = ['public.fiscal_quarter', 'public.read_secret'];
let server: TestServer;
let readerUrl: string;
let dir: string;
let before: string;
let victim: pg.Client;
const sources: Record<'superuser' | 'reader', PostgresSource> = {} as never;

beforeAll(async () => {
  server = await startPostgres();
  await seedShop(server.url);
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`
    CREATE EXTENSION tablefunc; CREATE EXTENSION dblink; CREATE EXTENSION xml2; CREATE EXTENSION adminpack;
    CREATE EXTENSION hstore; CREATE EXTENSION pg_trgm;
    CREATE TABLE docs (id int, body text); INSERT INTO docs VALUES (1, '<a>x</a>');
    CREATE FUNCTION public.fiscal_quarter(d date) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT (extract(month FROM d)::int + 8) / 3 % 4 + 1 $$;
    CREATE FUNCTION public.run_sql(q text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN EXECUTE q; RETURN 1; END $$;
    CREATE FUNCTION public.read_secret(p text) RETURNS text LANGUAGE sql SECURITY DEFINER AS $$ SELECT pg_read_file(p) $$;
    CREATE FUNCTION public.owner_name() RETURNS text LANGUAGE sql SECURITY DEFINER AS $$ SELECT current_user::text $$;`);
  await admin.end();
  readerUrl = await createReader(server.url, 'reader', { functions: ['public.fiscal_quarter(date)'] });
  // adminpack installs into pg_catalog, which the recipe's REVOKE … IN SCHEMA public does not reach: the start-up check names it
  const fix = new pg.Client({ connectionString: server.url });
  await fix.connect();
  await fix.query('REVOKE EXECUTE ON FUNCTION pg_catalog.pg_file_rename(text, text) FROM PUBLIC');
  await fix.end();
  sources.superuser = new PostgresSource('shop', server.url, { privilegedRole: 'allow', functions: NAMED });
  sources.reader = new PostgresSource('shop', readerUrl, { functions: NAMED });
  dir = mkdtempSync(join(tmpdir(), 'sql-allowlist-'));
  chmodSync(dir, 0o777); // the server's user could write here: only the rules stop it
  writeFileSync(join(dir, 'secret.txt'), SECRET, { mode: 0o644 });
  victim = new pg.Client({ connectionString: readerUrl, application_name: 'victim' });
  await victim.connect();
  before = await fingerprint(server.url);
});

afterAll(async () => {
  await victim?.end().catch(() => undefined);
  await Promise.all(Object.values(sources).map((s) => s.close()));
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const conn = () => `host=127.0.0.1 port=${server.port} dbname=postgres user=postgres`;
const fill = (sql: string) => sql.replaceAll('DIR', dir).replaceAll('CONN', conn());

describe('the hostile corpus', () => {
  it('holds at least 60 statements', () => {
    expect(HOSTILE_STATEMENTS.length).toBeGreaterThanOrEqual(60);
  });

  const cases = HOSTILE_STATEMENTS.flatMap((h) => (['superuser', 'reader'] as const).map((role) => [role, h.target, h.sql] as const));
  it.each(cases)('as the %s, refuses a statement aimed at a %s: %s', async (role, _target, template) => {
    const err = await sources[role].query(fill(template), [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e);
    if (process.env.SHOW_REFUSALS) console.log(role, (err as SqlRefusedError).rule, (err as Error).message);
    // the superuser may execute everything: the text check refuses it all; the reader's server refuses what the check leaves to it
    if (role === 'superuser' || err instanceof SqlRefusedError) expect(err).toBeInstanceOf(SqlRefusedError);
    else expect(String((err as Error).message)).toMatch(/permission denied for function/);
    expect(String((err as Error).message)).not.toContain(SECRET);
    expect(readdirSync(dir)).toEqual(['secret.txt']);
    expect(readFileSync(join(dir, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect((await victim.query('SELECT 1 AS alive')).rows).toEqual([{ alive: 1 }]);
    expect(await fingerprint(server.url)).toBe(before);
  });
});

describe('the catalog on its own', () => {
  it('refuses every call of the corpus without the refusal list\'s names being read from the text', async () => {
    const client = new pg.Client({ connectionString: readerUrl });
    await client.connect();
    const results = (await client.query(CATALOG_QUERY)) as unknown as pg.QueryResult[];
    await client.end();
    const catalog = indexCatalog(results.map((r) => r.rows));
    const policy = { source: 'shop', functions: new Set(NAMED), securityDefiner: false };
    let checked = 0;
    for (const { sql } of HOSTILE_STATEMENTS) {
      const full = await checkPostgresStatement(fill(sql)).catch((e: unknown) => e);
      // statements refused as statements (DELETE, DO, COPY…) and the configuration-file views have no call to resolve
      if (!(full instanceof SqlRefusedError) || full.rule !== 'function' || full.message.startsWith('the view')) continue;
      const refs = await checkPostgresStatement(fill(sql), { refuseByName: false });
      expect(() => checkReferences(refs, catalog, policy), sql).toThrow(SqlRefusedError);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(60);
  });
});

describe('what the catalog allows', () => {
  it('as the reader, lets through pg_catalog functions, operators and casts, and the functions the source names', async () => {
    const r = await sources.reader.query(
      "SELECT id, fiscal_quarter(placed_on) AS q, lower(note) || '!' AS n, (total * 2)::text AS t, '{\"a\": 1}'::jsonb ->> 'a' AS j, placed_on + interval '1 day' AS d FROM orders WHERE note LIKE $1 AND id BETWEEN 1 AND 3 ORDER BY id",
      ['%'],
      DEFAULT_SQL_LIMITS,
    );
    expect(r.rows.map((row) => row.slice(0, 3))).toEqual([[1, 4, 'first!'], [3, null, 'ß ünïcode ✓!']]) // March: the fourth quarter of a year that starts in April;
  });

  it('refuses an extension function, naming the extension and the key that allows it', async () => {
    const err = (await sources.reader.query("SELECT * FROM crosstab('select 1::text, 1::text, 1::text') AS t(a text, b text)", [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
    expect(err.rule).toBe('function');
    expect(err.message).toContain('public.crosstab is from the extension tablefunc');
    expect(err.message).toContain('add "public.crosstab" to tools.sql.sources.shop.functions');
  });

  it('as the superuser, which may execute every function, refuses a name an extension shares with pg_catalog (hstore\'s ||)', async () => {
    const err = (await sources.superuser.query("SELECT note || '!' FROM orders", [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
    expect(err.rule).toBe('function');
    expect(err.message).toMatch(/the operator \|\| \(public\.\|\|\) is not allowed here: public\.\w+ is from the extension hstore/);
  });

  it('refuses an extension operator on built-in types, and a cast to an extension type, saying which function they run; the reader\'s server refuses the operator', async () => {
    const op = (await sources.superuser.query("SELECT 'abc' % 'abd'", [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
    expect(op.message).toMatch(/the operator % \(public\.%\) is not allowed here: public\.\w+ is from the extension pg_trgm/);
    const denied = (await sources.reader.query("SELECT 'abc' % 'abd'", [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as Error;
    expect(denied.message).toMatch(/permission denied for function similarity_op/);
    const cast = (await sources.reader.query("SELECT 'a=>1'::hstore", [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
    expect(cast.message).toMatch(/the type public\.hstore is not allowed here: public\.hstore_in is from the extension hstore/);
  });

  it('refuses a named SECURITY DEFINER function unless the source says security_definer: true', async () => {
    const refused = (await sources.reader.query("SELECT read_secret('x')", [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
    expect(refused.message).toContain('public.read_secret is SECURITY DEFINER');
    expect(refused.message).toContain('security_definer: true');
    const definer = new PostgresSource('shop', await createReader(server.url, 'definer', { functions: ['public.owner_name()'] }), { functions: ['public.owner_name'], securityDefiner: true });
    try {
      expect((await definer.query('SELECT owner_name()', [], DEFAULT_SQL_LIMITS)).rows).toEqual([['postgres']]);
    } finally {
      await definer.close();
    }
  });

  it('reads the catalog again for a name it does not know: a function made since is refused as what it is', async () => {
    await sources.reader.query('SELECT 1', [], DEFAULT_SQL_LIMITS); // the catalog is read
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query("CREATE FUNCTION public.made_later() RETURNS int LANGUAGE sql AS 'SELECT 1'");
    await admin.end();
    const err = (await sources.reader.query('SELECT made_later()', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
    expect(err.message).toContain('public.made_later is a function of the schema public');
    const unknown = (await sources.reader.query('SELECT no_such_function(1)', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
    expect(unknown.rule).toBe('function');
    expect(unknown.message).toContain('no function named no_such_function');
  });
});

describe('one reading of the text', () => {
  const unsafe = {} as Record<'superuser' | 'reader', PostgresSource>;
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE unsafe');
    // the defaults under which the server reads '\' as an escape: a database (or role) may set them
    await admin.query("ALTER DATABASE unsafe SET standard_conforming_strings = off; ALTER DATABASE unsafe SET backslash_quote = on; ALTER DATABASE unsafe SET escape_string_warning = off");
    await admin.end();
    const onUnsafe = (url: string) => Object.assign(new URL(url), { pathname: '/unsafe' }).toString();
    // default privileges are the database's own: the recipe's line, in this database too
    const owner = new pg.Client({ connectionString: onUnsafe(server.url) });
    await owner.connect();
    await owner.query('ALTER DEFAULT PRIVILEGES FOR ROLE postgres REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC');
    await owner.end();
    unsafe.superuser = new PostgresSource('unsafe', onUnsafe(server.url), { privilegedRole: 'allow' });
    unsafe.reader = new PostgresSource('unsafe', onUnsafe(readerUrl));
  });
  afterAll(async () => {
    await Promise.all(Object.values(unsafe).map((s) => s.close()));
  });

  it.each(['superuser', 'reader'] as const)('as the %s, the server reads a backslash before a quote as the rules do: one literal, no call', async (role) => {
    const sql = `SELECT 'a\\'', pg_read_file($$${dir}/secret.txt$$) --' AS v`;
    const r = await unsafe[role].query(sql, [], DEFAULT_SQL_LIMITS);
    expect(r.rows).toHaveLength(1);
    expect(r.columns).toHaveLength(1);
    expect(String(r.rows[0]![0])).toContain('pg_read_file');
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });

  it('the settings are the database\'s own again outside the statement', async () => {
    const url = new URL(server.url);
    url.pathname = '/unsafe';
    const raw = new pg.Client({ connectionString: url.toString() });
    await raw.connect();
    try {
      expect((await raw.query('SHOW standard_conforming_strings')).rows[0].standard_conforming_strings).toBe('off');
    } finally {
      await raw.end();
    }
  });
});

describe('roles checked at start', () => {
  it('refuses a superuser source unless it says privileged_role: allow, naming what the role may do', async () => {
    const source = new PostgresSource('shop', server.url);
    try {
      const err = (await source.query('SELECT 1', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
      expect(err).toBeInstanceOf(SqlRefusedError);
      expect(err.rule).toBe('role');
      expect(err.message).toContain('the role postgres of the SQL source shop is a superuser');
      expect(err.message).toContain('privileged_role: allow');
      expect((await source.inspect()).usable).toBe(false);
    } finally {
      await source.close();
    }
    const allowed = await sources.superuser.inspect();
    expect(allowed.usable).toBe(true);
    expect(allowed.warning).toMatch(/is a superuser.*allowed by tools\.sql\.sources\.shop\.privileged_role: allow/);
  });

  it('every process says at start which sources have a role that may do more than read', async () => {
    const engine = new SqlSources({ shop: { url: readerUrl, functions: ['public.fiscal_quarter'] }, admin: { url: server.url }, ops: { url: server.url, privileged_role: 'allow' } });
    const said: string[] = [];
    try {
      await engine.announce((m) => said.push(m));
    } finally {
      await engine.close();
    }
    expect(said.sort()).toEqual([
      expect.stringMatching(/^the role postgres of the SQL source admin is a superuser; .*: refused\. Give the tool a reader role/),
      expect.stringMatching(/^the role postgres of the SQL source ops is a superuser; .*: allowed by tools\.sql\.sources\.ops\.privileged_role: allow/),
    ]);
  });

  it('the docs\' reader role reads only', async () => {
    expect(await sources.reader.inspect()).toEqual({ role: { role: 'reader', privileges: [], fixes: [], superuser: false }, usable: true, fix: [] });
  });

  it.each([
    ['writer', 'GRANT INSERT ON orders TO writer', 'may write to public.orders'],
    ['filereader', 'GRANT pg_read_server_files TO filereader', 'a member of pg_read_server_files'],
    ['programmer', 'GRANT pg_execute_server_program TO programmer', 'a member of pg_execute_server_program'],
    ['creator', 'GRANT CREATE ON SCHEMA public TO creator', 'may create objects in the schema public'],
  ])('refuses a role that may do more than read: %s', async (role, grant, says) => {
    const url = await createReader(server.url, role);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(grant);
    await admin.end();
    const source = new PostgresSource('shop', url);
    try {
      const err = (await source.query('SELECT count(*) FROM orders', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as SqlRefusedError;
      expect(err.rule).toBe('role');
      expect(err.message).toContain(says);
    } finally {
      await source.close();
    }
  });
});

it('leaves no file behind', () => {
  expect(existsSync(join(dir, 'marker'))).toBe(false);
});
