/**
 * The rules a PostgreSQL statement must pass before it is sent, checked on the tree of the real
 * PostgreSQL parser (libpg-query). The read-only transaction the statement then runs in is the
 * backstop for anything these rules miss; these rules also stop what a read-only transaction
 * allows: reading server files, signalling other sessions, session-level locks and settings,
 * functions that run a query given as text.
 *
 * Allowed: one `SELECT`, `WITH … SELECT`, `VALUES` or `TABLE` statement, or `EXPLAIN` (without
 * `ANALYZE`) of one. Refused: every other statement (writes, DDL, `COPY`, `SET`, transaction
 * control, `DO`, `CALL`…), data-modifying `WITH`, `SELECT … INTO`, locking clauses
 * (`FOR UPDATE`/`SHARE`), and the functions of {@link DENIED_FUNCTIONS} / {@link DENIED_FUNCTION_PREFIXES}
 * (the refusal list: what pg_catalog has that no statement may call). Whatever else a statement
 * calls is then decided by the source's own catalog (pg-functions.ts), from the names collected here.
 */
import { SqlRefusedError } from './types.js';

/** Functions refused by exact name (any schema). */
export const DENIED_FUNCTIONS: ReadonlySet<string> = new Set([
  'set_config', // changes settings (e.g. transaction_read_only, statement_timeout)
  'query_to_xml', 'query_to_xmlschema', 'query_to_xml_and_xmlschema', // run a query given as text
  'cursor_to_xml', 'cursor_to_xmlschema',
  'table_to_xml', 'table_to_xmlschema', 'table_to_xml_and_xmlschema',
  'schema_to_xml', 'schema_to_xmlschema', 'schema_to_xml_and_xmlschema',
  'database_to_xml', 'database_to_xmlschema', 'database_to_xml_and_xmlschema',
  'ts_stat', 'ts_rewrite', // ts_stat(text) and ts_rewrite(tsquery, text) run a query given as text
  'pg_stat_file', 'pg_current_logfile', 'pg_logdir_ls', // server files
  'pg_show_all_file_settings', 'pg_hba_file_rules', 'pg_ident_file_mappings', // the server's configuration files, parsed
  'loread', 'lowrite', // large objects (lo_* below)
  'pg_notify', 'nextval', 'setval', 'txid_current', 'pg_current_xact_id',
  'pg_reload_conf', 'pg_rotate_logfile', 'pg_promote',
  'pg_export_snapshot', 'pg_switch_wal', 'pg_switch_xlog',
  'pg_stat_statements_reset', 'pg_truncate_visibility_map', // maintenance that changes state
  'brin_summarize_new_values', 'brin_summarize_range', 'brin_desummarize_range', 'gin_clean_pending_list',
]);

/**
 * Views refused by name (any schema), with the `function` rule: they call a function of
 * {@link DENIED_FUNCTIONS} themselves, so the statement's tree holds no call to refuse.
 * `pg_file_settings` reads postgresql.conf and its includes, the others pg_hba.conf and pg_ident.conf.
 */
export const DENIED_VIEWS: ReadonlySet<string> = new Set(['pg_file_settings', 'pg_hba_file_rules', 'pg_ident_file_mappings']);

/** Functions refused by the start of their name (any schema). */
export const DENIED_FUNCTION_PREFIXES: readonly string[] = [
  'pg_read_', 'pg_ls_', 'pg_file_', // server files: pg_read_file, pg_read_binary_file, pg_ls_dir…
  'lo_', // large objects: lo_import / lo_export read and write server files
  'dblink', // connections to other databases
  'pg_advisory_', 'pg_try_advisory_', // session locks outlive the rolled-back transaction
  'pg_terminate_', 'pg_cancel_', 'pg_signal_', 'pg_log_', // other sessions, the server's log
  'binary_upgrade_', 'pg_sync_', // pg_upgrade's and the standby's own
  'pg_create_', 'pg_drop_', 'pg_replication_', 'pg_logical_', 'pg_copy_', // replication slots
  'pg_backup_', 'pg_start_backup', 'pg_stop_backup', 'pg_wal_replay_', 'pg_stat_reset', 'pg_import_',
];

/** Statement node names → how a refusal names them. */
const STATEMENT_NAMES: Record<string, string> = {
  InsertStmt: 'INSERT', UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE', CopyStmt: 'COPY',
  TransactionStmt: 'transaction control (BEGIN/COMMIT/ROLLBACK…)', VariableSetStmt: 'SET', VariableShowStmt: 'SHOW',
  DoStmt: 'DO', CallStmt: 'CALL', TruncateStmt: 'TRUNCATE', CreateStmt: 'CREATE TABLE', CreateTableAsStmt: 'CREATE TABLE AS',
  DropStmt: 'DROP', AlterTableStmt: 'ALTER TABLE', GrantStmt: 'GRANT', PrepareStmt: 'PREPARE', ExecuteStmt: 'EXECUTE',
  DeclareCursorStmt: 'DECLARE CURSOR', LockStmt: 'LOCK', ListenStmt: 'LISTEN', NotifyStmt: 'NOTIFY', VacuumStmt: 'VACUUM',
  LoadStmt: 'LOAD', CreateFunctionStmt: 'CREATE FUNCTION', ExplainStmt: 'EXPLAIN',
};

const READ_ONLY_HINT = 'only one SELECT, WITH … SELECT, VALUES, TABLE or EXPLAIN (without ANALYZE) statement is allowed';

/** The parser, loaded on first use (its WebAssembly module costs tens of ms to load). */
let parser: Promise<(sql: string) => unknown> | undefined;

function loadParser(): Promise<(sql: string) => unknown> {
  return (parser ??= import('libpg-query').then(async ({ loadModule, parseSync }) => {
    await loadModule();
    return parseSync;
  }));
}

/** A parse tree node: `{NodeName: {…fields}}`, arrays of nodes, or scalars. */
type Tree = unknown;

/** A name as the statement writes it: `fn` or `schema.fn`. */
export interface NameRef {
  schema?: string;
  name: string;
  /** SQL syntax that an older server reads as a call of this name (`json_array(…)` before PostgreSQL 16): no error when no function has it. */
  syntax?: boolean;
}

/**
 * Every name in a statement that makes the server run a function: the functions it calls (also
 * `TABLESAMPLE` methods), the operators it writes (`+`, `||`, `->>`, `OPERATOR(s.op)`, `LIKE` as
 * `~~`, `BETWEEN` as `<=`/`>=`, `ORDER BY … USING`, `= ANY (…)`), the types it casts to or names
 * (a type's input function reads a literal), and the names after a dot that attribute notation
 * may turn into a call (`(x).f` is `f(x)`).
 */
export interface StatementReferences {
  functions: NameRef[];
  operators: NameRef[];
  types: NameRef[];
  attributes: string[];
}

/** How {@link checkPostgresStatement} treats function names. */
export interface StatementCheckOptions {
  /**
   * Refuse the names of the refusal list as the tree is read (default true). False collects them
   * for the catalog's check alone, which refuses them too: the tests use it to show that layer holds on its own.
   */
  refuseByName?: boolean;
}

/**
 * Checks one statement against the rules.
 * @param sql the statement's text, as the program sent it
 * @returns the names it uses (see {@link StatementReferences}), for the catalog's check
 * @throws {SqlRefusedError} naming the rule it breaks (`syntax`, `one statement`, `read only`,
 *   `no SELECT INTO`, `no locking clause`, `EXPLAIN without ANALYZE`, `function`)
 */
export async function checkPostgresStatement(sql: string, options: StatementCheckOptions = {}): Promise<StatementReferences> {
  const parse = await loadParser();
  let tree: { stmts?: { stmt: Tree }[] };
  try {
    tree = parse(sql) as { stmts?: { stmt: Tree }[] };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new SqlRefusedError('syntax', `the statement could not be parsed: ${message}`);
  }
  const stmts = tree.stmts ?? [];
  if (stmts.length !== 1) {
    throw new SqlRefusedError('one statement', `${stmts.length === 0 ? 'no statement' : `${stmts.length} statements`} given: send exactly one statement per call (no ";" between statements)`);
  }
  let top = stmts[0]!.stmt as Record<string, Tree>;
  const explain = top.ExplainStmt as { query: Tree; options?: { DefElem: { defname: string; arg?: Tree } }[] } | undefined;
  if (explain) {
    // any ANALYZE option, whatever its value: the server reads them all and the last one wins (ANALYZE false, ANALYZE true)
    if ((explain.options ?? []).some((o) => o.DefElem.defname.toLowerCase() === 'analyze')) {
      throw new SqlRefusedError('EXPLAIN without ANALYZE', 'EXPLAIN ANALYZE runs the statement: use EXPLAIN without ANALYZE (and without an ANALYZE option, whatever its value)');
    }
    top = explain.query as Record<string, Tree>;
  }
  if (!('SelectStmt' in top)) refuseStatement(Object.keys(top)[0] ?? 'unknown');
  const refs: StatementReferences = { functions: [], operators: [], types: [], attributes: [] };
  walk(top, refs, { byName: options.refuseByName ?? true, text: Buffer.from(sql) });
  return refs;
}

function refuseStatement(node: string): never {
  const what = STATEMENT_NAMES[node] ?? node.replace(/Stmt$/, '');
  throw new SqlRefusedError('read only', `${what} is not allowed: ${READ_ONLY_HINT}`);
}

/** Whether a function of this name is on the refusal list (by exact name or by the start of it). */
export function isDenied(name: string): boolean {
  const n = name.toLowerCase();
  return DENIED_FUNCTIONS.has(n) || DENIED_FUNCTION_PREFIXES.some((p) => n.startsWith(p));
}

function refuseFunction(name: string): never {
  throw new SqlRefusedError('function', `the function ${name}() is not allowed here (it reads server files, changes settings or sessions, or runs a query given as text)`);
}

/** A qualified name from a list of `{String: {sval}}` nodes (`[schema, name]` or `[name]`). */
function nameRef(list: Tree): NameRef | undefined {
  const parts = names(list);
  const name = parts.at(-1);
  if (name === undefined) return undefined;
  return parts.length > 1 ? { schema: parts.at(-2)!, name } : { name };
}

/** The operators an `A_Expr` runs: its name, but `BETWEEN` compares with `<=`/`>=` (or `<`/`>` negated). */
function operatorsOf(expr: { kind?: string; name?: Tree }): NameRef[] {
  if (expr.kind?.startsWith('AEXPR_BETWEEN') || expr.kind?.startsWith('AEXPR_NOT_BETWEEN')) {
    return ['<=', '>=', '<', '>'].map((name) => ({ name }));
  }
  const ref = nameRef(expr.name);
  return ref ? [ref] : [];
}

/** Names in a list of `{String: {sval}}` nodes. */
function names(list: Tree): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((n) => (n && typeof n === 'object' && 'String' in n ? [String((n as { String: { sval?: string } }).String.sval ?? '')] : []));
}

/**
 * SQL/JSON syntax the parser (PostgreSQL 17's) reads as its own node, which a server older than the
 * syntax reads as a call of a function of that name — the database's own, if it has one
 * (`json_array(text)` in public on PostgreSQL 15).
 */
const SYNTAX_CALLS: Record<string, string> = {
  JsonArrayConstructor: 'json_array', JsonArrayQueryConstructor: 'json_array', JsonObjectConstructor: 'json_object',
  JsonArrayAgg: 'json_arrayagg', JsonObjectAgg: 'json_objectagg', JsonParseExpr: 'json', JsonScalarExpr: 'json_scalar',
  JsonSerializeExpr: 'json_serialize', JsonTable: 'json_table',
};
const JSON_FUNC_OPS: Record<string, string> = { JSON_EXISTS_OP: 'json_exists', JSON_QUERY_OP: 'json_query', JSON_VALUE_OP: 'json_value' };

/** What the walk carries: whether to refuse the refusal list by name, and the statement's bytes (locations are byte offsets). */
interface WalkContext {
  byName: boolean;
  text: Buffer;
}

/**
 * A function name as the server resolves it: a `pg_catalog.` the grammar added (`json_object(…)`
 * is `pg_catalog.json_object` to PostgreSQL 17's parser) is dropped unless the statement wrote it,
 * since an older server's grammar may not add it and then resolves the name in the search path.
 */
function functionRef(call: { funcname?: Tree; location?: number }, ctx: WalkContext): NameRef | undefined {
  const ref = nameRef(call.funcname);
  if (!ref || ref.schema !== 'pg_catalog') return ref;
  const at = ctx.text.subarray(Math.max(0, call.location ?? 0), Math.max(0, call.location ?? 0) + 64).toString('utf8');
  return /^\s*"?pg_catalog"?\s*\./i.test(at) ? ref : { name: ref.name };
}

const EQUALS: NameRef = { name: '=' };

function walk(node: Tree, refs: StatementReferences, ctx: WalkContext): void {
  const deniedFunction = (name: string) => ctx.byName && isDenied(name);
  if (Array.isArray(node)) {
    for (const item of node) walk(item, refs, ctx);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Record<string, Tree>)) {
    if (key.endsWith('Stmt') && key !== 'SelectStmt') refuseStatement(key);
    if (key === 'SelectStmt') {
      const select = value as { intoClause?: Tree; lockingClause?: Tree[] };
      if (select.intoClause) throw new SqlRefusedError('no SELECT INTO', 'SELECT … INTO creates a table: not allowed');
      if (select.lockingClause?.length) throw new SqlRefusedError('no locking clause', 'FOR UPDATE / FOR SHARE locks rows: not allowed');
    }
    if (key === 'FuncCall') {
      const ref = functionRef(value as { funcname?: Tree; location?: number }, ctx);
      if (ref && deniedFunction(ref.name)) refuseFunction(ref.name);
      if (ref) refs.functions.push(ref);
    }
    if (key in SYNTAX_CALLS) refs.functions.push({ name: SYNTAX_CALLS[key]!, syntax: true });
    if (key === 'JsonFuncExpr') {
      const name = JSON_FUNC_OPS[String((value as { op?: string }).op)];
      if (name) refs.functions.push({ name, syntax: true });
    }
    if (key === 'RangeTableSample') {
      const ref = nameRef((value as { method?: Tree }).method);
      if (ref) refs.functions.push(ref);
    }
    if (key === 'A_Expr') refs.operators.push(...operatorsOf(value as { kind?: string; name?: Tree }));
    if (key === 'SubLink' || key === 'SortBy') {
      const ref = nameRef(key === 'SubLink' ? (value as { operName?: Tree }).operName : (value as { useOp?: Tree }).useOp);
      if (ref) refs.operators.push(ref);
      // x IN (SELECT …) compares with = without writing it
      else if (key === 'SubLink' && (value as { subLinkType?: string }).subLinkType === 'ANY_SUBLINK') refs.operators.push(EQUALS);
    }
    // CASE x WHEN y compares with =, and so do JOIN … USING and NATURAL JOIN
    if (key === 'CaseExpr' && (value as { arg?: Tree }).arg) refs.operators.push(EQUALS);
    if (key === 'JoinExpr') {
      const join = value as { usingClause?: Tree[]; isNatural?: boolean };
      if (join.usingClause?.length || join.isNatural) refs.operators.push(EQUALS);
    }
    if (key === 'typeName' || key === 'TypeName') {
      const ref = nameRef((value as { names?: Tree }).names);
      if (ref) refs.types.push(ref);
    }
    if (key === 'RangeVar') {
      const view = String((value as { relname?: string }).relname ?? '').toLowerCase();
      if (DENIED_VIEWS.has(view)) throw new SqlRefusedError('function', `the view ${view} is not allowed here (it reads the server's configuration files)`);
    }
    // attribute notation calls a function too: (x).pg_ls_dir is pg_ls_dir(x)
    if (key === 'ColumnRef' || key === 'A_Indirection') {
      const fields = key === 'ColumnRef' ? (value as { fields?: Tree }).fields : (value as { indirection?: Tree }).indirection;
      const attributes = names(fields);
      for (const name of attributes) if (deniedFunction(name)) refuseFunction(name);
      refs.attributes.push(...(key === 'ColumnRef' ? attributes.slice(1) : attributes));
    }
    walk(value, refs, ctx);
  }
}
