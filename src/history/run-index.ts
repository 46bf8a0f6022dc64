/**
 * The run index of each conversation, on a Keyv store and its backend's atomic operations: a run
 * is appended once per process (it is saved on every step), an index from an earlier version (the
 * Keyv key `runs:<conversationId>`) is moved the first time the conversation is read, and an
 * unusable index is reported once in the log and never fails a run.
 */
import type Keyv from 'keyv';
import { HistoryError } from './types.js';
import type { AtomicOps } from './atomic.js';

/** Most run ids kept in a conversation's index; older runs stay readable by id. */
export const MAX_INDEXED_RUNS = 1000;

/** Runs remembered as indexed by this process (then forgotten all at once; appending again is harmless). */
const MAX_REMEMBERED_INDEXED = 10_000;

/** One store operation within the store's deadline, a failure a {@link HistoryError} naming the store. */
type StoreCall = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/** The run indexes of a `KeyvHistoryStore` (`keyv-store.ts`). */
export class RunIndex {
  /** `<conversationId>\n<runId>` of runs this process indexed (a run is saved on every step; one append is enough). */
  private readonly indexed = new Set<string>();
  /** Conversations whose index from an earlier version was looked for in this process. */
  private readonly legacyChecked = new Set<string>();
  /** Conversations whose unusable index was already reported. */
  private readonly badIndexReported = new Set<string>();

  /**
   * @param call runs one operation within the store's deadline
   * @param label how the store is named in messages
   * @param log receives one line per unusable index
   */
  constructor(
    private readonly keyv: Keyv,
    private readonly atomics: AtomicOps,
    private readonly call: StoreCall,
    private readonly label: string,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Appends a saved run to its conversation's index (once per process). An index that cannot take
   * it is reported, not thrown: the run itself is saved.
   * @throws {HistoryError} when the index from an earlier version cannot be read
   */
  async add(conversationId: string, runId: string): Promise<void> {
    const key = `${conversationId}\n${runId}`;
    if (this.indexed.has(key)) return;
    await this.moveLegacy(conversationId);
    try {
      await this.call('index a run', () => this.atomics.append(conversationId, runId, MAX_INDEXED_RUNS));
    } catch (err) {
      // the run itself is saved: an index that cannot take it must not fail every run
      this.report(conversationId, err, `run ${runId} was saved but is not listed`);
      return;
    }
    if (this.indexed.size >= MAX_REMEMBERED_INDEXED) this.indexed.clear();
    this.indexed.add(key);
  }

  /**
   * The ids of the conversation's newest runs, oldest first, at most `limit`.
   * @throws {HistoryError} when the store fails
   */
  async recent(conversationId: string, limit: number): Promise<string[]> {
    await this.moveLegacy(conversationId);
    return this.call('read the run index', () => this.atomics.recent(conversationId, limit));
  }

  /**
   * Moves an index kept by an earlier version (Keyv key `runs:<conversationId>`, oldest first) to
   * the atomic index. A corrupt one is reported once and left in place; it fails nothing.
   */
  private async moveLegacy(conversationId: string): Promise<void> {
    if (this.legacyChecked.has(conversationId)) return;
    const key = `runs:${conversationId}`;
    const ids = await this.call('read the run index', () => this.keyv.get<unknown>(key));
    if (ids === undefined) {
      this.legacyChecked.add(conversationId);
      return;
    }
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
      this.legacyChecked.add(conversationId);
      const err = new HistoryError(`${this.label}: the run index of ${conversationId} is corrupt; it was left untouched`);
      this.report(conversationId, err, 'runs saved before it are not listed');
      return;
    }
    for (const id of ids) await this.call('index a run', () => this.atomics.append(conversationId, id, MAX_INDEXED_RUNS));
    await this.call('move the run index', () => this.keyv.delete(key));
    this.legacyChecked.add(conversationId);
  }

  /**
   * Reports once per conversation that its index is unusable: `<the error's message>; <consequence>`
   * in the log.
   */
  report(conversationId: string, err: unknown, consequence: string): void {
    if (this.badIndexReported.has(conversationId)) return;
    this.badIndexReported.add(conversationId);
    this.log(`${(err as Error).message}; ${consequence}`);
  }
}
