/**
 * Calls a statement never writes (turn 5, T4): the database's owner defines, in public, overloads of
 * built-ins on a domain, an enum and a row type, an operator `=` on varchar, an implicit cast, and
 * functions named like SQL/JSON syntax newer than the server; each is SECURITY DEFINER and leaves a
 * mark when it runs (a file the server writes into a folder of the test). Every statement that
 * would make the server run one is sent as three roles:
 * - `superuser` (privileged_role: allow): it may execute everything, so the text check alone holds;
 * - `legacy`: the old recipe (every function executable by PUBLIC), allowed by privileged_role:
 *   allow, so again the text check alone — for a role that is not a superuser;
 * - `reader`: the docs' recipe, where the server itself refuses what the role may not execute.
 * Each time no mark is left, the rows are as they were, and nothing of the server file comes back.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { PostgresSource } from '../../src/tools/sql/postgres.js';
import { DEFAULT_SQL_LIMITS, SqlRefusedError } from '../../src/tools/sql/types.js';
import { createReader, fingerprint, seedShop } from './sql-fixtures.js';

const SECRET = 'the-secret-in-the-server-file';
let server: TestServer;
let dir: string;
let before: string;
const roles = ['superuser', 'legacy', 'reader'] as const;
type Role = (typeof roles)[number];
const sources = {} as Record<Role, PostgresSource>;
const casts = {} as Record<Role, PostgresSource>;

/** The start of a SECURITY DEFINER function body that leaves the mark `name` (a file) and reads the server file. */
const marks = (name: string) => `BEGIN EXECUTE format('COPY (SELECT %L) TO %L', pg_read_file('${'${DIR}'}/secret.txt'), '${'${DIR}'}/${name}')`;

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql.replaceAll('${DIR}', dir));
  } finally {
    await client.end();
  }
}

/** The old recipe: every table now and later, and every function of public executable (as PUBLIC's default left it). */
async function legacyRole(url: string, role: string): Promise<string> {
  await admin(url, `CREATE ROLE ${role} LOGIN; GRANT USAGE ON SCHEMA public TO ${role}; GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role};
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${role};
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO ${role}; ALTER ROLE ${role} SET temp_file_limit = '1GB'`);
  return Object.assign(new URL(url), { username: role }).toString();
}

const onDatabase = (url: string, db: string) => Object.assign(new URL(url), { pathname: `/${db}` }).toString();

beforeAll(async () => {
  server = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'sql-resolved-'));
  chmodSync(dir, 0o777); // the server's user may write here: only the walls stop it
  writeFileSync(join(dir, 'secret.txt'), SECRET, { mode: 0o644 });
  await seedShop(server.url);
  await admin(server.url, `
    CREATE DOMAIN public.sqltext AS text;
    CREATE TYPE public.mood AS ENUM ('happy', 'sad');
    CREATE FUNCTION public.lower(public.sqltext) RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('lower')}; RETURN 'x'; END $f$;
    CREATE FUNCTION public.upper(public.mood) RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('upper')}; RETURN 'x'; END $f$;
    CREATE FUNCTION public.length(public.orders) RETURNS int LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('length')}; RETURN 1; END $f$;
    CREATE FUNCTION public.varchar_eq(varchar, varchar) RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('equals')}; RETURN true; END $f$;
    CREATE OPERATOR public.= (LEFTARG = varchar, RIGHTARG = varchar, PROCEDURE = public.varchar_eq);
    CREATE FUNCTION public.json_array(text) RETURNS json LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('json_array')}; RETURN '[]'; END $f$;
    CREATE FUNCTION public.json_object(text) RETURNS json LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('json_object')}; RETURN '{}'; END $f$;
    CREATE FUNCTION public.json_value(text, text) RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('json_value')}; RETURN 'x'; END $f$;`);
  const readerUrl = await createReader(server.url);
  sources.superuser = new PostgresSource('shop', server.url, { privilegedRole: 'allow' });
  sources.legacy = new PostgresSource('shop', await legacyRole(server.url, 'legacy'), { privilegedRole: 'allow' });
  sources.reader = new PostgresSource('shop', readerUrl);
  // the implicit cast lives in a database of its own: any statement may reach it, so there it refuses them all
  await admin(server.url, 'CREATE DATABASE casts');
  const castsUrl = onDatabase(server.url, 'casts');
  await admin(castsUrl, `
    CREATE FUNCTION public.int4_inet(int4) RETURNS inet LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks('cast')}; RETURN '10.0.0.1'; END $f$;
    CREATE CAST (int4 AS inet) WITH FUNCTION public.int4_inet(int4) AS IMPLICIT;`);
  casts.superuser = new PostgresSource('casts', castsUrl, { privilegedRole: 'allow' });
  casts.legacy = new PostgresSource('casts', await legacyRole(castsUrl, 'legacy_casts'), { privilegedRole: 'allow' });
  casts.reader = new PostgresSource('casts', onDatabase(await createReader(castsUrl, 'reader_casts'), 'casts'));
  before = await fingerprint(server.url);
});

afterAll(async () => {
  await Promise.all([...Object.values(sources), ...Object.values(casts)].map((s) => s.close()));
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Sends `sql` and asserts the walls held: refused by the check, or by the server for want of EXECUTE; no mark; nothing read. */
async function holds(source: PostgresSource, role: Role, sql: string): Promise<void> {
  const err = await source.query(sql, [], DEFAULT_SQL_LIMITS).then(
    (r) => new Error(`ran: ${JSON.stringify(r.rows)}`),
    (e: unknown) => e as Error,
  );
  if (role === 'reader' && !(err instanceof SqlRefusedError)) expect(err.message).toMatch(/permission denied for function/);
  else expect(err, err.message).toBeInstanceOf(SqlRefusedError);
  expect(err.message).not.toContain(SECRET);
  expect(readdirSync(dir)).toEqual(['secret.txt']);
}

const attacks = [
  ['an overload on a domain', "SELECT lower('copy me'::sqltext)"],
  ['an overload on an enum', "SELECT upper('happy'::mood)"],
  ['an overload on a row type', 'SELECT length(o) FROM orders o'],
  ['= on varchar through CASE x WHEN', "SELECT CASE 'a'::varchar WHEN 'b'::varchar THEN 1 END"],
  ['= on varchar through IN (SELECT …)', "SELECT 1 WHERE 'a'::varchar IN (SELECT 'b'::varchar)"],
  ['= on varchar through NOT IN (SELECT …)', "SELECT 1 WHERE 'a'::varchar NOT IN (SELECT 'b'::varchar)"],
  ['= on varchar through JOIN … USING', "SELECT * FROM (SELECT 'a'::varchar AS k) x JOIN (SELECT 'a'::varchar AS k) y USING (k)"],
  ['= on varchar through NATURAL JOIN', "SELECT * FROM (SELECT 'a'::varchar AS k) x NATURAL JOIN (SELECT 'a'::varchar AS k) y"],
  ['json_array, syntax on PostgreSQL 16, a call on 15', "SELECT json_array('copy me')"],
  ['json_object, which the parser qualifies with pg_catalog', "SELECT json_object('copy me')"],
  ['json_value, syntax on PostgreSQL 17', "SELECT json_value('copy me', 'x')"],
] as const;

describe('calls the statement never writes (T4)', () => {
  const cases = attacks.flatMap(([what, sql]) => roles.map((role) => [role, what, sql] as const));
  it.each(cases)('as %s: %s runs nothing of the owner\'s', async (role, _what, sql) => {
    await holds(sources[role], role, sql);
    expect(await fingerprint(server.url)).toBe(before);
  });

  it.each(roles)('as %s: an implicit cast the owner made (int4 → inet) runs under no statement', async (role) => {
    for (const sql of ['SELECT host(1)', "SELECT host(1) || 'x'", 'SELECT 1']) {
      if (role === 'reader' && sql === 'SELECT 1') continue; // the reader may run what does not reach the cast
      await holds(casts[role], role, sql);
    }
    if (role === 'superuser') {
      const err = (await casts.superuser.query('SELECT 1', [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e)) as Error;
      expect(err.message).toMatch(/the implicit cast pg_catalog\.int4 → pg_catalog\.inet, which the server may apply to any statement \(it runs public\.int4_inet\)/);
    }
  });

  it('the reader runs the statements that reach only pg_catalog', async () => {
    expect((await casts.reader.query('SELECT 1 AS one', [], DEFAULT_SQL_LIMITS)).rows).toEqual([[1]]);
    const r = await sources.reader.query("SELECT lower('ABC'), upper(note), length(note) FROM orders WHERE id = 1", [], DEFAULT_SQL_LIMITS);
    expect(r.rows).toEqual([['abc', 'FIRST', 5]]);
  });
});

describe('a function the owner makes while the bot runs (T4)', () => {
  it.each(['superuser', 'legacy', 'reader'] as const)('as %s: the next query does not call it', async (role) => {
    const source = role === 'superuser' ? sources.superuser : role === 'legacy' ? sources.legacy : sources.reader;
    const domain = `later_${role}`;
    await admin(server.url, `CREATE DOMAIN public.${domain} AS text`);
    // the first query reads the catalog: initcap(text) is pg_catalog's only
    expect((await source.query(`SELECT initcap('a'::${domain}) AS t`, [], DEFAULT_SQL_LIMITS)).rows).toEqual([['A']]);
    await admin(server.url, `CREATE FUNCTION public.initcap(public.${domain}) RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $f$ ${marks(domain)}; RETURN 'x'; END $f$`);
    if (role === 'legacy') await admin(server.url, `GRANT EXECUTE ON FUNCTION public.initcap(public.${domain}) TO legacy`); // as PUBLIC's default would
    await holds(source, role, `SELECT initcap('a'::${domain}) AS t`);
  });
});

describe('a type made just after the catalog was read', () => {
  it('is found when the catalog changed, and an unknown name is still refused when it did not', async () => {
    const source = new PostgresSource('shop', server.url, { privilegedRole: 'allow' });
    try {
      expect((await source.query('SELECT 1 AS one', [], DEFAULT_SQL_LIMITS)).rows).toEqual([[1]]); // the catalog is read now
      await admin(server.url, 'CREATE DOMAIN public.made_just_now AS text');
      expect((await source.query("SELECT reverse('ab'::made_just_now) AS t", [], DEFAULT_SQL_LIMITS)).rows).toEqual([['ba']]);
      const err = await source.query("SELECT reverse('ab'::never_made) AS t", [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SqlRefusedError);
      expect((err as Error).message).toMatch(/no type named never_made in this database/);
    } finally {
      await source.close();
    }
  });
});
