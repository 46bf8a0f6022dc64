/**
 * What a PostgreSQL source's own catalog says a statement's names resolve to: every function
 * (`pg_proc`), operator (`pg_operator`), type (`pg_type`) and cast (`pg_cast`), with the schema it
 * lives in, whether it is built in, and the extension it came with; and the session's search path.
 * Read in one round trip, cached per source, and read again when a statement names something the
 * cache does not know or the cache is older than {@link CATALOG_TTL_MS}.
 *
 * "Built in" is PostgreSQL's own line: objects made by `initdb` have OIDs below
 * `FirstNormalObjectId` (16384); everything made after — by an extension or a user — gets an OID
 * at or above it (src/include/access/transam.h).
 */

/** OIDs below this are the server's own (made by initdb); see transam.h's FirstNormalObjectId. */
export const FIRST_NORMAL_OBJECT_ID = 16384;

/** How long a source's catalog is trusted before it is read again, in ms. */
export const CATALOG_TTL_MS = 5 * 60_000;

/** One function of `pg_proc`. */
export interface CatalogFunction {
  oid: number;
  schema: string;
  name: string;
  /** Declared arguments. */
  nargs: number;
  /** Made by initdb (OID below 16384). */
  builtin: boolean;
  /** Every declared argument type is built in (so a value of the statement's own making can reach it). */
  plainArgs: boolean;
  /** `SECURITY DEFINER`: runs with its owner's rights. */
  securityDefiner: boolean;
  /** The extension it belongs to, if any. */
  extension?: string;
}

/** One operator of `pg_operator` and the function it calls. */
export interface CatalogOperator {
  schema: string;
  name: string;
  /** Both operand types are built in (or absent, for a prefix operator). */
  plainArgs: boolean;
  /** `oprcode`: the function the operator runs. */
  functionOid: number;
}

/** One type of `pg_type`, with the functions a cast to it may run. */
export interface CatalogType {
  schema: string;
  name: string;
  /** `typinput`: reads a literal of this type. */
  inputOid: number;
  /** `pg_cast` functions that make this type from a built-in type. */
  castOids: number[];
}

/** A source's catalog, indexed for {@link resolveNames}. */
export interface PgCatalog {
  /** The schemas an unqualified name is looked up in (`current_schemas(true)`, without pg_temp). */
  searchPath: string[];
  /** The schemas as configured for the session (`current_schemas(false)`), pinned for every statement. */
  explicitSearchPath: string[];
  functions: Map<number, CatalogFunction>;
  functionsByName: Map<string, CatalogFunction[]>;
  operatorsByName: Map<string, CatalogOperator[]>;
  typesByName: Map<string, CatalogType[]>;
  /** When it was read (Date.now()). */
  loadedAt: number;
}

/** The statements that read the catalog, sent as one simple-protocol query (five results). */
export const CATALOG_QUERY = `
SELECT current_schemas(true)::text[] AS path, current_schemas(false)::text[] AS explicit;
SELECT p.oid::int8 AS oid, n.nspname AS schema, p.proname AS name, p.pronargs AS nargs, p.prosecdef AS secdef,
       NOT EXISTS (SELECT 1 FROM unnest(p.proargtypes::oid[]) a(t) WHERE a.t >= ${FIRST_NORMAL_OBJECT_ID}) AS plain,
       (SELECT e.extname FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
         WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e' LIMIT 1) AS extension
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace;
SELECT n.nspname AS schema, o.oprname AS name, o.oprcode::oid::int8 AS fn,
       (o.oprleft < ${FIRST_NORMAL_OBJECT_ID} AND o.oprright < ${FIRST_NORMAL_OBJECT_ID}) AS plain
  FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace;
SELECT t.oid::int8 AS oid, n.nspname AS schema, t.typname AS name, t.typinput::oid::int8 AS input
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace;
SELECT c.casttarget::int8 AS target, c.castfunc::int8 AS fn FROM pg_cast c
 WHERE c.castfunc <> 0 AND c.castsource < ${FIRST_NORMAL_OBJECT_ID}`;

type Row = Record<string, unknown>;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Indexes the five results of {@link CATALOG_QUERY}.
 * @param results the rows of each statement, in order
 * @throws {Error} when a result is missing (not the catalog query's answer)
 */
export function indexCatalog(results: Row[][]): PgCatalog {
  const [paths, procs, operators, types, casts] = results;
  if (!paths || !procs || !operators || !types || !casts) throw new Error(`the catalog query returned ${results.length} results, not 5`);
  const path = (paths[0]?.path as string[] | undefined) ?? ['pg_catalog'];
  const explicit = (paths[0]?.explicit as string[] | undefined) ?? [];
  const functions = new Map<number, CatalogFunction>();
  const functionsByName = new Map<string, CatalogFunction[]>();
  for (const r of procs) {
    const oid = Number(r.oid);
    const fn: CatalogFunction = {
      oid,
      schema: String(r.schema),
      name: String(r.name),
      nargs: Number(r.nargs),
      builtin: oid < FIRST_NORMAL_OBJECT_ID,
      plainArgs: r.plain === true,
      securityDefiner: r.secdef === true,
      ...(r.extension ? { extension: String(r.extension) } : {}),
    };
    functions.set(oid, fn);
    push(functionsByName, fn.name, fn);
  }
  const operatorsByName = new Map<string, CatalogOperator[]>();
  for (const r of operators) {
    push(operatorsByName, String(r.name), { schema: String(r.schema), name: String(r.name), plainArgs: r.plain === true, functionOid: Number(r.fn) });
  }
  const castsByTarget = new Map<number, number[]>();
  for (const r of casts) {
    const target = Number(r.target);
    castsByTarget.set(target, [...(castsByTarget.get(target) ?? []), Number(r.fn)]);
  }
  const typesByName = new Map<string, CatalogType[]>();
  for (const r of types) {
    push(typesByName, String(r.name), { schema: String(r.schema), name: String(r.name), inputOid: Number(r.input), castOids: castsByTarget.get(Number(r.oid)) ?? [] });
  }
  return {
    searchPath: path.filter((s) => !s.startsWith('pg_temp')),
    explicitSearchPath: explicit.filter((s) => !s.startsWith('pg_temp')),
    functions,
    functionsByName,
    operatorsByName,
    typesByName,
    loadedAt: Date.now(),
  };
}

/** A schema or other identifier quoted for SQL text (`"my ""odd"" schema"`). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
