/**
 * Opens the backend named by `store.url`: the Keyv storage adapter (plain reads and writes) and
 * the {@link AtomicOps} of the same backend (set-if-absent, append), on the adapter's own client
 * (redis) or the backend's driver (sqlite3, pg).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { KeyvStoreAdapter } from 'keyv';
import type { AtomicOps } from './atomic.js';
import { RedisAtomics, type RedisLike } from './atomic-redis.js';
import { HistoryError } from './types.js';

/** A store URL's scheme, normalised. */
export type StoreKind = 'sqlite' | 'redis' | 'postgres';

/**
 * @returns the kind of backend a store URL names.
 * @throws {HistoryError} for an unknown scheme.
 */
export function storeKind(url: string): StoreKind {
  const scheme = url.split(':', 1)[0]?.toLowerCase();
  if (scheme === 'sqlite') return 'sqlite';
  if (scheme === 'redis' || scheme === 'rediss') return 'redis';
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  throw new HistoryError(
    `store.url "${url}" has an unknown scheme: use sqlite://FILE, redis://HOST:PORT or postgresql://USER@HOST/DB`,
  );
}

/** What {@link openBackend} returns. */
export interface Backend {
  adapter: KeyvStoreAdapter;
  atomics: AtomicOps;
}

/**
 * Creates the Keyv adapter and the atomic operations for a store URL. A sqlite file's folder is created.
 * @param url `sqlite://relative/or/absolute.sqlite`, `redis://…`, `rediss://…`, `postgres://…` or `postgresql://…`
 * @throws {HistoryError} for an unknown scheme; the driver's error when sqlite or postgres cannot be opened.
 */
export async function openBackend(url: string): Promise<Backend> {
  switch (storeKind(url)) {
    case 'sqlite': {
      const file = resolve(url.slice('sqlite://'.length));
      mkdirSync(dirname(file), { recursive: true });
      // the driver first: it reports a file that is not a database before Keyv's adapter opens it
      const { SqliteAtomics } = await import('./atomic-sqlite.js');
      const atomics = await SqliteAtomics.open(file);
      const { default: KeyvSqlite } = await import('@keyv/sqlite');
      const adapter = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 5000 }) as unknown as KeyvStoreAdapter;
      return { adapter, atomics };
    }
    case 'redis': {
      const { default: KeyvRedis } = await import('@keyv/redis');
      const redis = new KeyvRedis(url);
      const atomics = new RedisAtomics(async () => (await redis.getClient()) as unknown as RedisLike);
      return { adapter: redis as unknown as KeyvStoreAdapter, atomics };
    }
    case 'postgres': {
      const { default: KeyvPostgres } = await import('@keyv/postgres');
      const { PostgresAtomics } = await import('./atomic-postgres.js');
      const atomics = await PostgresAtomics.open(url);
      return { adapter: new KeyvPostgres({ uri: url }) as unknown as KeyvStoreAdapter, atomics };
    }
  }
}
