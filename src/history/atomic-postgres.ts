/**
 * {@link AtomicOps} on PostgreSQL with the `pg` driver: the run index is a row per entry
 * (`INSERT … ON CONFLICT DO NOTHING`, ordered by a sequence); a claim is an upsert that only
 * overwrites an expired claim (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).
 */
import pg from 'pg';
import { KEYV_NAMESPACE, META_TABLE, VERSION_SQL, type AtomicOps } from './atomic.js';
import type { UsageLedger } from './usage.js';
import { SqlUsageLedger, USAGE_TABLE, type SqlRunner } from './usage-sql.js';
import { memoryTable, SqlMemory } from './memory-sql.js';
import type { MemoryBackend } from './memory.js';
import { schedulesTable, SqlSchedules } from './schedules-sql.js';
import type { ScheduleBackend } from './schedules.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS code_agent_run_index (
  seq BIGSERIAL PRIMARY KEY,
  conversation_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  UNIQUE (conversation_id, run_id)
);
CREATE TABLE IF NOT EXISTS code_agent_claims (
  key TEXT PRIMARY KEY,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS code_agent_leases (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);${META_TABLE}${USAGE_TABLE}${memoryTable('BIGSERIAL PRIMARY KEY')}${schedulesTable('BIGSERIAL PRIMARY KEY')}`;

/** Tables `code_agent_meta` (the format version), `code_agent_run_index`, `code_agent_claims`, `code_agent_leases`, `code_agent_usage`, `code_agent_memory` and `code_agent_schedules`, created on open. */
export class PostgresAtomics implements AtomicOps {
  private constructor(private readonly pool: pg.Pool) {}

  /**
   * Connects and creates the tables (under an advisory lock, so processes starting together do not collide).
   * @throws the driver's error when the database cannot be reached.
   */
  static async open(url: string): Promise<PostgresAtomics> {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', () => {
      /* an idle client's error; the next query reports it */
    });
    const client = await pool.connect().catch(async (err: unknown) => {
      await pool.end().catch(() => undefined);
      throw err;
    });
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('code-agent-schema'))`);
      await client.query(SCHEMA);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      await pool.end().catch(() => undefined);
      throw err;
    }
    client.release();
    return new PostgresAtomics(pool);
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const res = await this.pool.query(
      `INSERT INTO code_agent_claims (key, expires_at) VALUES ($1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE code_agent_claims.expires_at <= now()
       RETURNING key`,
      [key, Math.max(1, Math.round(ttlMs))],
    );
    if (Math.random() < 0.01) await this.pool.query('DELETE FROM code_agent_claims WHERE expires_at <= now()');
    return res.rowCount === 1;
  }

  async append(conversationId: string, runId: string, max: number): Promise<void> {
    const res = await this.pool.query(
      'INSERT INTO code_agent_run_index (conversation_id, run_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [conversationId, runId],
    );
    if (res.rowCount === 1) {
      await this.pool.query(
        `DELETE FROM code_agent_run_index WHERE conversation_id = $1 AND seq <= (
           SELECT seq FROM code_agent_run_index WHERE conversation_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`,
        [conversationId, max],
      );
    }
  }

  async recent(conversationId: string, limit: number): Promise<string[]> {
    const res = await this.pool.query<{ run_id: string }>(
      'SELECT run_id FROM code_agent_run_index WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2',
      [conversationId, limit],
    );
    return res.rows.map((r) => r.run_id).reverse();
  }

  async lease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const res = await this.pool.query(
      `INSERT INTO code_agent_leases (key, owner, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
       WHERE code_agent_leases.expires_at <= now() OR code_agent_leases.owner = EXCLUDED.owner
       RETURNING key`,
      [key, owner, Math.max(1, Math.round(ttlMs))],
    );
    return res.rowCount === 1;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.pool.query('DELETE FROM code_agent_leases WHERE key = $1 AND owner = $2', [key, owner]);
  }

  usage(): UsageLedger {
    return new SqlUsageLedger(async <T>(sql: string, params: unknown[]) => (await this.pool.query(sql, params)).rows as T[], {
      nowMs: 'CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)',
      serialized: (locks, fn) => this.underLocks(locks, fn),
    });
  }

  /**
   * Runs `fn` in a transaction on one connection that first takes a transaction-level advisory lock
   * per name (in sorted order, so two callers never wait on each other); they end with it.
   */
  private async underLocks<T>(locks: string[], fn: (query: SqlRunner) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const name of [...new Set(locks)].sort()) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
      const result = await fn(async <R>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as R[]);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** Memory of a conversation is added to and forgotten from under a transaction-scoped advisory lock on it. */
  memory(): MemoryBackend {
    const query: SqlRunner = async <T>(sql: string, params: unknown[]) => (await this.pool.query(sql, params)).rows as T[];
    return new SqlMemory(
      query,
      (conversationId, fn) => this.underLocks([`code-agent-memory:${conversationId}`], fn),
      "SELECT setval(pg_get_serial_sequence('code_agent_memory', 'seq'), GREATEST((SELECT MAX(seq) FROM code_agent_memory), (SELECT last_value FROM code_agent_memory_seq_seq)))",
    );
  }

  async formatVersion(): Promise<number | undefined> {
    const res = await this.pool.query<{ value: string }>(VERSION_SQL.read);
    return res.rows[0] ? Number(res.rows[0].value) : undefined;
  }

  async setFormatVersion(from: number | undefined, to: number): Promise<boolean> {
    const res = from === undefined ? await this.pool.query(VERSION_SQL.insert, [String(to)]) : await this.pool.query(VERSION_SQL.update, [String(to), String(from)]);
    return res.rowCount === 1;
  }

  /** Keys of Keyv's table `keyv` (schema `public`, as `@keyv/postgres` makes it); none before Keyv made the table. */
  async keys(prefix: string): Promise<string[]> {
    const low = `${KEYV_NAMESPACE}:${prefix}`;
    try {
      const res = await this.pool.query<{ key: string }>('SELECT key FROM public.keyv WHERE left(key, length($1)) = $1 ORDER BY key COLLATE "C"', [low]);
      return res.rows.map((r) => r.key.slice(KEYV_NAMESPACE.length + 1));
    } catch (err) {
      if ((err as { code?: string }).code === '42P01') return []; // undefined_table
      throw err;
    }
  }

  /** Schedules of a conversation are added under a transaction-scoped advisory lock on it. */
  schedules(): ScheduleBackend {
    const query: SqlRunner = async <T>(sql: string, params: unknown[]) => (await this.pool.query(sql, params)).rows as T[];
    return new SqlSchedules(
      query,
      (key, fn) => this.underLocks([`code-agent-${key}`], fn),
      "SELECT setval(pg_get_serial_sequence('code_agent_schedules', 'seq'), GREATEST((SELECT MAX(seq) FROM code_agent_schedules), (SELECT last_value FROM code_agent_schedules_seq_seq)))",
    );
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
