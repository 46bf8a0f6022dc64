/**
 * A PostgreSQL source: a small connection pool; each statement checked by the rules
 * (postgres-rules.ts), then by the source's own catalog (pg-functions.ts), then run read-only with
 * the settings that decide how its text is read pinned (postgres-run.ts). The catalog and what the
 * role may do (pg-role.ts) are read on first use and kept for {@link CATALOG_TTL_MS}.
 */
import pg from 'pg';
import { formatDescription, type SchemaColumn } from './describe.js';
import { CATALOG_QUERY, CATALOG_TTL_MS, indexCatalog, type PgCatalog } from './pg-catalog.js';
import { checkReferences, UnknownNameError, type FunctionPolicy } from './pg-functions.js';
import { privilegedSentence, ROLE_QUERY, roleReport, type RoleReport } from './pg-role.js';
import { checkPostgresStatement, type StatementReferences } from './postgres-rules.js';
import { catalogSetup, connectError, runReadOnly } from './postgres-run.js';
import { SqlQueryError, SqlRefusedError, type SqlLimits, type SqlParam, type SqlResult, type SqlSource } from './types.js';

/** Connections per source at most. */
const POOL_SIZE = 4;
/** Time to connect, in ms (default). */
const CONNECT_TIMEOUT_MS = 10_000;
/** Longest the catalog read may take, in ms. */
const CATALOG_TIMEOUT_MS = 15_000;
/** A name the catalog does not know makes it be read again, at most this often, in ms. */
const RELOAD_AFTER_MS = 1000;
/** Limits of the schema query behind describe(). */
const DESCRIBE_LIMITS: SqlLimits = { maxRows: 5000, maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000 };

const SCHEMA_QUERY = `
SELECT CASE WHEN c.table_schema = current_schema() THEN c.table_name ELSE c.table_schema || '.' || c.table_name END,
       c.column_name, c.data_type
FROM information_schema.columns c
WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\\_%'
ORDER BY c.table_schema = current_schema() DESC, c.table_schema, c.table_name, c.ordinal_position`;

/** A PostgreSQL source's settings beyond its URL (`tools.sql.sources.<name>`). */
export interface PostgresSourceOptions {
  /** Time to get a connection (a new one, or a free one of the pool), in ms (default 10 000). */
  connectTimeoutMs?: number;
  /** Functions allowed beyond pg_catalog's built-in set, as `schema.function` (`functions`). */
  functions?: readonly string[];
  /** Whether a named SECURITY DEFINER function may run (`security_definer`, default false). */
  securityDefiner?: boolean;
  /** `allow` uses a role that may do more than read (`privileged_role`, default `refuse`). */
  privilegedRole?: 'allow' | 'refuse';
}

/** What the source's first use read: its catalog and its role. */
interface SourceState {
  catalog: PgCatalog;
  role: RoleReport;
}

/** What {@link PostgresSource.inspect} reports. */
export interface RoleInspection {
  role: RoleReport;
  /** False when the role may do more than read and the source does not allow it: every query is refused. */
  usable: boolean;
  /** The sentence to show when the role may do more than read. */
  warning?: string;
}

/** A PostgreSQL source (`postgresql://…`). Connects lazily; see {@link SqlSource}. */
export class PostgresSource implements SqlSource {
  readonly engine = 'postgresql' as const;
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  readonly #policy: FunctionPolicy;
  readonly #privilegedAllowed: boolean;
  #state: Promise<SourceState> | undefined;

  constructor(readonly name: string, url: string, options: PostgresSourceOptions = {}) {
    this.#url = url;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.#policy = { source: name, functions: new Set((options.functions ?? []).map((f) => f.toLowerCase())), securityDefiner: options.securityDefiner ?? false };
    this.#privilegedAllowed = options.privilegedRole === 'allow';
    this.#pool = new pg.Pool({
      connectionString: url,
      max: POOL_SIZE,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: this.#connectTimeoutMs,
      application_name: 'code-agent sql tool',
    });
    this.#pool.on('error', () => undefined); // an idle connection lost: the next query reconnects
  }

  async query(sql: string, params: readonly SqlParam[], limits: SqlLimits, signal?: AbortSignal): Promise<SqlResult> {
    const refs = await checkPostgresStatement(sql);
    const state = await this.#checked(refs);
    return runReadOnly(this.#pool, (pid) => this.#cancel(pid), sql, params, limits, signal, state.catalog.explicitSearchPath);
  }

  async describe(maxChars?: number, signal?: AbortSignal): Promise<string> {
    const result = await this.query(SCHEMA_QUERY, [], DESCRIBE_LIMITS, signal);
    const columns: SchemaColumn[] = result.rows.map(([table, column, type]) => ({ table: String(table), column: String(column), type: String(type) }));
    return formatDescription(this.name, 'PostgreSQL', columns, maxChars);
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.query('SELECT 1', [], { maxRows: 1, maxBytes: 1024, timeoutMs: this.#connectTimeoutMs }, signal);
  }

  /**
   * What the role may do, read from the server (the doctor, and every process at start).
   * @throws {SqlQueryError} when the server cannot be read
   */
  async inspect(): Promise<RoleInspection> {
    const { role } = await this.#read(false);
    if (role.privileges.length === 0) return { role, usable: true };
    return { role, usable: this.#privilegedAllowed, warning: privilegedSentence(this.name, role, this.#privilegedAllowed) };
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  /** The role allowed and every name of the statement allowed by the catalog (read again once for a name it does not know). */
  async #checked(refs: StatementReferences): Promise<SourceState> {
    let state = await this.#read(false);
    if (state.role.privileges.length > 0 && !this.#privilegedAllowed) {
      throw new SqlRefusedError('role', privilegedSentence(this.name, state.role, false));
    }
    for (let reread = false; ; reread = true) {
      try {
        checkReferences(refs, state.catalog, this.#policy);
        return state;
      } catch (err) {
        if (!(err instanceof UnknownNameError)) throw err;
        if (reread || Date.now() - state.catalog.loadedAt < RELOAD_AFTER_MS) {
          throw new SqlRefusedError('function', `${err.message} in this database: use PostgreSQL's own functions and the tables the source describes`);
        }
        state = await this.#read(true);
      }
    }
  }

  /** The cached catalog and role, read again when `fresh` or older than the TTL; a failed read is not kept. */
  async #read(fresh: boolean): Promise<SourceState> {
    const cached = this.#state && (await this.#state.catch(() => undefined));
    if (cached && !fresh && Date.now() - cached.catalog.loadedAt < CATALOG_TTL_MS) return cached;
    const reading = readState(this.#pool);
    this.#state = reading;
    reading.catch(() => {
      if (this.#state === reading) this.#state = undefined;
    });
    return reading;
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

/** Reads the catalog and the role in one round trip, in a read-only transaction rolled back after. */
async function readState(pool: pg.Pool): Promise<SourceState> {
  const client = await pool.connect().catch((err: unknown) => {
    throw connectError(err);
  });
  let healthy = false;
  try {
    const statements = `SET LOCAL statement_timeout = ${CATALOG_TIMEOUT_MS}; ${CATALOG_QUERY}; ${ROLE_QUERY}`;
    const results = (await client.query(catalogSetup(statements))) as unknown as pg.QueryResult[];
    const tail = results.slice(-6);
    const state = { catalog: indexCatalog(tail.slice(0, 5).map((r) => r.rows)), role: roleReport(tail[5]?.rows[0]) };
    await client.query('ROLLBACK');
    healthy = true;
    return state;
  } catch (err) {
    const e = err as { message?: string; severity?: string };
    throw e.severity ? new SqlQueryError(`cannot read the source's catalog: ${e.message}`) : connectError(err);
  } finally {
    client.release(!healthy);
  }
}
