/**
 * `HistoryStore` on Keyv: sqlite (default, embedded), redis or postgres chosen by `store.url`.
 *
 * Layout (all under the Keyv namespace `code-agent`):
 * - `run:<conversationId>:<runId>` → the Run
 * - `runs:<conversationId>` → run ids of the conversation, oldest first
 * - `thread:<conversationId>:<threadKey>` → run id
 * - `event:<eventId>` → 1, with a TTL (deduplication of platform retries)
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { HistoryError, type HistoryStore, type Run } from './types.js';

/** Most run ids kept in a conversation's index; older runs stay readable by id. */
export const MAX_INDEXED_RUNS = 1000;

/**
 * Creates the Keyv storage adapter for a store URL.
 * @param url `sqlite://relative/or/absolute.sqlite`, `redis://…`, `rediss://…`, `postgres://…` or `postgresql://…`
 * @throws {HistoryError} for an unknown scheme.
 */
export async function createStoreAdapter(url: string): Promise<KeyvStoreAdapter> {
  const scheme = url.split(':', 1)[0]?.toLowerCase();
  switch (scheme) {
    case 'sqlite': {
      const file = resolve(url.slice('sqlite://'.length));
      mkdirSync(dirname(file), { recursive: true });
      const { default: KeyvSqlite } = await import('@keyv/sqlite');
      return new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 5000 }) as unknown as KeyvStoreAdapter;
    }
    case 'redis':
    case 'rediss': {
      const { default: KeyvRedis } = await import('@keyv/redis');
      return new KeyvRedis(url) as unknown as KeyvStoreAdapter;
    }
    case 'postgres':
    case 'postgresql': {
      const { default: KeyvPostgres } = await import('@keyv/postgres');
      return new KeyvPostgres({ uri: url }) as unknown as KeyvStoreAdapter;
    }
    default:
      throw new HistoryError(
        `store.url "${url}" has an unknown scheme: use sqlite://FILE, redis://HOST:PORT or postgresql://USER@HOST/DB`,
      );
  }
}

/** A HistoryStore kept in any Keyv storage adapter. */
export class KeyvHistoryStore implements HistoryStore {
  private readonly keyv: Keyv;
  /** Serialises read-modify-write of index keys inside this process. */
  private readonly locks = new Map<string, Promise<unknown>>();

  /**
   * @param store a Keyv storage adapter (see {@link createStoreAdapter}); a Map works for tests.
   * @param label how the store is named in error messages (e.g. its URL without credentials).
   */
  constructor(
    store: KeyvStoreAdapter | Map<string, unknown>,
    private readonly label = 'history store',
  ) {
    this.keyv = new Keyv({ store, namespace: 'code-agent', throwOnErrors: true });
    this.keyv.on('error', () => {
      /* errors are thrown to the caller (throwOnErrors); this keeps them from being unhandled */
    });
  }

  /**
   * Opens the store named by a URL and checks that it can be read.
   * @throws {HistoryError} when the store cannot be opened or read.
   */
  static async open(url: string): Promise<KeyvHistoryStore> {
    const label = url.replace(/\/\/[^@/]*@/, '//***@');
    const store = new KeyvHistoryStore(await createStoreAdapter(url), label);
    await store.call('open', () => store.keyv.get('health'));
    return store;
  }

  async saveRun(run: Run): Promise<void> {
    await this.call('save a run', () => this.keyv.set(runKey(run.conversationId, run.id), run));
    await this.withLock(`runs:${run.conversationId}`, async () => {
      const ids = await this.readIndex(run.conversationId);
      if (!ids.includes(run.id)) {
        ids.push(run.id);
        await this.call('index a run', () =>
          this.keyv.set(`runs:${run.conversationId}`, ids.slice(-MAX_INDEXED_RUNS)),
        );
      }
    });
  }

  async getRun(conversationId: string, runId: string): Promise<Run | undefined> {
    const value = await this.call('read a run', () => this.keyv.get<Run>(runKey(conversationId, runId)));
    if (value === undefined) return undefined;
    if (!isRun(value)) {
      throw new HistoryError(
        `${this.label}: the record of run ${runId} in ${conversationId} is corrupt; it was left untouched`,
      );
    }
    return value;
  }

  async listRuns(conversationId: string, limit = 20): Promise<Run[]> {
    const ids = (await this.readIndex(conversationId)).slice(-limit).reverse();
    const runs = await Promise.all(ids.map((id) => this.getRun(conversationId, id)));
    return runs.filter((r): r is Run => r !== undefined);
  }

  async linkThread(conversationId: string, threadKey: string, runId: string): Promise<void> {
    await this.call('link a thread', () => this.keyv.set(`thread:${conversationId}:${threadKey}`, runId));
  }

  async findRunByThread(conversationId: string, threadKey: string): Promise<Run | undefined> {
    const runId = await this.call('find a thread', () =>
      this.keyv.get<string>(`thread:${conversationId}:${threadKey}`),
    );
    return typeof runId === 'string' ? this.getRun(conversationId, runId) : undefined;
  }

  async markEventSeen(eventId: string, ttlMs: number): Promise<boolean> {
    return this.withLock(`event:${eventId}`, async () => {
      const key = `event:${eventId}`;
      if ((await this.call('check an event', () => this.keyv.get(key))) !== undefined) return false;
      await this.call('record an event', () => this.keyv.set(key, 1, ttlMs));
      return true;
    });
  }

  async close(): Promise<void> {
    await this.keyv.disconnect().catch(() => undefined);
  }

  private async readIndex(conversationId: string): Promise<string[]> {
    const ids = await this.call('read the run index', () => this.keyv.get<string[]>(`runs:${conversationId}`));
    if (ids === undefined) return [];
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
      throw new HistoryError(
        `${this.label}: the run index of ${conversationId} is corrupt; it was left untouched`,
      );
    }
    return ids;
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HistoryError) throw err;
      throw new HistoryError(`${this.label}: cannot ${what}: ${(err as Error).message}`, { cause: err });
    }
  }

  private async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    this.locks.set(key, next);
    try {
      return await next;
    } finally {
      if (this.locks.get(key) === next) this.locks.delete(key);
    }
  }
}

function runKey(conversationId: string, runId: string): string {
  return `run:${conversationId}:${runId}`;
}

function isRun(value: unknown): value is Run {
  const r = value as Run;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && Array.isArray(r.attempts);
}
