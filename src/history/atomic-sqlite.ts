/**
 * {@link AtomicOps} on SQLite with the `sqlite3` driver, on the same file as the Keyv adapter:
 * the run index is a row per entry (`INSERT OR IGNORE`, ordered by an autoincrement key); a claim
 * is an upsert that only overwrites an expired claim (https://sqlite.org/lang_upsert.html).
 * Every statement is atomic; other processes on the file wait on its lock (busy timeout).
 *
 * The file is switched to write-ahead logging once (`journal_mode=WAL`, kept in the file): readers
 * never block the writer and a writer waits for another with the busy timeout, instead of the
 * `SQLITE_BUSY` that the rollback journal gives at once when a reader would become a writer
 * (https://sqlite.org/wal.html). Many processes (CLI runs, a chat app) can share one file.
 */
import sqlite3 from 'sqlite3';
import { KEYV_NAMESPACE, META_TABLE, RANGE_END, VERSION_SQL, type AtomicOps } from './atomic.js';
import type { UsageLedger } from './usage.js';
import { SqlUsageLedger, USAGE_TABLE, type SqlRunner } from './usage-sql.js';
import { memoryTable, SqlMemory } from './memory-sql.js';
import type { MemoryBackend } from './memory.js';
import { schedulesTable, SqlSchedules } from './schedules-sql.js';
import type { ScheduleBackend } from './schedules.js';

/**
 * How long a statement waits for another process's lock on the file, in ms (SQLite's busy
 * timeout: it retries until then). A SQLite store's operation deadline is this plus
 * `STORE_TIMEOUT_MS`: 30 processes writing one file on a loaded 2-core machine once needed more than 8 s.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 20_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS code_agent_run_index (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  UNIQUE (conversation_id, run_id)
);
CREATE TABLE IF NOT EXISTS code_agent_claims (
  key TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS code_agent_leases (
  key TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);${META_TABLE}${USAGE_TABLE}${memoryTable('INTEGER PRIMARY KEY AUTOINCREMENT')}${schedulesTable('INTEGER PRIMARY KEY AUTOINCREMENT')}`;

/** Tables `code_agent_meta` (the format version), `code_agent_run_index`, `code_agent_claims`, `code_agent_leases` (expiry in ms since the epoch), `code_agent_usage`, `code_agent_memory` and `code_agent_schedules`, created on open. */
export class SqliteAtomics implements AtomicOps {
  private constructor(private readonly db: sqlite3.Database) {}

  /** Opens the file (it must exist or be creatable) and creates the tables. @throws the driver's error. */
  static async open(file: string): Promise<SqliteAtomics> {
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
    });
    db.configure('busyTimeout', SQLITE_BUSY_TIMEOUT_MS);
    const atomics = new SqliteAtomics(db);
    try {
      await new Promise<void>((resolve, reject) =>
        db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;', (err) => (err ? reject(err) : resolve())),
      );
      await new Promise<void>((resolve, reject) => db.exec(SCHEMA, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      await atomics.close();
      throw err;
    }
    return atomics;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const changes = await this.run(
      `INSERT INTO code_agent_claims (key, expires_at) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE code_agent_claims.expires_at <= ?`,
      [key, now + Math.max(1, Math.round(ttlMs)), now],
    );
    if (Math.random() < 0.01) await this.run('DELETE FROM code_agent_claims WHERE expires_at <= ?', [now]);
    return changes === 1;
  }

  async append(conversationId: string, runId: string, max: number): Promise<void> {
    const changes = await this.run('INSERT OR IGNORE INTO code_agent_run_index (conversation_id, run_id) VALUES (?, ?)', [conversationId, runId]);
    if (changes === 1) {
      await this.run(
        `DELETE FROM code_agent_run_index WHERE conversation_id = ? AND seq <= (
           SELECT seq FROM code_agent_run_index WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
        [conversationId, conversationId, max],
      );
    }
  }

  async recent(conversationId: string, limit: number): Promise<string[]> {
    const rows = await new Promise<{ run_id: string }[]>((resolve, reject) =>
      this.db.all(
        'SELECT run_id FROM code_agent_run_index WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?',
        [conversationId, limit],
        (err, r: { run_id: string }[]) => (err ? reject(err) : resolve(r)),
      ),
    );
    return rows.map((r) => r.run_id).reverse();
  }

  async lease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const changes = await this.run(
      `INSERT INTO code_agent_leases (key, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE code_agent_leases.expires_at <= ? OR code_agent_leases.owner = excluded.owner`,
      [key, owner, now + Math.max(1, Math.round(ttlMs)), now],
    );
    return changes === 1;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.run('DELETE FROM code_agent_leases WHERE key = ? AND owner = ?', [key, owner]);
  }

  usage(): UsageLedger {
    return new SqlUsageLedger(this.query, {
      nowMs: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
      // a reservation is one statement, which SQLite runs under the file's write lock
      serialized: (_locks, fn) => fn(this.query),
    });
  }

  memory(): MemoryBackend {
    return new SqlMemory(this.query);
  }

  async formatVersion(): Promise<number | undefined> {
    const [row] = await this.query<{ value: string }>(VERSION_SQL.read, []);
    return row ? Number(row.value) : undefined;
  }

  async setFormatVersion(from: number | undefined, to: number): Promise<boolean> {
    const changes = from === undefined
      ? await this.run(VERSION_SQL.insert.replace('$1', '?'), [String(to)])
      : await this.run(VERSION_SQL.update.replace('$1', '?1').replace('$2', '?2'), [String(to), String(from)]);
    return changes === 1;
  }

  /** Keys of Keyv's table `keyv` (on the same file), by a range on its primary key; none before Keyv made the table. */
  async keys(prefix: string): Promise<string[]> {
    const low = `${KEYV_NAMESPACE}:${prefix}`;
    try {
      const rows = await this.query<{ key: string }>('SELECT key FROM keyv WHERE key >= $1 AND key < $2 ORDER BY key', [low, `${low}${RANGE_END}`]);
      return rows.map((r) => r.key.slice(KEYV_NAMESPACE.length + 1));
    } catch (err) {
      if (/no such table/.test((err as Error).message)) return [];
      throw err;
    }
  }

  schedules(): ScheduleBackend {
    return new SqlSchedules(this.query);
  }

  /** Runs one statement; `?NNN` binds the NNN-th parameter (https://sqlite.org/lang_expr.html#varparam), `$1` would be a name. */
  private readonly query: SqlRunner = <T>(sql: string, params: unknown[]) =>
    new Promise<T[]>((resolve, reject) => this.db.all(sql.replace(/\$(\d+)/g, '?$1'), params, (err, rows: T[]) => (err ? reject(err) : resolve(rows))));

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.db.close(() => resolve()));
  }

  private run(sql: string, params: unknown[]): Promise<number> {
    return new Promise((resolve, reject) =>
      this.db.run(sql, params, function (err) {
        if (err) reject(err);
        else resolve(this.changes);
      }),
    );
  }
}
