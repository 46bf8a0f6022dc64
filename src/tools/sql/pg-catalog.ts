/**
 * What a PostgreSQL source's own catalog says a statement's names resolve to: every function
 * (`pg_proc`), operator (`pg_operator`), type (`pg_type`) and cast (`pg_cast`), with the schema it
 * lives in, whether it is built in, the extension it came with, and whether the source's role may
 * execute it; and the session's search path. Read in one round trip, cached per source, and read
 * again when its fingerprint changes (checked on every statement, in the round trip that opens
 * the statement's transaction: see {@link CATALOG_FINGERPRINT}), when a statement names something
 * the cache does not know, or when the cache is older than {@link CATALOG_TTL_MS}.
 *
 * "Built in" is PostgreSQL's own line: objects made by `initdb` have OIDs below
 * `FirstNormalObjectId` (16384); everything made after — by an extension or a user — gets an OID
 * at or above it (src/include/access/transam.h).
 */

/** OIDs below this are the server's own (made by initdb); see transam.h's FirstNormalObjectId. */
export const FIRST_NORMAL_OBJECT_ID = 16384;

/** How long a source's catalog is trusted before it is read again, in ms (it is also read again whenever its fingerprint changes). */
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
  /** `SECURITY DEFINER`: runs with its owner's rights. */
  securityDefiner: boolean;
  /** The source's role may execute it (`has_function_privilege`, PUBLIC's grant included): the server refuses it otherwise. */
  executable: boolean;
  /** The extension it belongs to, if any. */
  extension?: string;
}

/** One operator of `pg_operator` and the function it calls. */
export interface CatalogOperator {
  schema: string;
  name: string;
  /** `oprcode`: the function the operator runs. */
  functionOid: number;
}

/** One cast of `pg_cast` that runs a function. */
export interface CatalogCast {
  source: number;
  target: number;
  /** `castfunc`. */
  functionOid: number;
  /** `castcontext`: `e` written only, `a` on assignment, `i` wherever the parser needs it (a statement never writes it). */
  context: 'e' | 'a' | 'i';
}

/** One type of `pg_type`, with the functions a cast to it may run. */
export interface CatalogType {
  oid: number;
  schema: string;
  name: string;
  /** `typinput`: reads a literal of this type (at parse time, without an EXECUTE check). */
  inputOid: number;
  /** The casts to this type that run a function, from any type. */
  casts: CatalogCast[];
}

/** A source's catalog, indexed for the checks of pg-functions.ts. */
export interface PgCatalog {
  /** The schemas an unqualified name is looked up in (`current_schemas(true)`, without pg_temp). */
  searchPath: string[];
  /** The schemas as configured for the session (`current_schemas(false)`), pinned for every statement. */
  explicitSearchPath: string[];
  functions: Map<number, CatalogFunction>;
  functionsByName: Map<string, CatalogFunction[]>;
  operatorsByName: Map<string, CatalogOperator[]>;
  operators: CatalogOperator[];
  typesByName: Map<string, CatalogType[]>;
  /** `schema.name` by type OID, for messages. */
  typeNames: Map<number, string>;
  /** Casts the parser applies without being asked (`i`) or on assignment (`a`) that run a function. */
  implicitCasts: CatalogCast[];
  /** {@link CATALOG_FINGERPRINT} when it was read. */
  fingerprint: string;
  /** When it was read (Date.now()). */
  loadedAt: number;
}

/**
 * The catalogs in the fingerprint, each with the rows that can change what the text check decides:
 * of pg_proc, pg_operator and pg_cast those made after initdb (read through their OID index; a
 * GRANT on a built-in function changes nothing the check decides: the refusal list is refused
 * whoever may execute it, the rest is allowed whoever may).
 */
const CATALOGS_FINGERPRINTED: Record<string, string> = {
  pg_proc: `oid >= ${FIRST_NORMAL_OBJECT_ID}`,
  pg_operator: `oid >= ${FIRST_NORMAL_OBJECT_ID}`,
  pg_cast: `oid >= ${FIRST_NORMAL_OBJECT_ID}`,
  pg_namespace: 'true',
  pg_auth_members: 'true',
  pg_extension: 'true',
  pg_default_acl: 'true',
  pg_foreign_table: 'true',
};

/**
 * One SQL expression that changes whenever a function, operator, cast, schema, role membership,
 * extension, default privilege or foreign table is made, changed (renamed, moved, granted,
 * revoked, made SECURITY DEFINER) or dropped: per catalog, the count of the rows that matter and
 * the sum of their `xmin` (a changed row is a new row version with a new transaction id). Made
 * after initdb means an OID at or above 16384, so the scans read a few hundred rows by index, not
 * every row; see the docs for its cost. Grants on tables and views are not in it: they are
 * read again at the catalog's time to live.
 */
export const CATALOG_FINGERPRINT = `concat_ws('/', ${Object.entries(CATALOGS_FINGERPRINTED).map(([t, rows]) => `(SELECT count(*)::text || ':' || coalesce(sum(xmin::text::int8), 0)::text FROM pg_catalog.${t} WHERE ${rows})`).join(', ')})`;

/** The statements that read the catalog, sent as one simple-protocol query (six results), the search path already set to pg_catalog's. */
export const CATALOG_READ = `
SELECT p.oid::int8 AS oid, n.nspname AS schema, p.proname AS name, p.pronargs AS nargs, p.prosecdef AS secdef,
       CASE WHEN p.oid < ${FIRST_NORMAL_OBJECT_ID} AND p.proacl IS NULL THEN true ELSE has_function_privilege(p.oid, 'EXECUTE') END AS exec,
       x.extname AS extension
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  LEFT JOIN (SELECT DISTINCT ON (d.objid) d.objid, e.extname FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
              WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e') x ON x.objid = p.oid;
SELECT n.nspname AS schema, o.oprname AS name, o.oprcode::oid::int8 AS fn FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace;
SELECT t.oid::int8 AS oid, n.nspname AS schema, t.typname AS name, t.typinput::oid::int8 AS input
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace;
SELECT c.castsource::int8 AS source, c.casttarget::int8 AS target, c.castfunc::int8 AS fn, c.castcontext::text AS context FROM pg_cast c WHERE c.castfunc <> 0;
SELECT ${CATALOG_FINGERPRINT} AS fingerprint`;

/** The search path as the session has it (read before the reads pin pg_catalog's). */
export const PATH_READ = 'SELECT current_schemas(true)::text[] AS path, current_schemas(false)::text[] AS explicit';

/** {@link PATH_READ} and {@link CATALOG_READ} as one query, for a session of the role (the tests and the bench send it as is). */
export const CATALOG_QUERY = `${PATH_READ}; SET LOCAL search_path = pg_catalog; ${CATALOG_READ}`;

type Row = Record<string, unknown>;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Indexes the results of {@link CATALOG_QUERY}: the path row, then the five reads (a `SET`'s
 * empty result between them is skipped).
 * @param results the rows of each statement, in order
 * @throws {Error} when a result is missing (not the catalog query's answer)
 */
export function indexCatalog(results: Row[][]): PgCatalog {
  const withRows = results.length === 7 ? [results[0]!, ...results.slice(2)] : results;
  const [paths, procs, operators, types, casts, print] = withRows;
  if (!paths || !procs || !operators || !types || !casts || !print) throw new Error(`the catalog query returned ${results.length} results, not 7`);
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
      securityDefiner: r.secdef === true,
      executable: r.exec === true,
      ...(r.extension ? { extension: String(r.extension) } : {}),
    };
    functions.set(oid, fn);
    push(functionsByName, fn.name, fn);
  }
  const operatorsByName = new Map<string, CatalogOperator[]>();
  const operatorList: CatalogOperator[] = [];
  for (const r of operators) {
    const op = { schema: String(r.schema), name: String(r.name), functionOid: Number(r.fn) };
    operatorList.push(op);
    push(operatorsByName, op.name, op);
  }
  const castsByTarget = new Map<number, CatalogCast[]>();
  const implicitCasts: CatalogCast[] = [];
  for (const r of casts) {
    const cast: CatalogCast = { source: Number(r.source), target: Number(r.target), functionOid: Number(r.fn), context: String(r.context) as CatalogCast['context'] };
    castsByTarget.set(cast.target, [...(castsByTarget.get(cast.target) ?? []), cast]);
    if (cast.context !== 'e') implicitCasts.push(cast);
  }
  const typesByName = new Map<string, CatalogType[]>();
  const typeNames = new Map<number, string>();
  for (const r of types) {
    const oid = Number(r.oid);
    const type = { oid, schema: String(r.schema), name: String(r.name), inputOid: Number(r.input), casts: castsByTarget.get(oid) ?? [] };
    push(typesByName, type.name, type);
    typeNames.set(oid, `${type.schema}.${type.name}`);
  }
  return {
    searchPath: path.filter((s) => !s.startsWith('pg_temp')),
    explicitSearchPath: explicit.filter((s) => !s.startsWith('pg_temp')),
    functions,
    functionsByName,
    operatorsByName,
    operators: operatorList,
    typesByName,
    typeNames,
    implicitCasts,
    fingerprint: String(print[0]?.fingerprint ?? ''),
    loadedAt: Date.now(),
  };
}

/** A schema or other identifier quoted for SQL text (`"my ""odd"" schema"`). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
