/**
 * `HistoryStore` on Keyv: sqlite (default, embedded), redis or postgres chosen by `store.url`.
 * Plain reads and writes go through Keyv; the read-modify-writes (the run index, event dedupe)
 * through the backend's {@link AtomicOps}, so processes sharing one store never lose an index
 * entry nor run a retried event twice.
 *
 * Layout: Keyv namespace `code-agent` holds
 * - `run:<conversationId>:<runId>` → the Run
 * - `thread:<conversationId>:<threadKey>` → run id
 * and the atomic operations keep the run index of each conversation and the event ids (with a TTL)
 * in the backend's own keys or tables (see `atomic-*.ts`). An index from before (the Keyv key
 * `runs:<conversationId>`) is moved there the first time the conversation is listed.
 */
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { HistoryError, type HistoryStore, type Run } from './types.js';
import { MemoryAtomics, type AtomicOps } from './atomic.js';
import { openBackend } from './backends.js';

/** Most run ids kept in a conversation's index; older runs stay readable by id. */
export const MAX_INDEXED_RUNS = 1000;

/** Runs remembered as indexed by this process (then forgotten all at once; appending again is harmless). */
const MAX_REMEMBERED_INDEXED = 10_000;

/** A HistoryStore kept in any Keyv storage adapter. */
export class KeyvHistoryStore implements HistoryStore {
  private readonly keyv: Keyv;
  /** `<conversationId>\n<runId>` of runs this process indexed (a run is saved on every step; one append is enough). */
  private readonly indexed = new Set<string>();
  /** Conversations whose index from an earlier version was looked for in this process. */
  private readonly legacyChecked = new Set<string>();

  /**
   * @param store a Keyv storage adapter (see {@link openBackend}); a Map works for tests.
   * @param label how the store is named in error messages (e.g. its URL without credentials).
   * @param atomics the backend's atomic operations; default in-process ones (right for a Map only).
   */
  constructor(
    store: KeyvStoreAdapter | Map<string, unknown>,
    private readonly label = 'history store',
    private readonly atomics: AtomicOps = new MemoryAtomics(),
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
    const opening = new KeyvHistoryStore(new Map(), label);
    const { adapter, atomics } = await opening.call('open', () => openBackend(url));
    const store = new KeyvHistoryStore(adapter, label, atomics);
    try {
      await store.call('open', () => store.keyv.get('health'));
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  async saveRun(run: Run): Promise<void> {
    await this.call('save a run', () => this.keyv.set(runKey(run.conversationId, run.id), run));
    const key = `${run.conversationId}\n${run.id}`;
    if (this.indexed.has(key)) return;
    await this.moveLegacyIndex(run.conversationId);
    await this.call('index a run', () => this.atomics.append(run.conversationId, run.id, MAX_INDEXED_RUNS));
    if (this.indexed.size >= MAX_REMEMBERED_INDEXED) this.indexed.clear();
    this.indexed.add(key);
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
    await this.moveLegacyIndex(conversationId);
    const ids = (await this.call('read the run index', () => this.atomics.recent(conversationId, limit))).reverse();
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
    return this.call('record an event', () => this.atomics.claim(`event:${eventId}`, ttlMs));
  }

  async close(): Promise<void> {
    await this.atomics.close().catch(() => undefined);
    await this.keyv.disconnect().catch(() => undefined);
  }

  /** Moves an index kept by an earlier version (Keyv key `runs:<conversationId>`, oldest first) to the atomic index. */
  private async moveLegacyIndex(conversationId: string): Promise<void> {
    if (this.legacyChecked.has(conversationId)) return;
    const key = `runs:${conversationId}`;
    const ids = await this.call('read the run index', () => this.keyv.get<unknown>(key));
    if (ids === undefined) {
      this.legacyChecked.add(conversationId);
      return;
    }
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
      throw new HistoryError(`${this.label}: the run index of ${conversationId} is corrupt; it was left untouched`);
    }
    for (const id of ids) await this.call('index a run', () => this.atomics.append(conversationId, id, MAX_INDEXED_RUNS));
    await this.call('move the run index', () => this.keyv.delete(key));
    this.legacyChecked.add(conversationId);
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HistoryError) throw err;
      throw new HistoryError(`${this.label}: cannot ${what}: ${(err as Error).message}`, { cause: err });
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
