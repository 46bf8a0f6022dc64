/**
 * The SQL tool's engine: every configured source, opened once per process and shared by all
 * executions, each with its own limits. What the tool's broker route, the model's description and
 * `doctor` call.
 */
import { DESCRIBE_MAX_CHARS } from './describe.js';
import { handleSqlCall, type SqlCallOutcome } from './handler.js';
import { openSqlSource } from './open.js';
import { DEFAULT_SQL_LIMITS, type SqlLimits, type SqlSource } from './types.js';

/** One `tools.sql.sources.<name>` as configured (extra keys, such as `conversations`, are ignored). */
export interface SqlSourceSettings {
  /** `postgresql://…` or `sqlite:///path.db`. */
  url: string;
  /** Longest one query may run, in s (default 30). */
  timeout_s?: number;
  /** Most rows one query returns (default 100 000). */
  max_rows?: number;
  /** Largest result one query returns, in MiB (default 32). */
  max_result_mb?: number;
  /** PostgreSQL: functions allowed beyond pg_catalog's built-in set, as `schema.function`. */
  functions?: readonly string[];
  /** PostgreSQL: whether a named SECURITY DEFINER function may run (default false). */
  security_definer?: boolean;
  /** PostgreSQL: `allow` uses a role that may do more than read (default `refuse`). */
  privileged_role?: 'allow' | 'refuse';
}

/** The configured sources and their limits. */
export class SqlSources {
  readonly #sources = new Map<string, SqlSource>();
  readonly #limits = new Map<string, SqlLimits>();

  /**
   * Opens every source (PostgreSQL connects on first use; SQLite files are opened per query).
   * @param settings by source name
   * @throws {Error} when a URL has another scheme or no path; the message names the source, never the URL
   */
  constructor(settings: Readonly<Record<string, SqlSourceSettings>>) {
    for (const [name, s] of Object.entries(settings)) {
      this.#sources.set(name, openSqlSource({ name, url: s.url, functions: s.functions, securityDefiner: s.security_definer, privilegedRole: s.privileged_role }));
      this.#limits.set(name, {
        timeoutMs: s.timeout_s !== undefined ? s.timeout_s * 1000 : DEFAULT_SQL_LIMITS.timeoutMs,
        maxRows: s.max_rows ?? DEFAULT_SQL_LIMITS.maxRows,
        maxBytes: s.max_result_mb !== undefined ? Math.floor(s.max_result_mb * 1024 * 1024) : DEFAULT_SQL_LIMITS.maxBytes,
      });
    }
  }

  /** The source names. */
  get names(): string[] {
    return [...this.#sources.keys()];
  }

  /** The limits a source's queries run under. @throws {Error} for an unknown name */
  limitsOf(name: string): SqlLimits {
    const limits = this.#limits.get(name);
    if (!limits) throw new Error(`no SQL source named "${name}"`);
    return limits;
  }

  /**
   * Serves one `/sql` call of a program (see {@link handleSqlCall}): `{source, query, params?}` →
   * status, JSON body and the call's record. A source `allowed` refuses is a 403. Never throws.
   */
  call(allowed: (name: string) => boolean, payload: unknown, signal?: AbortSignal): Promise<SqlCallOutcome> {
    return handleSqlCall(this.#sources, allowed, payload, (name) => this.limitsOf(name), signal);
  }

  /** The source's tables and columns, as text for the model (at most 4000 characters). @throws {Error} unknown name, or the database's error */
  async describe(name: string, signal?: AbortSignal): Promise<string> {
    return this.#source(name).describe(DESCRIBE_MAX_CHARS, signal);
  }

  /** Checks the source answers. @throws {Error} saying why not (never with its URL) */
  async ping(name: string, signal?: AbortSignal): Promise<void> {
    return this.#source(name).ping(signal);
  }

  /**
   * What each source's role may do, by source name (sources without a role are left out).
   * @throws {Error} unknown name; {@link SqlQueryError} when the server cannot be read
   */
  async inspect(name: string): Promise<Awaited<ReturnType<NonNullable<SqlSource['inspect']>>> | undefined> {
    return this.#source(name).inspect?.();
  }

  /**
   * Says, through `warn`, every source whose role may do more than read: allowed (a loud warning)
   * or refused (every query will be), each followed by the statements that make it a reader (one
   * message, one line each). Reads each PostgreSQL source once; a source that does not answer is
   * left to its first query to report. Never throws.
   */
  async announce(warn: (message: string) => void): Promise<void> {
    await Promise.all(
      this.names.map(async (name) => {
        const found = await this.inspect(name).catch(() => undefined);
        if (found?.warning) warn([found.warning, ...(found.fix ?? [])].join('\n'));
      }),
    );
  }

  /** Closes every source's connections. */
  async close(): Promise<void> {
    await Promise.all([...this.#sources.values()].map((s) => s.close()));
  }

  #source(name: string): SqlSource {
    const source = this.#sources.get(name);
    if (!source) throw new Error(`no SQL source named "${name}"`);
    return source;
  }
}
