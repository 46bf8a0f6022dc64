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

  schedules(): ScheduleBackend {
    return this.channelSchedules;
  }

  async close(): Promise<void> {}
}
