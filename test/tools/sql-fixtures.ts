/** A small shop database for the SQL tool's tests, and a fingerprint of it to prove it unchanged. */
import pg from 'pg';

/** Creates `orders` and `customers` (3 orders) in the database at `url`. */
export async function seedShop(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL);
      CREATE TABLE orders (
        id integer PRIMARY KEY, customer_id integer REFERENCES customers(id), total numeric(12,2),
        placed_on date, placed_at timestamptz, paid boolean, note text);
      INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace');
      INSERT INTO orders VALUES
        (1, 1, 12.50, '2024-03-01', '2024-03-01 09:30:00.123456+01', true, 'first'),
        (2, 2, 99999999.99, '2024-03-02', '2024-03-02 23:59:59+00', false, NULL),
        (3, 1, NULL, NULL, NULL, NULL, 'ß ünïcode ✓');`);
  } finally {
    await client.end();
  }
}

/** What must not change: the tables, their rows, the role's settings and the database's objects. */
export async function fingerprint(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const parts: unknown[] = [];
    for (const sql of [
      'SELECT * FROM orders ORDER BY id',
      'SELECT * FROM customers ORDER BY id',
      "SELECT relname, relkind FROM pg_class WHERE relnamespace = 'public'::regnamespace ORDER BY relname",
      'SELECT setdatabase, setrole, setconfig FROM pg_db_role_setting ORDER BY 1, 2',
      'SELECT count(*) FROM pg_largeobject_metadata',
      "SELECT name, setting FROM pg_settings WHERE source NOT IN ('default', 'session', 'client') ORDER BY name",
    ]) {
      parts.push((await client.query(sql)).rows);
    }
    return JSON.stringify(parts);
  } finally {
    await client.end();
  }
}

/** What {@link createReader} grants besides the recipe's defaults. */
export interface ReaderOptions {
  /** The functions to grant EXECUTE on, as `schema.name(argument types)` (the source's `functions:`). */
  functions?: string[];
}

/**
 * Creates the reader role docs/sql-tool.md recommends (its recipe, as written there: SELECT on each
 * ordinary table of public, never a foreign table; no function of the database's own executable
 * unless granted, now or later; a temp file limit) and returns the URL that logs in as it (trust
 * auth on loopback: no password).
 */
export async function createReader(url: string, role = 'reader', options: ReaderOptions = {}): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { db, owner } = (await client.query('SELECT current_database() AS db, pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = current_database()')).rows[0] as { db: string; owner: string };
    const tables = (await client.query("SELECT format('%I.%I', n.nspname, c.relname) AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1")).rows.map((r) => r.t as string);
    await client.query(`
      CREATE ROLE ${role} LOGIN;
      GRANT CONNECT ON DATABASE ${db} TO ${role};
      GRANT USAGE ON SCHEMA public TO ${role};
      ${tables.length ? `GRANT SELECT ON ${tables.join(', ')} TO ${role};` : ''}
      REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
      ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
      ${(options.functions ?? []).map((f) => `GRANT EXECUTE ON FUNCTION ${f} TO ${role};`).join('\n')}
      ALTER ROLE ${role} SET temp_file_limit = '1GB';`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.username = role;
  return u.toString();
}
