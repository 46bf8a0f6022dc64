/**
 * Functions by allowlist, decided by the source's own catalog: every function a statement names —
 * called, reached through an operator it writes, a cast it writes, or attribute notation — must
 * resolve to a built-in function of `pg_catalog` that is not on the refusal list, or to one the
 * source's config names (`tools.sql.sources.<name>.functions: [schema.fn, …]`). Everything an
 * extension or a user schema adds is refused unless named, whatever its name: a deny list can never
 * name every function a database may have (crosstab, dblink, xpath_table… all run a query given as
 * text). `SECURITY DEFINER` functions are refused even when named, unless the source says
 * `security_definer: true`.
 *
 * How a name resolves: a qualified name (`s.f`) to the functions called `f` in schema `s`; an
 * unqualified one to those in every schema of the session's search path, pg_catalog included.
 * Of those, the candidates a statement can reach with values of its own making are the ones whose
 * argument types are all built in; every one of them must be allowed (the server picks among them by
 * argument types, which the statement chooses). A candidate taking a type an extension or the
 * database defines (hstore, geometry, a table's row type) is reached only through a value of that
 * type, which the statement can only get from the database's own columns or through a cast or call
 * that is itself checked here; when a name has only such candidates, they are all checked.
 */
import type { CatalogFunction, PgCatalog } from './pg-catalog.js';
import { isDenied, type NameRef, type StatementReferences } from './postgres-rules.js';
import { SqlRefusedError } from './types.js';

/** What a source's config allows beyond pg_catalog's built-in functions. */
export interface FunctionPolicy {
  /** The source's name, for the refusal's hint. */
  source: string;
  /** `schema.function` names the config allows (lower case). */
  functions: ReadonlySet<string>;
  /** Whether a named `SECURITY DEFINER` function may run. */
  securityDefiner: boolean;
}

/** A name the catalog does not know: the caller reads the catalog again once, then refuses. */
export class UnknownNameError extends Error {
  override readonly name = 'UnknownNameError';
}

/** Why `fn` may not run, or undefined when it may. */
export function refusalOf(fn: CatalogFunction, policy: FunctionPolicy): string | undefined {
  const qualified = `${fn.schema}.${fn.name}`;
  if (fn.schema === 'pg_catalog' && isDenied(fn.name)) {
    return `${qualified} reads server files, changes settings or sessions, or runs a query given as text`;
  }
  if (policy.functions.has(qualified.toLowerCase())) {
    return fn.securityDefiner && !policy.securityDefiner
      ? `${qualified} is SECURITY DEFINER (it runs with its owner's rights): set tools.sql.sources.${policy.source}.security_definer: true to allow it`
      : undefined;
  }
  if (fn.builtin && fn.schema === 'pg_catalog' && !fn.extension) return undefined;
  const origin = fn.extension ? `from the extension ${fn.extension}` : fn.builtin ? 'outside pg_catalog' : `a function of the schema ${fn.schema}`;
  return `${qualified} is ${origin}; only pg_catalog's built-in functions run unless the source names more: add "${qualified}" to tools.sql.sources.${policy.source}.functions to allow it`;
}

function schemasFor(ref: NameRef, catalog: PgCatalog): string[] {
  return ref.schema !== undefined ? [ref.schema] : catalog.searchPath.includes('pg_catalog') ? catalog.searchPath : ['pg_catalog', ...catalog.searchPath];
}

/** The candidates that must all be allowed, per the rule in this module's comment. */
function reachable<T extends { schema: string; plainArgs: boolean }>(all: readonly T[], ref: NameRef, catalog: PgCatalog): T[] {
  const schemas = schemasFor(ref, catalog);
  const visible = all.filter((c) => schemas.includes(c.schema));
  const plain = visible.filter((c) => c.plainArgs);
  return plain.length > 0 ? plain : visible;
}

function refuse(what: string, why: string): never {
  throw new SqlRefusedError('function', `${what} is not allowed here: ${why}`);
}

const show = (ref: NameRef) => (ref.schema !== undefined ? `${ref.schema}.${ref.name}` : ref.name);

/**
 * Checks every name of a statement against the catalog.
 * @throws {SqlRefusedError} rule `function`, saying which function a name resolves to and how to allow it
 * @throws {UnknownNameError} when a function, operator or type name is not in the catalog
 */
export function checkReferences(refs: StatementReferences, catalog: PgCatalog, policy: FunctionPolicy): void {
  const check = (oid: number, what: string) => {
    const fn = catalog.functions.get(oid);
    if (!fn) throw new UnknownNameError(`${what} runs a function the catalog does not list (oid ${oid})`);
    const why = refusalOf(fn, policy);
    if (why) refuse(what, why);
  };
  for (const ref of refs.functions) {
    const candidates = reachable(catalog.functionsByName.get(ref.name) ?? [], ref, catalog);
    if (candidates.length === 0) throw new UnknownNameError(`no function named ${show(ref)}`);
    for (const fn of candidates) check(fn.oid, `the function ${show(ref)}()`);
  }
  for (const ref of refs.operators) {
    const candidates = reachable(catalog.operatorsByName.get(ref.name) ?? [], ref, catalog);
    if (candidates.length === 0) throw new UnknownNameError(`no operator ${show(ref)}`);
    for (const op of candidates) check(op.functionOid, `the operator ${show(ref)} (${op.schema}.${op.name})`);
  }
  for (const ref of refs.types) {
    const schemas = schemasFor(ref, catalog);
    const candidates = (catalog.typesByName.get(ref.name) ?? []).filter((t) => schemas.includes(t.schema));
    if (candidates.length === 0) throw new UnknownNameError(`no type named ${show(ref)}`);
    for (const type of candidates) {
      const what = `the type ${type.schema}.${type.name}`;
      check(type.inputOid, what);
      for (const oid of type.castOids) check(oid, `a cast to ${type.schema}.${type.name}`);
    }
  }
  // (x).f calls f(x) when x has no column f: a name after a dot that is a function must be allowed
  for (const name of refs.attributes) {
    const candidates = reachable((catalog.functionsByName.get(name) ?? []).filter((fn) => fn.nargs === 1), { name }, catalog);
    for (const fn of candidates) {
      const why = refusalOf(fn, policy);
      if (why) refuse(`${name} (attribute notation calls the function ${fn.schema}.${fn.name})`, why);
    }
  }
}
