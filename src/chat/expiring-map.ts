/**
 * Values a chat process keeps for a while in memory (a platform's files waiting for the request
 * they go with, the threads it started a moment ago): each entry expires `ttlMs` after it was set,
 * an expired entry is never returned, and expired entries are dropped as new ones are set. Not
 * shared between processes; nothing survives a restart. Platform-neutral.
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  /** @param ttlMs how long an entry is kept after it was set, in ms */
  constructor(private readonly ttlMs: number) {}

  /** The value of `key`; undefined when it has none, or its entry expired. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > Date.now() ? entry.value : undefined;
  }

  /** Sets `key` to `value` for `ttlMs` from now (the expired entries are dropped). */
  set(key: K, value: V): void {
    const now = Date.now();
    for (const [k, entry] of this.entries) if (entry.until <= now) this.entries.delete(k);
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  /** The value of `key` as {@link get} returns it; the entry is kept no longer. */
  take(key: K): V | undefined {
    const value = this.get(key);
    this.entries.delete(key);
    return value;
  }
}
