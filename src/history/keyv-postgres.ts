/**
 * Keyv's PostgreSQL adapter with a pool that survives a database restart. `@keyv/postgres` keeps
 * one module-wide `pg.Pool` with no `error` listener; when PostgreSQL restarts (or an idle
 * connection is cut), pg emits `error` on the pool for each idle client
 * (https://node-postgres.com/apis/pool#error), and an `error` event without a listener throws,
 * taking the process down. This adapter overrides the adapter's public `connect()` to use a pool of
 * its own with a listener that logs the loss; queries running at that moment fail to their callers
 * (the store says so), and the next query opens a fresh connection.
 */
import pg from 'pg';
import KeyvPostgres, { type KeyvPostgresOptions } from '@keyv/postgres';

/** Receives the message of a lost idle connection (e.g. `terminating connection due to administrator command`). */
export type PoolErrorListener = (message: string) => void;

/** Pools by adapter (the base constructor calls `connect()` before a subclass could set a field). */
const pools = new WeakMap<KeyvPostgres, pg.Pool>();

/** Options of {@link ListenedKeyvPostgres}: Keyv's, plus where a lost idle connection is reported. */
export type ListenedKeyvPostgresOptions = KeyvPostgresOptions & { onPoolError?: PoolErrorListener };

/** See the module comment. */
export class ListenedKeyvPostgres extends KeyvPostgres {
  constructor(options: ListenedKeyvPostgresOptions) {
    super(options);
  }

  /** The adapter's query function on this adapter's own pool (created on first use). */
  override async connect(): Promise<(sql: string, values?: unknown[]) => Promise<unknown[]>> {
    let pool = pools.get(this);
    if (!pool) {
      const { onPoolError, uri } = this.opts as ListenedKeyvPostgresOptions;
      // as the base adapter does: its options are pg's pool options too (pg ignores the others)
      pool = new pg.Pool({ ...this.opts, connectionString: uri });
      const report = onPoolError ?? ((m: string) => process.stderr.write(`warning: history store (PostgreSQL): ${m}\n`));
      pool.on('error', (err) => report(`an idle connection was lost (${err.message}); the next query reconnects`));
      pools.set(this, pool);
    }
    const ready = pool;
    return async (sql, values) => (await ready.query(sql, values)).rows as unknown[];
  }

  /** Ends this adapter's pool. */
  override async disconnect(): Promise<void> {
    const pool = pools.get(this);
    pools.delete(this);
    await pool?.end();
  }
}
