/**
 * Functions by allowlist, decided by the source's own catalog (the second wall; the first is what
 * the role may execute, pg-reach.ts): every function a statement may make the server run — called,
 * reached through an operator it writes or one the server uses for it (`CASE x WHEN`, `IN (SELECT
 * …)`, `JOIN … USING`), a cast it writes, a cast the parser applies on its own, attribute notation,
 * or SQL syntax an older server reads as a call — must resolve to a built-in function of
 * `pg_catalog` that is not on the refusal list, or to one the source's config names
 * (`tools.sql.sources.<name>.functions: [schema.fn, …]`). `SECURITY DEFINER` functions are refused
 * even when named, unless the source says `security_definer: true`.
 *
 * How a name resolves: a qualified name (`s.f`) to the functions called `f` in schema `s`; an
 * unqualified one to those in every schema of the session's search path, pg_catalog included. The
 * server picks one of them by the argument types, which a statement controls (a literal cast to a
 * domain, an enum or a row type, a column of such a type), so the check cannot know which: a name
 * is refused when none of its candidates is allowed, or when one that is not allowed is one the
 * role may execute. A candidate the role may not execute is left to the server, which refuses it
 * (`permission denied for function …`): that is how the first wall lets the names an extension
 * shares with pg_catalog (`||`, `=`) through once its functions are revoked.
 *
 * What a check cannot tell apart is refused: a cast the parser applies on its own (implicit or on
 * assignment) that runs a function the role may execute and the source does not allow makes every
 * statement refused, since any statement may reach it.
 */
import type { CatalogCast, CatalogFunction, PgCatalog } from './pg-catalog.js';
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

function visible<T extends { schema: string }>(all: readonly T[] | undefined, ref: NameRef, catalog: PgCatalog): T[] {
  const schemas = schemasFor(ref, catalog);
  return (all ?? []).filter((c) => schemas.includes(c.schema));
}

function refuse(what: string, why: string): never {
  throw new SqlRefusedError('function', `${what} is not allowed here: ${why}`);
}

const show = (ref: NameRef) => (ref.schema !== undefined ? `${ref.schema}.${ref.name}` : ref.name);

/** Checks the functions one name may run, by the rule of this module's comment. */
class Checker {
  constructor(private readonly catalog: PgCatalog, private readonly policy: FunctionPolicy) {}

  fn(oid: number, what: string): CatalogFunction {
    const fn = this.catalog.functions.get(oid);
    if (!fn) throw new UnknownNameError(`${what} runs a function the catalog does not list (oid ${oid})`);
    return fn;
  }

  /** Refuses when no candidate is allowed, or one not allowed may be executed. `describe` names a candidate in the refusal. */
  candidates(oids: readonly number[], describe: (index: number) => string): void {
    const refusals = oids.map((oid, i) => ({ i, why: refusalOf(this.fn(oid, describe(i)), this.policy), fn: this.fn(oid, describe(i)) }));
    const refused = refusals.filter((r) => r.why !== undefined);
    if (refused.length === 0) return;
    const blocking = refused.find((r) => r.fn.executable) ?? (refused.length === refusals.length ? refused[0] : undefined);
    if (blocking) refuse(describe(blocking.i), blocking.why!);
  }

  /** A function every call of which runs: the literal's input function (no EXECUTE check at parse time). */
  always(oid: number, what: string): void {
    const why = refusalOf(this.fn(oid, what), this.policy);
    if (why) refuse(what, why);
  }

  casts(casts: readonly CatalogCast[], to: string): void {
    for (const cast of casts) {
      const fn = this.fn(cast.functionOid, `a cast to ${to}`);
      const why = refusalOf(fn, this.policy);
      if (why && fn.executable) refuse(`the cast ${this.typeName(cast.source)} → ${to} (it runs ${fn.schema}.${fn.name})`, why);
    }
  }

  typeName(oid: number): string {
    return this.catalog.typeNames.get(oid) ?? `type ${oid}`;
  }
}

/**
 * Checks every name of a statement against the catalog.
 * @throws {SqlRefusedError} rule `function`, saying which function a name resolves to and how to allow it
 * @throws {UnknownNameError} when a function, operator or type name is not in the catalog
 */
export function checkReferences(refs: StatementReferences, catalog: PgCatalog, policy: FunctionPolicy): void {
  const check = new Checker(catalog, policy);
  // a cast the parser applies on its own may run under any statement
  for (const cast of catalog.implicitCasts) {
    const fn = catalog.functions.get(cast.functionOid);
    const why = fn && refusalOf(fn, policy);
    if (fn && why && fn.executable) {
      const kind = cast.context === 'i' ? 'implicit' : 'assignment';
      refuse(`the ${kind} cast ${check.typeName(cast.source)} → ${check.typeName(cast.target)}, which the server may apply to any statement (it runs ${fn.schema}.${fn.name}),`, why);
    }
  }
  for (const ref of refs.functions) {
    const candidates = visible(catalog.functionsByName.get(ref.name), ref, catalog);
    // f(x) is a cast to the type f when no function f takes x (a function-style cast)
    const types = visible(catalog.typesByName.get(ref.name), ref, catalog);
    if (candidates.length === 0 && types.length === 0) {
      if (ref.syntax) continue; // SQL syntax the server reads as syntax, when no function has its name
      throw new UnknownNameError(`no function named ${show(ref)}`);
    }
    if (candidates.length > 0) check.candidates(candidates.map((c) => c.oid), (i) => `the function ${show(ref)}() (${candidates[i]!.schema}.${candidates[i]!.name})`);
    for (const type of types) check.casts(type.casts, `${type.schema}.${type.name}`);
  }
  for (const ref of refs.operators) {
    const candidates = visible(catalog.operatorsByName.get(ref.name), ref, catalog);
    if (candidates.length === 0) throw new UnknownNameError(`no operator ${show(ref)}`);
    check.candidates(candidates.map((op) => op.functionOid), (i) => `the operator ${show(ref)} (${candidates[i]!.schema}.${candidates[i]!.name})`);
  }
  for (const ref of refs.types) {
    const candidates = visible(catalog.typesByName.get(ref.name), ref, catalog);
    if (candidates.length === 0) throw new UnknownNameError(`no type named ${show(ref)}`);
    for (const type of candidates) {
      check.always(type.inputOid, `the type ${type.schema}.${type.name}`);
      check.casts(type.casts, `${type.schema}.${type.name}`);
    }
  }
  // (x).f calls f(x) when x has no column f: a name after a dot that is a function must be allowed
  for (const name of refs.attributes) {
    const candidates = visible((catalog.functionsByName.get(name) ?? []).filter((fn) => fn.nargs === 1), { name }, catalog);
    if (candidates.length > 0) check.candidates(candidates.map((c) => c.oid), (i) => `${name} (attribute notation calls the function ${candidates[i]!.schema}.${candidates[i]!.name})`);
  }
}
