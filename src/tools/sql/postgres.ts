/**
 * A PostgreSQL source: a small connection pool; each statement checked by the rules
 * (postgres-rules.ts), then by the source's own catalog (pg-functions.ts), then run read-only with
 * the settings that decide how its text is read pinned (postgres-run.ts). The catalog, what the
 * role may do (pg-role.ts) and what it may reach (pg-reach.ts) are read on first use, again on the
 * statement's own connection whenever the catalog's fingerprint changed (read with every
 * statement) or the statement names something the cached catalog does not know, and at least every
 * {@link CATALOG_TTL_MS}.
 */
import pg from 'pg';
import { formatDescription, type SchemaColumn } from './describe.js';
import { CATALOG_TTL_MS } from './pg-catalog.js';
import { checkReferences, UnknownNameError, type FunctionPolicy } from './pg-functions.js';
import { TEMP_FILE_LIMIT } from './pg-reach.js';
import { fixLines, privilegedSentence, type RoleReport } from './pg-role.js';
import { readSourceState, type SourceState } from './pg-state.js';
import { checkPostgresStatement, type StatementReferences } from './postgres-rules.js';
import { catalogSetup, connectError, runReadOnly } from './postgres-run.js';
import { SqlQueryError, SqlRefusedError, type SqlLimits, type SqlParam, type SqlResult, type SqlSource } from './types.js';

/** Connections per source at most. */
const POOL_SIZE = 4;
/** Time to connect, in ms (default). */
const CONNECT_TIMEOUT_MS = 10_000;
/** Longest the catalog read may take, in ms. */
const CATALOG_TIMEOUT_MS = 15_000;
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

/** What {@link PostgresSource.inspect} reports. */
export interface RoleInspection {
  role: RoleReport;
  /** False when the role may do more than read and the source does not allow it: every query is refused. */
  usable: boolean;
  /** The sentence to show when the role may do more than read. */
  warning?: string;
  /** The lines that say how to make the role a reader: a heading, then one SQL statement each (empty for a reader). */
  fix: string[];
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
    const { state, unknown } = await this.#checked(refs);
    const searchPath = state.catalog.explicitSearchPath;
    return runReadOnly(this.#pool, (pid) => this.#cancel(pid), sql, params, limits, signal, {
      searchPath,
      tempFileLimit: state.role.superuser ? TEMP_FILE_LIMIT : undefined,
      catalog: {
        // a name the cached catalog does not know: read it again in the statement's transaction whatever its fingerprint
        fingerprint: unknown ? '' : state.catalog.fingerprint,
        // the catalog changed since it was read: read it again in the statement's own transaction, and check again
        changed: async (client) => {
          const fresh = await readSourceState(client, this.#policy, searchPath).catch((err: unknown) => {
            throw new SqlQueryError(`cannot read the source's catalog: ${(err as Error).message}`);
          });
          this.#state = Promise.resolve(fresh);
          this.#allowed(fresh, refs, true);
        },
      },
    });
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
    const { role } = await this.#read();
    if (role.privileges.length === 0) return { role, usable: true, fix: [] };
    return { role, usable: this.#privilegedAllowed, warning: privilegedSentence(this.name, role, this.#privilegedAllowed), fix: fixLines(this.name, role) };
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  /**
   * The cached state, the role allowed and every name of the statement allowed by it; `unknown` when
   * the cached catalog does not know a name (the statement's own transaction reads it again).
   */
  async #checked(refs: StatementReferences): Promise<{ state: SourceState; unknown: boolean }> {
    const state = await this.#read();
    try {
      this.#allowed(state, refs, false);
      return { state, unknown: false };
    } catch (err) {
      if (!(err instanceof UnknownNameError)) throw err;
      return { state, unknown: true };
    }
  }

  /**
   * Refuses the statement when the role may do more than read (and the source does not allow it) or
   * a name is not allowed by the catalog.
   * @param final a name the catalog does not know is refused (else {@link UnknownNameError} asks for a re-read)
   */
  #allowed(state: SourceState, refs: StatementReferences, final: boolean): void {
    if (state.role.privileges.length > 0 && !this.#privilegedAllowed) {
      throw new SqlRefusedError('role', privilegedSentence(this.name, state.role, false));
    }
    try {
      checkReferences(refs, state.catalog, this.#policy);
    } catch (err) {
      if (!(err instanceof UnknownNameError) || !final) throw err;
      throw new SqlRefusedError('function', `${err.message} in this database: use PostgreSQL's own functions and the tables the source describes`);
    }
  }

  /** The cached catalog and role, read again when older than the TTL; a failed read is not kept. */
  async #read(): Promise<SourceState> {
    const cached = this.#state && (await this.#state.catch(() => undefined));
    if (cached && Date.now() - cached.catalog.loadedAt < CATALOG_TTL_MS) return cached;
    const reading = readState(this.#pool, this.#policy);
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

/** Reads the catalog, the role and what it may reach in one round trip, in a read-only transaction rolled back after. */
async function readState(pool: pg.Pool, policy: FunctionPolicy): Promise<SourceState> {
  const client = await pool.connect().catch((err: unknown) => {
    throw connectError(err);
  });
  let healthy = false;
  try {
    await client.query(catalogSetup(`SET LOCAL statement_timeout = ${CATALOG_TIMEOUT_MS}`));
    const state = await readSourceState(client, policy);
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
