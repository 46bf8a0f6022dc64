/**
 * PostgreSQL values → the SQL tool's wire encoding. Every value is read as the server's text (no
 * client-side parsing that would lose precision: int8, numeric, microseconds, time zones), then
 * encoded per column kind as {@link SqlKind} describes. The session runs with `TimeZone=UTC` and
 * `DateStyle=ISO`, so timestamps come as `2024-03-01 12:00:00.5+00`.
 */
import pg from 'pg';
import type { SqlKind } from './types.js';

/** Encodes one value (the server's text, never null here). */
export type Encoder = (text: string) => unknown;

const OID_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(pg.types.builtins).map(([name, oid]) => [oid as number, name.toLowerCase()]),
);

/** Array type oids → element type name. */
const ARRAY_OIDS: ReadonlyMap<number, string> = new Map([
  [1000, 'bool'], [1001, 'bytea'], [1005, 'int2'], [1007, 'int4'], [1016, 'int8'], [1021, 'float4'],
  [1022, 'float8'], [1231, 'numeric'], [1009, 'text'], [1015, 'varchar'], [1014, 'bpchar'], [1182, 'date'],
  [1115, 'timestamp'], [1185, 'timestamptz'], [199, 'json'], [3807, 'jsonb'], [2951, 'uuid'], [1183, 'time'],
  [1187, 'interval'], [1270, 'timetz'], [1028, 'oid'], [1003, 'name'],
]);

const KINDS: Record<string, SqlKind> = {
  int2: 'int', int4: 'int', int8: 'int', oid: 'int',
  float4: 'float', float8: 'float', numeric: 'decimal', money: 'text',
  bool: 'bool', text: 'text', varchar: 'text', bpchar: 'text', char: 'text', name: 'text', uuid: 'text', xml: 'text',
  json: 'json', jsonb: 'json', bytea: 'bytes',
  date: 'date', timestamp: 'timestamp', timestamptz: 'timestamptz', time: 'time', timetz: 'time', interval: 'interval',
};

const asInt: Encoder = (s) => {
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : s;
};
const asFloat: Encoder = (s) => {
  const n = Number(s);
  return Number.isFinite(n) ? n : s; // NaN, Infinity, -Infinity stay text (JSON has no such numbers)
};
const asText: Encoder = (s) => s;
const asBool: Encoder = (s) => s === 't';
const asJson: Encoder = (s) => JSON.parse(s);
const asBytes: Encoder = (s) => Buffer.from(s.slice(2), 'hex').toString('base64'); // bytea_output=hex: \x…

const ENCODERS: Partial<Record<SqlKind, Encoder>> = { int: asInt, float: asFloat, bool: asBool, json: asJson, bytes: asBytes };

/** PostgreSQL's array text (`{a,"b c",NULL}`, nested) → nested arrays of the elements' text. */
const TEXT_ARRAY_OID = 1009;
const parseArrayText = (pg.types.getTypeParser as (oid: number, format: 'text') => (s: string) => unknown[])(TEXT_ARRAY_OID, 'text');

function mapElements(value: unknown, encode: Encoder): unknown {
  if (value === null) return null;
  return Array.isArray(value) ? value.map((v) => mapElements(v, encode)) : encode(value as string);
}

/** The text parser the query uses for every type: the server's text as is. */
export const identityTypes = { getTypeParser: () => (value: string) => value };

/**
 * A column's kind, database type name and encoder, from its type oid. An array's elements are
 * encoded as a column of the element's type would be (`{2024-03-01,NULL}` → `["2024-03-01", null]`).
 */
export function columnType(oid: number): { kind: SqlKind; dbType: string; encode: Encoder } {
  const element = ARRAY_OIDS.get(oid);
  if (element !== undefined) {
    const encodeElement = ENCODERS[KINDS[element] ?? 'other'] ?? asText;
    return { kind: 'array', dbType: `${element}[]`, encode: (s) => mapElements(parseArrayText(s), encodeElement) };
  }
  const dbType = OID_NAMES.get(oid) ?? `oid ${oid}`;
  const kind = KINDS[dbType] ?? 'other';
  return { kind, dbType, encode: ENCODERS[kind] ?? asText };
}
