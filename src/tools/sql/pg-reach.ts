/**
 * The first wall: what a PostgreSQL source's role may reach on its server, read from the server's
 * own privileges. The check of each statement's text (pg-functions.ts) is the second wall; this one
 * holds whatever the text check misses, because the server itself refuses what the role may not do.
 *
 * Read with the catalog (at a source's first use, in `code-agent doctor`, and again whenever the
 * catalog changes), for a role that is not a superuser:
 * - every function made after initdb (OID ≥ 16384: an extension's, the database's own) the role
 *   may execute (`has_function_privilege`, PUBLIC's default EXECUTE included), and every built-in
 *   one initdb keeps from PUBLIC (`pg_read_file`…) that it may execute all the same; the operators
 *   and casts that run them are named with them;
 * - every foreign table (file_fdw reads server files, postgres_fdw and dblink_fdw other servers)
 *   the role may read, and every view or materialized view over one;
 * - every role that may create functions in a schema the role may use, whose new functions are
 *   executable by PUBLIC (no `ALTER DEFAULT PRIVILEGES … REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC`);
 * - `temp_file_limit`, which only a superuser may set on the role.
 * Each finding is a phrase of what the role may do and the statements that undo it
 * ({@link reachFindings}); a source whose role has any is refused unless it says `privileged_role: allow`.
 */
import type { PgCatalog } from './pg-catalog.js';
import { refusalOf, type FunctionPolicy } from './pg-functions.js';

/** The `temp_file_limit` the fix sets on a role, and the one pinned per statement for a superuser role. */
export const TEMP_FILE_LIMIT = '1GB';

const grantees = (acl: string, privilege: string, owner: string) => `ARRAY(SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END
              FROM aclexplode(${acl}) a WHERE a.privilege_type = '${privilege}' AND a.grantee <> ${owner} AND (a.grantee = 0 OR pg_has_role(a.grantee, 'USAGE')) ORDER BY 1)`;

const NOT_SUPERUSER = 'NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)';

/** The four reads, sent after the catalog's with the search path set to pg_catalog (four results). */
export const REACH_READ = `
SELECT p.oid::int8 AS oid, format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) AS signature,
       pg_has_role(p.proowner, 'USAGE') AS owned, ${grantees("coalesce(p.proacl, acldefault('f', p.proowner))", 'EXECUTE', 'p.proowner')} AS via
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE ${NOT_SUPERUSER} AND p.prokind <> 'p'
   AND (p.oid >= 16384 OR (p.proacl IS NOT NULL AND NOT EXISTS (SELECT 1 FROM aclexplode(p.proacl) a WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')))
   AND has_function_privilege(p.oid, 'EXECUTE')
 ORDER BY 2;
WITH RECURSIVE reach(oid, foreign_oid) AS (
  SELECT ft.ftrelid, ft.ftrelid FROM pg_foreign_table ft
  UNION
  SELECT r.ev_class, reach.foreign_oid FROM reach
    JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = reach.oid AND d.classid = 'pg_rewrite'::regclass
    JOIN pg_rewrite r ON r.oid = d.objid
   WHERE r.ev_class <> reach.oid)
SELECT DISTINCT ON (c.oid) c.oid::regclass::text AS relation, c.relkind::text AS kind, reach.foreign_oid::regclass::text AS foreign_table,
       (SELECT w.fdwname FROM pg_foreign_table ft, pg_foreign_server s, pg_foreign_data_wrapper w
         WHERE ft.ftrelid = reach.foreign_oid AND s.oid = ft.ftserver AND w.oid = s.srvfdw) AS wrapper,
       pg_has_role(c.relowner, 'USAGE') AS owned, ${grantees("coalesce(c.relacl, acldefault('r', c.relowner))", 'SELECT', 'c.relowner')} AS via,
       ARRAY(SELECT (CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END) || ' ' || quote_ident(att.attname)
               FROM pg_attribute att, aclexplode(att.attacl) a
              WHERE att.attrelid = c.oid AND a.privilege_type = 'SELECT' AND (a.grantee = 0 OR pg_has_role(a.grantee, 'USAGE')) ORDER BY 1) AS column_via,
       coalesce((SELECT pg_has_role(g.oid, 'USAGE') FROM pg_roles g WHERE g.rolname = 'pg_read_all_data'), false) AS read_all
  FROM reach JOIN pg_class c ON c.oid = reach.oid
 WHERE ${NOT_SUPERUSER} AND (has_table_privilege(c.oid, 'SELECT') OR has_any_column_privilege(c.oid, 'SELECT'))
 ORDER BY c.oid, reach.foreign_oid;
SELECT DISTINCT quote_ident(r.rolname) AS creator
  FROM pg_namespace n
  CROSS JOIN LATERAL (SELECT n.nspowner AS creator UNION SELECT a.grantee FROM aclexplode(n.nspacl) a WHERE a.privilege_type = 'CREATE' AND a.grantee <> 0) c
  JOIN pg_roles r ON r.oid = CASE WHEN pg_get_userbyid(c.creator) = 'pg_database_owner' THEN (SELECT datdba FROM pg_database WHERE datname = current_database()) ELSE c.creator END
 WHERE ${NOT_SUPERUSER} AND n.nspname <> 'information_schema' AND left(n.nspname, 3) <> 'pg_' AND has_schema_privilege(n.oid, 'USAGE')
   AND NOT EXISTS (SELECT 1 FROM pg_default_acl d WHERE d.defaclrole = r.oid AND d.defaclnamespace = 0 AND d.defaclobjtype = 'f'
                    AND NOT EXISTS (SELECT 1 FROM aclexplode(d.defaclacl) x WHERE x.grantee = 0 AND x.privilege_type = 'EXECUTE'))
 ORDER BY 1;
SELECT quote_ident(current_user) AS role, (SELECT setting::int8 FROM pg_settings WHERE name = 'temp_file_limit') AS temp_file_kb, NOT ${NOT_SUPERUSER} AS superuser`;

/** What {@link REACH_READ} found: one list of rows per read. */
export type ReachRows = [Record<string, unknown>[], Record<string, unknown>[], Record<string, unknown>[], Record<string, unknown>[]];

/** What the role may reach beyond reading, and the statements that undo it. */
export interface ReachFindings {
  /** Phrases for the role's report (`may execute 2 functions not on the allowlist: …`). */
  privileges: string[];
  /** SQL statements (and `--` comments) that undo each finding, to run as a superuser or each object's owner. */
  fixes: string[];
}

/** What a foreign-data wrapper reaches, for the phrase. */
const WRAPPERS: Record<string, string> = { file_fdw: 'server files', postgres_fdw: 'another server', dblink_fdw: 'another server' };
/** What an extension's functions reach, for the phrase. */
const EXTENSIONS: Record<string, string> = { dblink: 'other servers', postgres_fdw: 'other servers', file_fdw: 'server files', adminpack: 'server files', lo: 'large objects' };

const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/** The statements that take a privilege of `object` away from the role, by who holds it (PUBLIC, the role, a group). */
function revokes(grant: string, object: string, via: string[], role: string, owned: boolean, ownerFix: string): string[] {
  const out = via.map((g) => (g.startsWith('pg_') ? `REVOKE ${g} FROM ${role};` : `REVOKE ${grant} ON ${object} FROM ${g};`));
  if (owned) out.push(`-- ${role} owns ${object}: ${ownerFix}`);
  return out;
}

function listed(items: string[], max = 4): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
}

/**
 * What {@link REACH_READ}'s rows mean for a source's allowlist.
 * @param rows the four reads' rows, in order
 * @param catalog the source's catalog, for the operators and casts that run a function and its origin
 */
export function reachFindings(rows: ReachRows, catalog: PgCatalog, policy: FunctionPolicy): ReachFindings {
  const [functions, relations, creators, [settings]] = rows;
  const role = String(settings?.role ?? 'the_role');
  const privileges: string[] = [];
  const fixes: string[] = [];
  for (const c of creators) fixes.push(`ALTER DEFAULT PRIVILEGES FOR ROLE ${String(c.creator)} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;`);
  if (creators.length) privileges.push(`may execute every function ${listed(creators.map((c) => String(c.creator)))} will create (PUBLIC gets EXECUTE on new functions by default)`);

  const reached: string[] = [];
  for (const f of functions) {
    const fn = catalog.functions.get(Number(f.oid));
    if (!fn || !refusalOf(fn, policy)) continue;
    const signature = String(f.signature);
    reached.push(`${signature}${origin(fn.oid, catalog)}`);
    fixes.push(...revokes('EXECUTE', `FUNCTION ${signature}`, strings(f.via), role, f.owned === true, `give it another owner (ALTER FUNCTION ${signature} OWNER TO …)`));
  }
  if (reached.length) privileges.push(`may execute ${reached.length} function${reached.length === 1 ? '' : 's'} not on the allowlist: ${listed(reached)}`);

  const readable: string[] = [];
  for (const r of relations) {
    const relation = String(r.relation);
    const reaches = WRAPPERS[String(r.wrapper)] ?? `the data of the foreign-data wrapper ${String(r.wrapper)}`;
    readable.push(String(r.kind) === 'f' ? `${relation} (a foreign table of ${String(r.wrapper)}: ${reaches})` : `${relation} (a view over the foreign table ${String(r.foreign_table)}: ${reaches})`);
    fixes.push(...revokes('SELECT', relation, strings(r.via), role, r.owned === true, `give it another owner (ALTER TABLE ${relation} OWNER TO …)`));
    const columns = new Map<string, string[]>();
    for (const entry of strings(r.column_via)) {
      const [grantee, column] = entry.split(' ') as [string, string];
      columns.set(grantee, [...(columns.get(grantee) ?? []), column]);
    }
    for (const [grantee, cols] of columns) fixes.push(`REVOKE SELECT (${cols.join(', ')}) ON ${relation} FROM ${grantee};`);
    if (strings(r.via).length === 0 && columns.size === 0 && r.owned !== true && r.read_all === true) fixes.push(`REVOKE pg_read_all_data FROM ${role};`);
  }
  if (readable.length) privileges.push(`may read ${listed(readable)}`);

  const tempKb = Number(settings?.temp_file_kb ?? -1);
  if (settings && tempKb < 0 && settings.superuser !== true) { // a superuser's statements pin it themselves
    privileges.push('may write temp files on the server without a limit (temp_file_limit is not set)');
    fixes.push(`ALTER ROLE ${role} SET temp_file_limit = '${TEMP_FILE_LIMIT}';  -- as a superuser: the role may not set it itself`);
  }
  return { privileges, fixes: [...new Set(fixes)] };
}

/** ` (SECURITY DEFINER; from the extension dblink: other servers; run by the operator public.=)` for a function. */
function origin(oid: number, catalog: PgCatalog): string {
  const fn = catalog.functions.get(oid)!;
  const notes: string[] = [];
  if (fn.securityDefiner) notes.push('SECURITY DEFINER');
  if (fn.extension) notes.push(`from the extension ${fn.extension}${EXTENSIONS[fn.extension] ? `: ${EXTENSIONS[fn.extension]}` : ''}`);
  if (fn.builtin) notes.push('initdb keeps it from PUBLIC');
  const ops = catalog.operators.filter((o) => o.functionOid === oid).map((o) => `the operator ${o.schema}.${o.name}`);
  const casts = [...catalog.typesByName.values()].flat().flatMap((t) => t.casts.filter((c) => c.functionOid === oid).map((c) => `the ${c.context === 'i' ? 'implicit ' : ''}cast ${catalog.typeNames.get(c.source) ?? c.source} → ${t.schema}.${t.name}`));
  const runBy = [...ops, ...new Set(casts)];
  if (runBy.length) notes.push(`run by ${listed(runBy, 3)}`);
  return notes.length ? ` (${notes.join('; ')})` : '';
}
