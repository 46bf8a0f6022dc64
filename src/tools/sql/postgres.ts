/** A PostgreSQL source: a small connection pool, statements checked by the rules, then run read-only. */
import pg from 'pg';
import { formatDescription, type SchemaColumn } from './describe.js';
import { checkPostgresStatement } from './postgres-rules.js';
import { runReadOnly } from './postgres-run.js';
import type { SqlLimits, SqlParam, SqlResult, SqlSource } from './types.js';

/** Connections per source at most. */
const POOL_SIZE = 4;
/** Time to connect, in ms (default). */
const CONNECT_TIMEOUT_MS = 10_000;
/** Limits of the schema query behind describe(). */
const DESCRIBE_LIMITS: SqlLimits = { maxRows: 5000, maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000 };

const SCHEMA_QUERY = `
SELECT CASE WHEN c.table_schema = current_schema() THEN c.table_name ELSE c.table_schema || '.' || c.table_name END,
       c.column_name, c.data_type
FROM information_schema.columns c
WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\\_%'
ORDER BY c.table_schema = current_schema() DESC, c.table_schema, c.table_name, c.ordinal_position`;

/** A PostgreSQL source (`postgresql://…`). Connects lazily; see {@link SqlSource}. */
export class PostgresSource implements SqlSource {
  readonly engine = 'postgresql' as const;
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #connectTimeoutMs: number;

  /** @param connectTimeoutMs time to get a connection (a new one, or a free one of the pool), in ms */
  constructor(readonly name: string, url: string, connectTimeoutMs = CONNECT_TIMEOUT_MS) {
    this.#url = url;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.#pool = new pg.Pool({
      connectionString: url,
      max: POOL_SIZE,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: connectTimeoutMs,
      application_name: 'code-agent sql tool',
    });
    this.#pool.on('error', () => undefined); // an idle connection lost: the next query reconnects
  }

  async query(sql: string, params: readonly SqlParam[], limits: SqlLimits, signal?: AbortSignal): Promise<SqlResult> {
    await checkPostgresStatement(sql);
    return runReadOnly(this.#pool, (pid) => this.#cancel(pid), sql, params, limits, signal);
  }

  async describe(maxChars?: number, signal?: AbortSignal): Promise<string> {
    const result = await this.query(SCHEMA_QUERY, [], DESCRIBE_LIMITS, signal);
    const columns: SchemaColumn[] = result.rows.map(([table, column, type]) => ({ table: String(table), column: String(column), type: String(type) }));
    return formatDescription(this.name, 'PostgreSQL', columns, maxChars);
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.query('SELECT 1', [], { maxRows: 1, maxBytes: 1024, timeoutMs: this.#connectTimeoutMs }, signal);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  /** Cancels the statement running in backend `pid`, from a separate connection. */
  async #cancel(pid: number): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: this.#connectTimeoutMs });
    try {
      await client.connect();
      await client.query('SELECT pg_cancel_backend($1)', [pid]);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
