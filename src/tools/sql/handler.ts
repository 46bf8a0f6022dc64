/**
 * The broker's `/sql` route: a program's `sql("<source>", "<query>", params)` arrives here as a
 * JSON payload, runs on the host against the named source, and goes back as JSON. No URL,
 * password or host name ever enters a body or a record.
 */
import { createHash } from 'node:crypto';
import { SqlQueryError, SqlRefusedError, type SqlLimits, type SqlParam, type SqlResult, type SqlSource } from './types.js';

/** Longest query text accepted, in characters. */
export const MAX_QUERY_CHARS = 100_000;
/** Most parameters accepted. */
export const MAX_PARAMS = 1000;

/** The route's answer: the HTTP status, the JSON body, and the line the attempt's record keeps. */
export interface SqlCallOutcome {
  /**
   * 200 the query ran (the body is {@link SqlResult} without `bytes`: `{columns, rows, truncated, note?}`);
   * 400 the payload is malformed or the statement was refused by a rule (`{error, rule?}`);
   * 403 the source is unknown or not allowed in this conversation (`{error}`);
   * 422 the database refused or failed the query (`{error}`); 504 the query ran out of time (`{error}`).
   */
  status: number;
  body: object;
  /** e.g. `sql shop: 1 query, 3 rows, 12 ms`; `ok` false for any status but 200; `bytes` of the JSON body; `tool` always `sql`. */
  record: { tool: 'sql'; summary: string; ok: boolean; durationMs: number; bytes: number; answer?: string };
}

/** The payload a program sends: `{source, query, params?}`. */
interface SqlCall {
  source: string;
  query: string;
  params: SqlParam[];
}

class PayloadError extends Error {}

/**
 * Runs one `/sql` call.
 * @param sources the configured sources, by name (already open)
 * @param allowed whether the current conversation may use a source (by name)
 * @param payload the request's parsed JSON body: `{source: string, query: string, params?: (string|number|boolean|null|array)[]}`
 * @param limits rows, bytes and time (ms) for this query, or the limits of each source by name
 * @param signal aborts the query (the execution ended)
 * @returns the status, body and record; never throws (an unexpected error is a 500 with its message)
 */
export async function handleSqlCall(
  sources: ReadonlyMap<string, SqlSource>,
  allowed: (name: string) => boolean,
  payload: unknown,
  limits: SqlLimits | ((source: string) => SqlLimits),
  signal?: AbortSignal,
): Promise<SqlCallOutcome> {
  const started = performance.now();
  const finish = (status: number, body: object, summary: string): SqlCallOutcome => ({
    status,
    body,
    record: {
      tool: 'sql',
      summary,
      ok: status === 200,
      durationMs: Math.round(performance.now() - started),
      bytes: Buffer.byteLength(JSON.stringify(body)),
      // what the program was handed (the work gate of schedules compares it between ticks)
      ...(status === 200 ? { answer: createHash('sha256').update(JSON.stringify(body)).digest('hex') } : {}),
    },
  });

  let call: SqlCall;
  try {
    call = parseCall(payload);
  } catch (err) {
    if (!(err instanceof PayloadError)) throw err;
    return finish(400, { error: err.message }, `sql: bad request (${err.message})`);
  }
  const label = `sql ${printable(call.source)}`;
  const source = sources.get(call.source);
  if (!source || !allowed(call.source)) {
    const known = [...sources.keys()].filter(allowed);
    const error = `unknown SQL source "${printable(call.source)}": ${known.length ? `this conversation may use ${known.map((n) => `"${n}"`).join(', ')}` : 'this conversation may use no SQL source'}`;
    return finish(403, { error }, `${label}: refused (not a source this conversation may use)`);
  }
  try {
    const result = await source.query(call.query, call.params, typeof limits === 'function' ? limits(call.source) : limits, signal);
    const ms = Math.round(performance.now() - started);
    const body = { columns: result.columns, rows: result.rows, truncated: result.truncated, ...(result.note ? { note: result.note } : {}) };
    return finish(200, body, `${label}: 1 query, ${rowCount(result)}, ${duration(ms)}`);
  } catch (err) {
    if (err instanceof SqlRefusedError) {
      return finish(400, { error: err.message, rule: err.rule }, `${label}: 1 query refused (${err.rule})`);
    }
    if (err instanceof SqlQueryError) {
      const status = err.timedOut ? 504 : 422;
      const message = withoutUrls(err.message);
      return finish(status, { error: message }, `${label}: 1 query failed (${firstLine(message)})`);
    }
    const message = withoutUrls(err instanceof Error ? err.message : String(err));
    return finish(500, { error: `the SQL tool failed: ${message}` }, `${label}: 1 query failed (internal error)`);
  }
}

function parseCall(payload: unknown): SqlCall {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new PayloadError('expected a JSON object {source, query, params?}');
  }
  const { source, query, params, ...rest } = payload as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) throw new PayloadError(`unexpected field ${extra.map((k) => `"${printable(k)}"`).join(', ')}: expected {source, query, params?}`);
  if (typeof source !== 'string' || source === '') throw new PayloadError('source: expected the name of a SQL source (a non-empty string)');
  if (typeof query !== 'string' || query.trim() === '') throw new PayloadError('query: expected SQL text (a non-empty string)');
  if (query.length > MAX_QUERY_CHARS) throw new PayloadError(`query: ${query.length} characters, more than the ${MAX_QUERY_CHARS} allowed`);
  if (params !== undefined && params !== null && !Array.isArray(params)) throw new PayloadError('params: expected a list of values, or none');
  const list = (params ?? []) as unknown[];
  if (list.length > MAX_PARAMS) throw new PayloadError(`params: ${list.length} values, more than the ${MAX_PARAMS} allowed`);
  list.forEach((value, i) => checkParam(value, `params[${i}]`, 0));
  return { source, query, params: list as SqlParam[] };
}

function checkParam(value: unknown, where: string, depth: number): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new PayloadError(`${where}: expected a finite number`);
    return;
  }
  if (Array.isArray(value) && depth < 3) {
    value.forEach((v, i) => checkParam(v, `${where}[${i}]`, depth + 1));
    return;
  }
  throw new PayloadError(`${where}: expected a string, number, boolean, null or a list of them (dates and decimals as text)`);
}

function rowCount(result: SqlResult): string {
  const n = result.rows.length;
  return `${n} row${n === 1 ? '' : 's'}${result.truncated ? ' (truncated)' : ''}`;
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A name as it may appear in a message: printable characters, at most 64. */
function printable(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 64 ? `${clean.slice(0, 64)}…` : clean;
}

/** A message with any URL (which could hold a password) replaced by `<url>`. */
function withoutUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
