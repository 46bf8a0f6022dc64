/**
 * What a PostgreSQL source's role may do beyond reading, checked when the source is first used, when
 * its catalog changes, and by `code-agent doctor`. A role that may read or write the server's files,
 * run programs on it, write to the database, or reach what pg-reach.ts finds (functions not on the
 * allowlist, foreign tables, temp files without a limit) is refused unless the source says `privileged_role: allow` (then every
 * process says so loudly at start). The read-only transaction and the function allowlist hold
 * either way; a reader role is the layer that holds when both miss something.
 */

/** One statement (simple protocol) returning one row: the role and what it may do. */
export const ROLE_QUERY = `
SELECT current_user AS role, r.rolsuper AS superuser, r.rolcreaterole AS createrole, r.rolcreatedb AS createdb,
       r.rolreplication AS replication, has_database_privilege(current_database(), 'CREATE') AS create_schema,
       ARRAY(SELECT g.rolname::text FROM pg_roles g
              WHERE g.rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program', 'pg_write_all_data')
                AND pg_has_role(current_user, g.oid, 'MEMBER') ORDER BY 1) AS member_of,
       ARRAY(SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname <> 'information_schema' AND left(n.nspname, 3) <> 'pg_'
                AND has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE') ORDER BY 1 LIMIT 4) AS writable,
       ARRAY(SELECT n.nspname::text FROM pg_namespace n
              WHERE n.nspname <> 'information_schema' AND left(n.nspname, 3) <> 'pg_' AND has_schema_privilege(n.oid, 'CREATE')
              ORDER BY 1 LIMIT 4) AS creatable
  FROM pg_roles r WHERE r.rolname = current_user`;

/** What the role may do, as the doctor and the start-up warning say it. */
export interface RoleReport {
  role: string;
  /** What it may do beyond reading, one phrase each with its verb (`is a superuser`, `may write to public.orders`, `may execute 2 functions not on the allowlist: …`); empty for a reader. */
  privileges: string[];
  /** The statements that make it a reader (pg-reach.ts): run as a superuser or each object's owner. */
  fixes: string[];
  /** A superuser: the statements pin what a superuser may set (`temp_file_limit`). */
  superuser: boolean;
}

/**
 * Reads {@link ROLE_QUERY}'s row, with what the role may reach (pg-reach.ts) added.
 * @param reach the phrases and fixes of {@link import('./pg-reach.js').reachFindings}
 */
export function roleReport(row: Record<string, unknown> | undefined, reach: { privileges: string[]; fixes: string[] } = { privileges: [], fixes: [] }): RoleReport {
  if (!row) return { role: '?', privileges: ['no pg_roles row for the current user (cannot tell what it may do)'], fixes: [], superuser: false };
  const privileges: string[] = [];
  if (row.superuser === true) privileges.push('is a superuser');
  for (const group of (row.member_of as string[] | null) ?? []) privileges.push(`is a member of ${group}`);
  const writable = (row.writable as string[] | null) ?? [];
  if (writable.length) privileges.push(`may write to ${writable.slice(0, 3).join(', ')}${writable.length > 3 ? ' and more' : ''}`);
  const creatable = (row.creatable as string[] | null) ?? [];
  if (creatable.length) privileges.push(`may create objects in the schema${creatable.length > 1 ? 's' : ''} ${creatable.slice(0, 3).join(', ')}`);
  if (row.create_schema === true) privileges.push('may create schemas in the database');
  if (row.createrole === true) privileges.push('may create roles');
  if (row.createdb === true) privileges.push('may create databases');
  if (row.replication === true) privileges.push('is a replication role');
  privileges.push(...reach.privileges);
  return { role: String(row.role), privileges, fixes: reach.fixes, superuser: row.superuser === true };
}

/** The statements that make the role a reader, as lines to print (empty when there are none). */
export function fixLines(source: string, report: RoleReport): string[] {
  if (report.fixes.length === 0) return [];
  return [`to make the role ${report.role} of the SQL source ${source} a reader, run as a superuser (or as each object's owner):`, ...report.fixes.map((f) => `  ${f}`)];
}

/** The sentence for a privileged role: what it may do and what to do about it. */
export function privilegedSentence(source: string, report: RoleReport, allowed: boolean): string {
  const what = `the role ${report.role} of the SQL source ${source} ${report.privileges.join('; ')}`;
  return allowed
    ? `${what}: allowed by tools.sql.sources.${source}.privileged_role: allow. Queries still run read-only, but give the tool a reader role (GRANT SELECT only).`
    : `${what}: refused. Give the tool a reader role (GRANT SELECT only, see docs/sql-tool.md${report.fixes.length ? '; code-agent doctor prints the statements that make this one a reader' : ''}), or set tools.sql.sources.${source}.privileged_role: allow to use it anyway.`;
}
