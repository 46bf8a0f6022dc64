/**
 * The SQL tool's shapes: a configured source, the limits a query runs under, its result and the
 * errors a query can end with. Every engine (PostgreSQL, SQLite) implements {@link SqlSource}.
 */

/** A configured source, as parsed from `tools.sql.sources.<name>`. */
export interface SqlSourceConfig {
  /** The name programs use: `sql("<name>", …)`. */
  name: string;
  /** `postgresql://user:password@host:port/db` (or `postgres://`), or `sqlite:///abs/path.db` / `sqlite://relative.db`. */
  url: string;
  /** PostgreSQL: functions allowed beyond pg_catalog's built-in set, as `schema.function`. */
  functions?: readonly string[];
  /** PostgreSQL: whether a named SECURITY DEFINER function may run. */
  securityDefiner?: boolean;
  /** PostgreSQL: `allow` uses a role that may do more than read. */
  privilegedRole?: 'allow' | 'refuse';
}

/** What one query may take. Hitting `maxRows` or `maxBytes` truncates; hitting `timeoutMs` fails. */
export interface SqlLimits {
  /** Rows returned at most; the query stops reading there and the result says `truncated`. */
  maxRows: number;
  /** Bytes of encoded row values (JSON text) returned at most; same as `maxRows` past it. */
  maxBytes: number;
  /** Wall time of the query in ms (the server's statement timeout, and a host-side backstop). */
  timeoutMs: number;
}

/** Defaults: 100 000 rows, 32 MiB, 30 s. */
export const DEFAULT_SQL_LIMITS: Readonly<SqlLimits> = Object.freeze({
  maxRows: 100_000,
  maxBytes: 32 * 1024 * 1024,
  timeoutMs: 30_000,
});

/**
 * A column's kind, the same on every engine; the Python client maps it to a pandas dtype.
 * Values on the wire (JSON), per kind:
 * - `int`: a number, or a decimal string when beyond ±2^53; `float`: a number, or `"NaN"`,
 *   `"Infinity"`, `"-Infinity"`; `decimal`: the exact decimal text (`"12.50"`);
 * - `bool`: true/false; `text`: a string; `json`: the JSON value itself; `bytes`: base64 text;
 * - `date`: `"2024-03-01"`; `timestamp`: `"2024-03-01 12:00:00.5"` (no zone);
 *   `timestamptz`: `"2024-03-01 12:00:00.5+00"` (always UTC); `time`, `interval`: the database's text;
 * - `array`: a JSON array; `other`: the database's text.
 * NULL is `null` in every kind.
 */
export type SqlKind =
  | 'int' | 'float' | 'decimal' | 'bool' | 'text' | 'json' | 'bytes'
  | 'date' | 'timestamp' | 'timestamptz' | 'time' | 'interval' | 'array' | 'other';

/** One result column. */
export interface SqlColumn {
  name: string;
  /** See {@link SqlKind}. */
  type: SqlKind;
  /** The database's own type name (`int4`, `numeric`, `timestamptz`, SQLite's storage class…). */
  dbType: string;
}

/** A query's result: rows as arrays in column order, values encoded as {@link SqlKind} says. */
export interface SqlResult {
  columns: SqlColumn[];
  rows: unknown[][];
  /** True when `maxRows` or `maxBytes` stopped the reading; `note` then says which. */
  truncated: boolean;
  /** Why the rows stop short, e.g. `stopped at 100000 rows (the row cap): add a WHERE or LIMIT, or aggregate`. */
  note?: string;
  /** JSON bytes of the row values returned. */
  bytes: number;
}

/** A query parameter: `$1`, `$2`… in PostgreSQL, `?` in SQLite. */
export type SqlParam = string | number | boolean | null | SqlParam[];

/** An open source. Each method may be called concurrently; `close()` ends every connection. */
export interface SqlSource {
  readonly name: string;
  /** `postgresql` or `sqlite`. */
  readonly engine: 'postgresql' | 'sqlite';
  /**
   * Runs one read-only statement.
   * @throws {SqlRefusedError} when the statement breaks a rule (before it reaches the database)
   * @throws {SqlQueryError} when the database refuses or fails it, or the timeout or `signal` stops it
   */
  query(sql: string, params: readonly SqlParam[], limits: SqlLimits, signal?: AbortSignal): Promise<SqlResult>;
  /**
   * Tables and their columns, as text for the model, at most `maxChars` characters (the rest is
   * summarised as `… N more tables`).
   * @throws {SqlQueryError} when the database cannot be read
   */
  describe(maxChars?: number, signal?: AbortSignal): Promise<string>;
  /** Checks the source answers (`SELECT 1`). @throws {SqlQueryError} with the reason when it does not. */
  ping(signal?: AbortSignal): Promise<void>;
  /**
   * What the source's role may do beyond reading (PostgreSQL; a SQLite file has no role), and
   * `fix`: the lines that say how to make it a reader (a heading, then one SQL statement each).
   * @throws {SqlQueryError} when the server cannot be read
   */
  inspect?(): Promise<{ role: { role: string; privileges: string[] }; usable: boolean; warning?: string; fix?: string[] }>;
  close(): Promise<void>;
}

/** A statement refused by a safety rule, before it reached the database. `rule` names the rule. */
export class SqlRefusedError extends Error {
  override readonly name = 'SqlRefusedError';
  constructor(readonly rule: string, message: string) {
    super(message);
  }
}

/** The database refused or failed the query, or it ran out of time (`timedOut`). Never holds the URL. */
export class SqlQueryError extends Error {
  override readonly name = 'SqlQueryError';
  constructor(message: string, readonly timedOut = false) {
    super(message);
  }
}
