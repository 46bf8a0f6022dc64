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

/**
 * Creates the reader role docs/sql-tool.md recommends (its recipe, as written there) and returns
 * the URL that logs in as it (trust auth on loopback: no password).
 */
export async function createReader(url: string, role = 'reader'): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const db = (await client.query('SELECT current_database() AS db')).rows[0].db as string;
    await client.query(`
      CREATE ROLE ${role} LOGIN;
      GRANT CONNECT ON DATABASE ${db} TO ${role};
      GRANT USAGE ON SCHEMA public TO ${role};
      GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role};
      ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO ${role};`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.username = role;
  return u.toString();
}
