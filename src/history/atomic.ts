/**
 * The read-modify-write operations of the history that must stay right when several processes
 * share one store (Slack replicas behind a load balancer, ingress and workers in queue mode).
 * Keyv has no atomic operation, so each backend does these with its own client or driver, in one
 * statement or script the backend runs atomically:
 * - redis: `SET key 1 NX PX ttl`; a Lua script appends to a list (LPOS, RPUSH, LTRIM)
 * - postgres: `INSERT … ON CONFLICT DO NOTHING` (a row per index entry), an upsert with a condition for claims
 * - sqlite: `INSERT OR IGNORE` (a row per index entry), an upsert with a condition for claims
 */

import { MemoryUsageLedger, type UsageLedger } from './usage.js';
import { InProcessMemory, type MemoryBackend } from './memory.js';
import { InProcessSchedules, type ScheduleBackend } from './schedules.js';

/** Atomic operations of one backend; every method is safe across processes sharing the store. */
export interface AtomicOps {
  /**
   * Set-if-absent with a time to live: records `key` for `ttlMs` ms.
   * @returns true when the key was absent (or had expired), false while it is recorded.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Appends `runId` to the run index of a conversation unless it is already there; keeps the
   * newest `max` entries. Concurrent appends (any process) never lose an entry.
   */
  append(conversationId: string, runId: string, max: number): Promise<void>;
  /** @returns the newest `limit` run ids of a conversation, oldest first. */
  recent(conversationId: string, limit: number): Promise<string[]>;
  /**
   * Takes or renews a lease: records `owner` under `key` for `ttlMs` ms when the key is free, has
   * expired, or is already held by `owner` (then its time is renewed).
   * @returns true when `owner` holds the lease now, false while another owner holds it.
   */
  lease(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Ends `owner`'s lease on `key`; a lease held by another owner (after ours expired) is left alone. */
  release(key: string, owner: string): Promise<void>;
  /** The usage ledger on the same backend (see `usage.ts`). */
  usage(): UsageLedger;
  /** Channel memory on the same backend (see `memory.ts`). */
  memory(): MemoryBackend;
  /** The store's format version (`format-version.ts`), or undefined in a store that has none recorded. */
  formatVersion(): Promise<number | undefined>;
  /**
   * Records the format version `to` only when the recorded one is `from` now (undefined: none is
   * recorded), in one conditional write.
   * @returns false when the recorded version was not `from` (another process moved it): nothing written
   */
  setFormatVersion(from: number | undefined, to: number): Promise<boolean>;
  /**
   * The history's Keyv keys (without the `code-agent:` namespace) that start with `prefix`, sorted;
   * reads key names only, never values (export and retention walk the store with it).
   */
  keys(prefix: string): Promise<string[]>;
  /** The schedules on the same backend (see `schedules.ts`). */
  schedules(): ScheduleBackend;
  /** Closes the connection this object opened (not the Keyv adapter's). */
  close(): Promise<void>;
}

/** In one process only (a Map-backed store in tests and benches): JavaScript runs each method without interleaving. */
export class MemoryAtomics implements AtomicOps {
  private readonly claims = new Map<string, number>();
  private readonly lists = new Map<string, string[]>();
  private readonly leases = new Map<string, { owner: string; until: number }>();
  private readonly ledger = new MemoryUsageLedger();
  private readonly channelMemory = new InProcessMemory();
  private version: number | undefined;
  /** The Map the Keyv store keeps its keys in (set by the history store built on it). */
  source: Map<string, unknown> | undefined;
  private readonly channelSchedules = new InProcessSchedules();

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const until = this.claims.get(key);
    if (until !== undefined && until > now) return false;
    this.claims.set(key, now + ttlMs);
    return true;
  }

  async append(conversationId: string, runId: string, max: number): Promise<void> {
    const list = this.lists.get(conversationId) ?? [];
    if (list.includes(runId)) return;
    list.push(runId);
    this.lists.set(conversationId, list.slice(-max));
  }

  async recent(conversationId: string, limit: number): Promise<string[]> {
    return (this.lists.get(conversationId) ?? []).slice(-limit);
  }

  async lease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const held = this.leases.get(key);
    if (held && held.until > now && held.owner !== owner) return false;
    this.leases.set(key, { owner, until: now + ttlMs });
    return true;
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.leases.get(key)?.owner === owner) this.leases.delete(key);
  }

  usage(): UsageLedger {
    return this.ledger;
  }

  memory(): MemoryBackend {
    return this.channelMemory;
  }

  async formatVersion(): Promise<number | undefined> {
    return this.version;
  }

  async setFormatVersion(from: number | undefined, to: number): Promise<boolean> {
    if (this.version !== from) return false;
    this.version = to;
    return true;
  }

  async keys(prefix: string): Promise<string[]> {
    const full = `${KEYV_NAMESPACE}:${prefix}`;
    return [...(this.source?.keys() ?? [])]
      .filter((k) => k.startsWith(full))
      .map((k) => k.slice(KEYV_NAMESPACE.length + 1))
      .sort();
  }

  schedules(): ScheduleBackend {
    return this.channelSchedules;
  }

  async close(): Promise<void> {}
}

/** The Keyv namespace of the history: every Keyv key is stored as `code-agent:<key>`. */
export const KEYV_NAMESPACE = 'code-agent';

/** The row of `code_agent_meta` (SQLite, PostgreSQL) that holds the format version. */
export const META_TABLE = `
CREATE TABLE IF NOT EXISTS code_agent_meta (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`;

/**
 * SQL of the format version on `code_agent_meta` (`$1…` placeholders): read it, write it when absent,
 * change it when it is the expected one.
 */
export const VERSION_SQL = {
  read: "SELECT value FROM code_agent_meta WHERE name = 'format_version'",
  insert: "INSERT INTO code_agent_meta (name, value) VALUES ('format_version', $1) ON CONFLICT (name) DO NOTHING",
  update: "UPDATE code_agent_meta SET value = $1 WHERE name = 'format_version' AND value = $2",
} as const;

/** The upper bound of a key range that holds every string starting with the range's lower bound (U+10FFFF sorts after every character, in UTF-8 bytes too). */
export const RANGE_END = '\u{10FFFF}';
