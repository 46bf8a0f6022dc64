/**
 * A SQLite source: each query runs in its own short host process (Debian's python3 and its
 * sqlite3 module, see sqlite_reader.py), which opens the file read-only and lets through reading
 * statements only (SQLite's authorizer sees every table, column, function and pragma a statement
 * touches). The process is killed when the query outlives its time limit or the execution ends.
 */
import { spawn } from 'node:child_process';
import PQueue from 'p-queue';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatDescription, type SchemaColumn } from './describe.js';
import { SqlQueryError, SqlRefusedError, type SqlLimits, type SqlParam, type SqlResult, type SqlSource } from './types.js';

/** The host's python3 (Debian's, as the sandbox's). */
export const HOST_PYTHON = '/usr/bin/python3';
/** The reader is killed this long after the query's time limit if it has not stopped itself. */
const KILL_GRACE_MS = 2000;
/** Bytes of reader output beyond the row bytes (column list, note, JSON punctuation). */
const OUTPUT_OVERHEAD = 1024 * 1024;
const DESCRIBE_LIMITS: SqlLimits = { maxRows: 5000, maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000 };
const SCHEMA_QUERY = `SELECT m.name, p.name, p.type FROM sqlite_master m JOIN pragma_table_info(m.name) p
WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY m.name, p.cid`;

const CANDIDATES = ['./sqlite_reader.py', '../../../../src/tools/sql/sqlite_reader.py'];

/** The reader script's host path: next to this module, or in `src/` when running the compiled `dist/`. */
function readerPath(): string {
  for (const rel of CANDIDATES) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error(`sqlite_reader.py not found next to ${fileURLToPath(import.meta.url)} nor in src/tools/sql/`);
}

/** Reader output: a result, or an error with its rule or time-out flag. */
type ReaderOutput = (SqlResult & { error?: undefined }) | { error: string; rule?: string; timedOut?: boolean };

/**
 * Reader processes one SQLite source runs at once (a PostgreSQL source's pool has as many
 * connections); further queries wait their turn. Each reader may use hundreds of MB: without this,
 * a program calling `sql()` from many threads would start as many host processes as calls.
 */
export const MAX_SQLITE_READERS = 4;

/** A SQLite file source (`sqlite:///abs/path.db`). See {@link SqlSource}. */
export class SqliteSource implements SqlSource {
  readonly engine = 'sqlite' as const;
  readonly #readers = new PQueue({ concurrency: MAX_SQLITE_READERS });

  /**
   * @param path the database file's absolute path
   * @param written the path as the config wrote it, when it was relative (resolved from the working directory)
   */
  constructor(readonly name: string, readonly path: string, private readonly written?: string) {}

  async query(sql: string, params: readonly SqlParam[], limits: SqlLimits, signal?: AbortSignal): Promise<SqlResult> {
    const request = { path: this.path, sql, params, maxRows: limits.maxRows, maxBytes: limits.maxBytes, timeoutMs: limits.timeoutMs };
    const out = await this.#readers.add(() => this.#run(request, limits, signal), { signal, throwOnTimeout: true }).catch((err: unknown) => {
      throw signal?.aborted ? stopped() : err; // aborted while waiting its turn
    });
    if (out.error === undefined) return out;
    if (out.rule) throw new SqlRefusedError(out.rule, out.error);
    throw new SqlQueryError(out.error, out.timedOut === true);
  }

  async describe(maxChars?: number, signal?: AbortSignal): Promise<string> {
    const result = await this.query(SCHEMA_QUERY, [], DESCRIBE_LIMITS, signal);
    const columns: SchemaColumn[] = result.rows.map(([table, column, type]) => ({ table: String(table), column: String(column), type: String(type || 'any').toLowerCase() }));
    return formatDescription(this.name, 'SQLite', columns, maxChars);
  }

  /** @throws {SqlQueryError} naming the file (for the operator: doctor) when it does not exist, or why the query failed. */
  async ping(signal?: AbortSignal): Promise<void> {
    if (!existsSync(this.path)) {
      const relative = this.written ? ` ("${this.written}" is read from the directory code-agent runs in; write sqlite:///absolute/path.db for another)` : '';
      throw new SqlQueryError(`no SQLite file at ${this.path}${relative}`);
    }
    await this.query('SELECT count(*) FROM sqlite_master', [], { maxRows: 1, maxBytes: 1024, timeoutMs: 10_000 }, signal);
  }

  async close(): Promise<void> {}

  #run(request: object, limits: SqlLimits, signal?: AbortSignal): Promise<ReaderOutput> {
    if (signal?.aborted) return Promise.reject(stopped());
    return new Promise((resolve, reject) => {
      const child = spawn(HOST_PYTHON, ['-I', '-S', readerPath()], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' } });
      const chunks: Buffer[] = [];
      let size = 0;
      let why: SqlQueryError | undefined;
      let stderr = '';
      const kill = (error: SqlQueryError) => {
        why ??= error;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => kill(timedOut(limits)), limits.timeoutMs + KILL_GRACE_MS);
      const onAbort = () => kill(stopped());
      signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes + OUTPUT_OVERHEAD) kill(new SqlQueryError('the SQLite reader sent more than the byte cap allows'));
        else chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      child.on('error', (err) => kill(new SqlQueryError(`cannot start ${HOST_PYTHON} for SQLite: ${err.message}`)));
      child.on('close', (code) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (why) return reject(why);
        if (code !== 0) return reject(new SqlQueryError(`the SQLite reader failed (exit ${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReaderOutput);
        } catch {
          reject(new SqlQueryError('the SQLite reader sent no result'));
        }
      });
      child.stdin.on('error', () => undefined); // the reader died first: 'close' says why
      child.stdin.end(JSON.stringify(request));
    });
  }
}

function stopped(): SqlQueryError {
  return new SqlQueryError("the query was stopped: the program's execution ended");
}

function timedOut(limits: SqlLimits): SqlQueryError {
  return new SqlQueryError(`the query ran longer than the ${limits.timeoutMs / 1000} s time limit and was stopped: filter, aggregate or LIMIT it`, true);
}
