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

/**
 * The longest one store operation may take, in ms (a store that does not answer fails the
 * operation with an error naming the store; SQLite waits for another process's lock less than this).
 */
export const STORE_TIMEOUT_MS = 10_000;

/** Connection attempts to Redis per operation before it fails (about 2 s of backoff in all). */
const REDIS_CONNECT_TRIES = 5;

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
  /** The deadline of one operation, in ms: {@link STORE_TIMEOUT_MS}, longer for SQLite (it waits for other processes' locks). */
  timeoutMs: number;
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
      const { SQLITE_BUSY_TIMEOUT_MS } = await import('./atomic-sqlite.js');
      const adapter = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: SQLITE_BUSY_TIMEOUT_MS }) as unknown as KeyvStoreAdapter;
      return { adapter, atomics, timeoutMs: SQLITE_BUSY_TIMEOUT_MS + STORE_TIMEOUT_MS };
    }
    case 'redis': {
      const { default: KeyvRedis, createClient } = await import('@keyv/redis');
      // A server that is down fails an operation within seconds instead of queueing it while the
      // client reconnects forever: a few tries with backoff, then the error; no offline queue.
      const client = createClient({
        url,
        disableOfflineQueue: true,
        socket: {
          connectTimeout: STORE_TIMEOUT_MS,
          reconnectStrategy: (tries: number, cause: Error) => (tries >= REDIS_CONNECT_TRIES ? cause : Math.min(100 * 2 ** tries, 1000)),
        },
      });
      client.on('error', () => {
        /* each failed operation reports its own error */
      });
      // connected here, so that a server that is not there is reported with its reason (ECONNREFUSED…)
      await connectWithin(client, STORE_TIMEOUT_MS);
      const redis = new KeyvRedis(client, { throwOnConnectError: true, throwOnErrors: true, connectionTimeout: STORE_TIMEOUT_MS });
      const atomics = new RedisAtomics(
        async () => (await redis.getClient()) as unknown as RedisLike,
        async () => {
          if (client.isOpen) client.destroy();
        },
      );
      return { adapter: redis as unknown as KeyvStoreAdapter, atomics, timeoutMs: STORE_TIMEOUT_MS };
    }
    case 'postgres': {
      const { ListenedKeyvPostgres } = await import('./keyv-postgres.js');
      const { PostgresAtomics } = await import('./atomic-postgres.js');
      const atomics = await PostgresAtomics.open(url);
      return { adapter: new ListenedKeyvPostgres({ uri: url }) as unknown as KeyvStoreAdapter, atomics, timeoutMs: STORE_TIMEOUT_MS };
    }
  }
}

/** Connects a node-redis client, or destroys it and throws when it fails or takes longer than `ms`. */
async function connectWithin(client: { connect(): Promise<unknown>; destroy(): void; isOpen: boolean }, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
      }),
    ]);
  } catch (err) {
    if (client.isOpen) client.destroy();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
