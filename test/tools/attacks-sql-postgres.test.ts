/**
 * Server files reached through views and their functions rather than pg_read_file: the server's
 * configuration files (`pg_file_settings`, `pg_hba_file_rules`, `pg_ident_file_mappings`) read as
 * the superuser. Each is refused by the `function` rule and nothing of the files comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { PostgresSource } from '../../src/tools/sql/postgres.js';
import { DEFAULT_SQL_LIMITS, SqlRefusedError } from '../../src/tools/sql/types.js';

let server: TestServer;
let shop: PostgresSource;

beforeAll(async () => {
  server = await startPostgres();
  shop = new PostgresSource('shop', server.url, { privilegedRole: 'allow' });
});

afterAll(async () => {
  await shop?.close();
  await server?.stop();
});

describe('PostgreSQL source: configuration files as the superuser', () => {
  it.each([
    'SELECT sourcefile, name, setting FROM pg_file_settings',
    'SELECT * FROM pg_catalog.pg_file_settings',
    'SELECT * FROM pg_show_all_file_settings()',
    'SELECT * FROM pg_hba_file_rules',
    'SELECT * FROM pg_catalog.pg_hba_file_rules()',
    'SELECT * FROM "pg_file_settings"',
    'WITH f AS (SELECT * FROM pg_ident_file_mappings) SELECT * FROM f',
    'SELECT (SELECT count(*) FROM pg_file_settings)',
  ])('refuses %s', async (sql) => {
    const err = await shop.query(sql, [], DEFAULT_SQL_LIMITS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqlRefusedError);
    expect((err as SqlRefusedError).rule).toBe('function');
  });
});
