/**
 * Runs one statement on PostgreSQL the safe way, whatever the role may do: in a READ ONLY
 * transaction that is always rolled back, with `statement_timeout` and
 * `idle_in_transaction_session_timeout`, through the extended query protocol (which refuses
 * several statements) and a cursor read in batches, so a huge result stops at the row or byte
 * cap without being loaded. The session is reset (`DISCARD ALL`) before its connection is reused.
 * The statement rules (postgres-rules.ts) are checked by the caller, before this.
 */
import pg from 'pg';
import Cursor from 'pg-cursor';
import { jsonRowBytes } from './json-size.js';
import { CATALOG_FINGERPRINT, quoteIdent } from './pg-catalog.js';
import { columnType, identityTypes, type Encoder } from './postgres-values.js';
import { SqlQueryError, SqlRefusedError, type SqlColumn, type SqlLimits, type SqlParam, type SqlResult } from './types.js';

/** Rows fetched per round trip at most (fewer when the rows are wide: see {@link nextBatch}). */
const BATCH_ROWS = 1000;
/** Rows of the first round trip, which measures how wide the rows are (one more round trip per query, ~0.2 ms on loopback). */
const FIRST_BATCH_ROWS = 1;
/** Bytes the connection may receive for one query, per byte of the cap (text on the wire is a few bytes a value more than JSON). */
const WIRE_BYTES_PER_CAP_BYTE = 4;
const WIRE_SLACK_BYTES = 1024 * 1024;
/** The host stops a query this long after its time limit if the server has not. */
const HOST_GRACE_MS = 500;
/** A query the server has not ended this long after the host asked it to loses its connection. */
const CANCEL_GRACE_MS = 5000;

/** What the statement's session is opened with besides the limits. */
export interface SessionOptions {
  /** The schemas names were resolved in by the catalog check, pinned for the statement. */
  searchPath?: readonly string[];
  /** `temp_file_limit` to pin (`1GB`): only a superuser role may set it, so only for one. */
  tempFileLimit?: string;
  /**
   * The catalog the statement was checked against: its fingerprint is read in the round trip that
   * opens the transaction, and when it differs `changed` runs on the same connection, in the same
   * transaction, before the statement is sent (it reads the catalog again and checks the statement
   * again, throwing to refuse it).
   */
  catalog?: { fingerprint: string; changed(client: pg.PoolClient): Promise<void> };
}

/**
 * Runs `sql` with `params` ($1, $2…) on a connection of `pool`.
 * @param cancel asks the server to cancel the backend with this pid (a separate connection)
 * @throws {SqlQueryError} the database's refusal or failure (message without URL), or the time limit
 *   (`timedOut`), or `signal` aborting
 * @throws {SqlRefusedError} what `session.catalog.changed` throws
 */
export async function runReadOnly(
  pool: pg.Pool,
  cancel: (pid: number) => Promise<void>,
  sql: string,
  params: readonly SqlParam[],
  limits: SqlLimits,
  signal?: AbortSignal,
  session: SessionOptions = {},
): Promise<SqlResult> {
  if (signal?.aborted) throw stoppedError();
  const client = await pool.connect().catch((err: unknown) => {
    throw connectError(err);
  });
  let stopped: 'timeout' | 'abort' | 'bytes' | undefined;
  let cursor: Cursor | undefined;
  let timer: NodeJS.Timeout | undefined;
  let hardStop: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let healthy = false;
  // a connection lost while checked out emits 'error' on the client: the query's own error says it
  const ignore = () => undefined;
  client.on('error', ignore);
  // the byte cap counts encoded rows; this stops a single huge value (or a wide batch) on the wire
  const stream = client.connection.stream;
  let wire = 0;
  const onData = (chunk: Buffer) => {
    wire += chunk.length;
    if (wire > WIRE_BYTES_PER_CAP_BYTE * limits.maxBytes + WIRE_SLACK_BYTES && !stopped) {
      stopped = 'bytes';
      stream.destroy();
    }
  };
  try {
    const setup = (await client.query(sessionSetup(limits.timeoutMs, session))) as unknown as pg.QueryResult[];
    const pinned = setup.at(-1)?.rows[0] as Record<string, unknown> | undefined;
    checkReading(pinned);
    if (session.catalog && String(pinned?.fingerprint) !== session.catalog.fingerprint) await session.catalog.changed(client);
    const pid = Number(pinned?.pid);
    const stop = (why: 'timeout' | 'abort') => {
      if (stopped) return;
      stopped = why;
      void cancel(pid).catch(() => undefined);
      hardStop = setTimeout(() => stream.destroy(), CANCEL_GRACE_MS);
    };
    timer = setTimeout(() => stop('timeout'), limits.timeoutMs + HOST_GRACE_MS);
    onAbort = () => stop('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    cursor = client.query(new Cursor(sql, params as unknown[], { rowMode: 'array', types: identityTypes }));
    const result = await collect(cursor, limits);
    healthy = true;
    return result;
  } catch (err) {
    throw queryError(err, stopped, limits);
  } finally {
    clearTimeout(timer);
    clearTimeout(hardStop);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    stream.off('data', onData);
    healthy = !stream.destroyed && (await reset(client, cursor)) && healthy;
    client.off('error', ignore);
    client.release(!healthy);
  }
}

/**
 * The settings that change how the server reads a statement's text, pinned to what the rules'
 * parser assumes (libpg-query reads text as a server with the defaults does): with
 * `standard_conforming_strings = off` (a database or role may set it), `'a\'', f() --'` is one
 * literal to the parser and a call of f to the server. `backslash_quote` and `client_encoding`
 * decide how a backslash and a multibyte character next to a quote read.
 */
export const READING_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  standard_conforming_strings: 'on',
  backslash_quote: 'safe_encoding',
  client_encoding: 'UTF8',
});

const PINNED_READING = Object.entries(READING_SETTINGS).map(([k, v]) => `SET LOCAL ${k} = '${v}'`);
const READ_BACK = Object.keys(READING_SETTINGS).map((k) => `current_setting('${k}') AS ${k}`).join(', ');

/** @throws {SqlQueryError} when a reading setting did not take (the statement is not sent) */
function checkReading(row: Record<string, unknown> | undefined): void {
  for (const [k, v] of Object.entries(READING_SETTINGS)) {
    if (String(row?.[k] ?? '').toUpperCase() !== v.toUpperCase()) {
      throw new SqlQueryError(`the source cannot pin ${k} = ${v} (it reads ${String(row?.[k])}): statements would be read differently by the server than by the rules, so none is sent`);
    }
  }
}

/** `SET LOCAL search_path` to the schemas the catalog check resolved names in. */
export function pinnedSearchPath(schemas: readonly string[]): string {
  return `SET LOCAL search_path = ${schemas.length ? schemas.map(quoteIdent).join(', ') : "''"}`;
}

/**
 * The settings and the reads that open a session for the catalog check (pg-catalog.ts), as one
 * simple-protocol query: a read-only transaction, the reading settings pinned, then `statements`.
 * The caller rolls back.
 */
export function catalogSetup(statements: string): string {
  return ['BEGIN READ ONLY', ...PINNED_READING, statements].join('; ');
}

/** The transaction and session settings every statement runs under; the last result is the backend pid, the reading settings and the catalog's fingerprint. */
function sessionSetup(timeoutMs: number, session: SessionOptions): string {
  const ms = Math.max(1, Math.ceil(timeoutMs));
  return [
    'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    ...PINNED_READING,
    ...(session.searchPath ? [pinnedSearchPath(session.searchPath)] : []),
    ...(session.tempFileLimit ? [`SET LOCAL temp_file_limit = '${session.tempFileLimit.replace(/[^0-9A-Za-z]/g, '')}'`] : []),
    `SET LOCAL statement_timeout = ${ms}`,
    `SET LOCAL idle_in_transaction_session_timeout = ${ms + 10_000}`,
    "SET LOCAL TimeZone = 'UTC'",
    "SET LOCAL DateStyle = 'ISO, YMD'",
    "SET LOCAL IntervalStyle = 'postgres'",
    "SET LOCAL bytea_output = 'hex'",
    'SET LOCAL extra_float_digits = 1',
    `SELECT pg_backend_pid() AS pid, ${READ_BACK}${session.catalog ? `, ${CATALOG_FINGERPRINT} AS fingerprint` : ''}`,
  ].join('; ');
}

/** Closes the cursor, rolls back and resets the session. @returns whether the connection can be reused. */
async function reset(client: pg.PoolClient, cursor: Cursor | undefined): Promise<boolean> {
  try {
    await cursor?.close();
    await client.query('ROLLBACK');
    await client.query('DISCARD ALL');
    return true;
  } catch {
    return false;
  }
}

function read(cursor: Cursor, rows: number): Promise<{ rows: string[][]; fields: pg.FieldDef[] }> {
  return new Promise((resolve, reject) => {
    cursor.read(rows, (err, got, result) => (err ? reject(err) : resolve({ rows: got as string[][], fields: result?.fields ?? [] })));
  });
}

/** Rows to ask for next: what is left of the row cap (and one more, to know there is more), and of the byte cap at the mean row size so far. */
function nextBatch(limits: SqlLimits, rows: number, bytes: number): number {
  const byRows = limits.maxRows - rows + 1;
  const byBytes = rows === 0 ? FIRST_BATCH_ROWS : Math.ceil((limits.maxBytes - bytes) / (bytes / rows)) + 1;
  return Math.max(1, Math.min(BATCH_ROWS, byRows, byBytes));
}

async function collect(cursor: Cursor, limits: SqlLimits): Promise<SqlResult> {
  let columns: SqlColumn[] | undefined;
  let encoders: Encoder[] = [];
  const rows: unknown[][] = [];
  let bytes = 2;
  for (;;) {
    const batch = nextBatch(limits, rows.length, bytes);
    const got = await read(cursor, batch);
    if (!columns) {
      const types = got.fields.map((f) => columnType(f.dataTypeID));
      columns = got.fields.map((f, i) => ({ name: f.name, type: types[i]!.kind, dbType: types[i]!.dbType }));
      encoders = types.map((t) => t.encode);
    }
    for (const raw of got.rows) {
      if (rows.length >= limits.maxRows) {
        return { columns, rows, bytes, truncated: true, note: `stopped at ${rows.length} rows (the row cap): the query has more; filter, aggregate or LIMIT it in SQL` };
      }
      const row = raw.map((v, i) => (v === null ? null : encoders[i]!(v)));
      const size = jsonRowBytes(row) + 1;
      if (bytes + size > limits.maxBytes) {
        return { columns, rows, bytes, truncated: true, note: `stopped at ${rows.length} rows: the result passed the byte cap (${limits.maxBytes} bytes); select fewer columns or rows` };
      }
      rows.push(row);
      bytes += size;
    }
    if (got.rows.length < batch) return { columns, rows, bytes, truncated: false };
  }
}

function stoppedError(): SqlQueryError {
  return new SqlQueryError('the query was stopped: the program\'s execution ended');
}

function timeoutError(limits: SqlLimits): SqlQueryError {
  return new SqlQueryError(`the query ran longer than the ${limits.timeoutMs / 1000} s time limit and was stopped: filter, aggregate or LIMIT it`, true);
}

/** A connection failure, without the URL (pg's network errors name the host and port). */
export function connectError(err: unknown): SqlQueryError {
  const e = err as { code?: string; message?: string; severity?: string };
  if (/timeout exceeded when trying to connect|due to connection timeout/.test(e.message ?? '')) {
    return new SqlQueryError('cannot connect to the database: no connection within the connect timeout (the server did not answer, or every connection of this source stayed busy)');
  }
  const reason = e.severity ? e.message : (e.code ?? 'no answer');
  return new SqlQueryError(`cannot connect to the database: ${reason}`);
}

function queryError(err: unknown, stopped: 'timeout' | 'abort' | 'bytes' | undefined, limits: SqlLimits): SqlQueryError | SqlRefusedError {
  if (err instanceof SqlQueryError || err instanceof SqlRefusedError) return err;
  if (stopped === 'abort') return stoppedError();
  if (stopped === 'bytes') return new SqlQueryError(`the result passed the byte cap (${limits.maxBytes} bytes) before its rows could be cut: select fewer or smaller columns`);
  const e = err as { code?: string; message?: string; hint?: string; severity?: string };
  if (stopped === 'timeout' || (e.code === '57014' && /statement timeout/.test(e.message ?? ''))) return timeoutError(limits);
  if (!e.severity) return connectError(err);
  return new SqlQueryError(`the database refused the query: ${e.message}${e.hint ? ` (hint: ${e.hint})` : ''}`);
}
