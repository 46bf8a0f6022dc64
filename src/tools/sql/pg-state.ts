/**
 * What a PostgreSQL source reads about itself before its statements run: the catalog (pg-catalog.ts),
 * the role (pg-role.ts) and what the role may reach (pg-reach.ts), in one round trip. Read on a
 * connection of its own at first use (and after the catalog's time to live), or on the statement's
 * own connection, inside its transaction, when the catalog's fingerprint changed since.
 */
import type pg from 'pg';
import { CATALOG_READ, PATH_READ, indexCatalog, type PgCatalog } from './pg-catalog.js';
import type { FunctionPolicy } from './pg-functions.js';
import { REACH_READ, reachFindings, type ReachRows } from './pg-reach.js';
import { ROLE_QUERY, roleReport, type RoleReport } from './pg-role.js';
import { pinnedSearchPath } from './postgres-run.js';

/** What a source's first use read: its catalog and its role. */
export interface SourceState {
  catalog: PgCatalog;
  role: RoleReport;
}

/** The reads as one simple-protocol query, with the search path pinned to pg_catalog's for them. */
export const STATE_READ = `${PATH_READ}; SET LOCAL search_path = pg_catalog; ${CATALOG_READ}; ${ROLE_QUERY}; ${REACH_READ}`;

/** Results of {@link STATE_READ}: path, SET, five catalog reads, the role, four reach reads. */
const STATE_RESULTS = 12;

/**
 * Sends {@link STATE_READ} on `client`, inside a transaction the caller opened (and closes).
 * @param restorePath the search path to pin again after the reads (a statement's own), if any
 * @throws what `client.query` throws
 */
export async function readSourceState(client: pg.PoolClient | pg.Client, policy: FunctionPolicy, restorePath?: readonly string[]): Promise<SourceState> {
  const text = restorePath ? `${STATE_READ}; ${pinnedSearchPath(restorePath)}` : STATE_READ;
  const results = (await client.query(text)) as unknown as pg.QueryResult[];
  const mine = results.slice(results.length - STATE_RESULTS - (restorePath ? 1 : 0)).slice(0, STATE_RESULTS);
  const catalog = indexCatalog(mine.slice(0, 7).map((r) => r.rows));
  const reach = reachFindings(mine.slice(8, 12).map((r) => r.rows) as ReachRows, catalog, policy);
  return { catalog, role: roleReport(mine[7]?.rows[0], reach) };
}
