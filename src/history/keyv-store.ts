/**
 * `HistoryStore` on Keyv: sqlite (default, embedded), redis or postgres chosen by `store.url`.
 * Plain reads and writes go through Keyv; the read-modify-writes (the run index, event dedupe)
 * through the backend's {@link AtomicOps}, so processes sharing one store never lose an index
 * entry nor run a retried event twice.
 *
 * Layout: Keyv namespace `code-agent` holds
 * - `run:<conversationId>:<runId>` → the Run
 * - `thread:<conversationId>:<threadKey>` → run id
 * - a run's workspace: its manifest and contents (see `workspace-keyv.ts`)
 * and the atomic operations keep the run index of each conversation and the event ids (with a TTL)
 * in the backend's own keys or tables (see `atomic-*.ts`). An index from before (the Keyv key
 * `runs:<conversationId>`) is moved there the first time the conversation is listed (`run-index.ts`).
 *
 * Faults: every operation has a deadline ({@link STORE_TIMEOUT_MS}) and fails with a
 * {@link HistoryError} naming the store and the operation (`store-call.ts`). A corrupt run record is skipped when a
 * conversation is listed (the other runs are still shown) and reported in the log; a corrupt or
 * unusable run index is reported in the log and never fails a run: the run is saved and can be read
 * by its id and thread.
 */
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { HistoryError, type HistoryStore, type Run } from './types.js';
import { MemoryAtomics, type AtomicOps } from './atomic.js';
import { migrateStore, type MigrateOptions, type MigrateResult } from './format-version.js';
import { openBackend, STORE_TIMEOUT_MS } from './backends.js';
import { KeyvWorkspaces } from './workspace-keyv.js';
import { RunIndex } from './run-index.js';
import { callWithin } from './store-call.js';
import type { UsageLedger } from './usage.js';
import { withDeadlines, type MemoryBackend } from './memory.js';
import { schedulesWithDeadlines, type ScheduleBackend } from './schedules.js';
import type { ProgramBackend } from './programs.js';
import { KeyvPrograms } from './programs-keyv.js';
import { readForgotten, recordForgotten, type ForgottenEntry } from './workspace-forgotten.js';
import { DEFAULT_WORKSPACE_LIMITS, type NewWorkspaceFile, type WorkspaceContent, type WorkspaceLimits, type WorkspaceManifest, type WorkspacePut } from './workspace.js';

/** The store could not be opened or read when the process started (a config or service problem). */
export class HistoryStartupError extends HistoryError {
  override name = 'HistoryStartupError';
}

/** A run record that cannot be read as a run (bad JSON, another shape). */
export class CorruptRecordError extends HistoryError {
  override name = 'CorruptRecordError';
}

/** A HistoryStore kept in any Keyv storage adapter. */
export class KeyvHistoryStore implements HistoryStore {
  private readonly keyv: Keyv;
  private readonly workspaces: KeyvWorkspaces;
  /** One operation's deadline, in ms (the backend's, once open). */
  private timeoutMs = STORE_TIMEOUT_MS;
  /** The run index of each conversation (`run-index.ts`). */
  private readonly index: RunIndex;

  /** Told of each failed operation (its name, e.g. `save a run`): the metrics count them. */
  private failureListener: ((operation: string) => void) | undefined;

  /** The usage ledger on the store's backend, each operation within the store's deadline. */
  readonly usage: UsageLedger;

  /** The channel memory on the store's backend, each operation within the store's deadline. */
  readonly memory: MemoryBackend;

  /** The schedules on the store's backend, each operation within the store's deadline. */
  readonly schedules: ScheduleBackend;
  /** The team programs on the store's backend (`programs-keyv.ts`), each operation within the store's deadline. */
  readonly programs: ProgramBackend;

  /**
   * @param store a Keyv storage adapter (see {@link openBackend}); a Map works for tests.
   * @param label how the store is named in error messages (e.g. its URL without credentials).
   * @param atomics the backend's atomic operations; default in-process ones (right for a Map only).
   * @param log receives one line per corrupt record or unusable index found. Default: stderr.
   */
  constructor(
    store: KeyvStoreAdapter | Map<string, unknown>,
    private readonly label = 'history store',
    private readonly atomics: AtomicOps = new MemoryAtomics(),
    private readonly log: (message: string) => void = (m) => process.stderr.write(`warning: ${m}\n`),
  ) {
    if (store instanceof Map && atomics instanceof MemoryAtomics) atomics.source = store;
    this.keyv = new Keyv({ store, namespace: 'code-agent', throwOnErrors: true });
    this.keyv.on('error', () => {
      /* errors are thrown to the caller (throwOnErrors); this keeps them from being unhandled */
    });
    this.index = new RunIndex(this.keyv, atomics, (what, fn) => this.call(what, fn), label, this.log);
    this.workspaces = new KeyvWorkspaces(
      this.keyv,
      (what, fn) => this.call(what, fn),
      (hashes, run) => this.call('log forgotten workspace files', () => recordForgotten(this.atomics, hashes, run)),
    );
    const ledger = atomics.usage();
    this.usage = {
      add: (key, counts) => this.call('record usage', () => ledger.add(key, counts)),
      totals: (key) => this.call('read usage', () => ledger.totals(key)),
      rows: (from, to) => this.call('read usage', () => ledger.rows(from, to)),
      reserve: (request) => this.call('reserve tokens', () => ledger.reserve(request)),
      renew: (id, key, ttlMs) => this.call('reserve tokens', () => ledger.renew(id, key, ttlMs)),
      settle: (id, key, counts) => this.call('record usage', () => ledger.settle(id, key, counts)),
    };
    this.memory = withDeadlines(atomics.memory(), (what, fn, passRefusals) => this.call(what, fn, passRefusals));
    this.schedules = schedulesWithDeadlines(atomics.schedules(), (what, fn, passRefusals) => this.call(what, fn, passRefusals));
    this.programs = new KeyvPrograms(this.keyv, atomics, (what, fn, passRefusals) => this.call(what, fn, passRefusals));
  }

  /**
   * Opens the store named by a URL and checks that it can be read, within {@link STORE_TIMEOUT_MS}.
   * @param log see the constructor
   * @throws {HistoryStartupError} naming the store when it cannot be opened or read in time.
   */
  static async open(url: string, log?: (message: string) => void): Promise<KeyvHistoryStore> {
    const label = `the history store ${url.replace(/\/\/[^@/]*@/, '//***@')}`;
    const opening = new KeyvHistoryStore(new Map(), label);
    let store: KeyvHistoryStore | undefined;
    try {
      const { adapter, atomics, timeoutMs } = await opening.call('open', () => openBackend(url));
      store = new KeyvHistoryStore(adapter, label, atomics, log);
      store.timeoutMs = timeoutMs;
      await store.call('open', () => store!.keyv.get('health'));
      await store.upgrade();
      return store;
    } catch (err) {
      await store?.close();
      throw new HistoryStartupError((err as Error).message, { cause: err });
    }
  }

  /**
   * Brings the store to this release's format version (`format-version.ts`); `open` does it.
   * @throws {StoreVersionError} for a store newer than this release; {@link HistoryError} when the store fails
   */
  upgrade(options: Partial<MigrateOptions> = {}): Promise<MigrateResult> {
    return migrateStore(this.keyv, this.atomics, { label: this.label, log: (m) => process.stderr.write(`code-agent: ${m}\n`), ...options });
  }

  /** The recorded format version; undefined when none is (a store not yet opened by a release with versions). */
  formatVersion(): Promise<number | undefined> {
    return this.call('read the format version', () => this.atomics.formatVersion());
  }

  /**
   * The store's parts for its own tools (export, import, retention: `src/history/transfer/`),
   * every operation to go through `call` (the deadline, errors naming the store).
   */
  /**
   * The newest `limit` entries of the log of forgotten workspace contents, oldest first (what each
   * machine's workspace cache drops: `workspace-forgotten.ts`).
   * @throws {HistoryError} when the store cannot be read
   */
  forgottenWorkspaceContents(limit?: number): Promise<ForgottenEntry[]> {
    return this.call('read the log of forgotten workspace files', () => readForgotten(this.atomics, limit));
  }

  internals(): { keyv: Keyv; atomics: AtomicOps; workspaces: KeyvWorkspaces; call: <T>(what: string, fn: () => Promise<T>) => Promise<T> } {
    return { keyv: this.keyv, atomics: this.atomics, workspaces: this.workspaces, call: (what, fn) => this.call(what, fn) };
  }

  async saveRun(run: Run): Promise<void> {
    await this.call('save a run', () => this.keyv.set(runKey(run.conversationId, run.id), run));
    await this.index.add(run.conversationId, run.id);
  }

  /** @throws {CorruptRecordError} when the record is not a run; {@link HistoryError} when the store fails. */
  async getRun(conversationId: string, runId: string): Promise<Run | undefined> {
    const corrupt = () =>
      new CorruptRecordError(`${this.label}: the record of run ${runId} in ${conversationId} is corrupt; it was left untouched`);
    let value: unknown;
    try {
      value = await this.call('read a run', () => this.keyv.get<Run>(runKey(conversationId, runId)));
    } catch (err) {
      if (err instanceof HistoryError && err.cause instanceof SyntaxError) throw corrupt(); // not JSON
      throw err;
    }
    if (value === undefined) return undefined;
    if (!isRun(value)) throw corrupt();
    return value;
  }

  /** The newest runs; a corrupt record is skipped and reported in the log, a corrupt legacy index too. */
  async listRuns(conversationId: string, limit = 20): Promise<Run[]> {
    const ids = (await this.index.recent(conversationId, limit)).reverse();
    const runs = await Promise.all(
      ids.map((id) =>
        this.getRun(conversationId, id).catch((err: unknown) => {
          if (!(err instanceof CorruptRecordError)) throw err;
          this.log(`${err.message} (skipped in the list of ${conversationId})`);
          return undefined;
        }),
      ),
    );
    return runs.filter((r): r is Run => r !== undefined);
  }

  async linkThread(conversationId: string, threadKey: string, runId: string): Promise<void> {
    await this.call('link a thread', () => this.keyv.set(`thread:${conversationId}:${threadKey}`, runId));
  }

  async findRunByThread(conversationId: string, threadKey: string): Promise<Run | undefined> {
    const runId = await this.threadRunId(conversationId, threadKey);
    return runId !== undefined ? this.getRun(conversationId, runId) : undefined;
  }

  async threadRunId(conversationId: string, threadKey: string): Promise<string | undefined> {
    const runId = await this.call('find a thread', () => this.keyv.get<string>(`thread:${conversationId}:${threadKey}`));
    return typeof runId === 'string' ? runId : undefined;
  }

  async markEventSeen(eventId: string, ttlMs: number): Promise<boolean> {
    return this.call('record an event', () => this.atomics.claim(`event:${eventId}`, ttlMs));
  }

  async deleteRun(conversationId: string, runId: string): Promise<boolean> {
    const found = (await this.getRun(conversationId, runId).catch(() => 'corrupt' as const)) !== undefined;
    // the files first: a run that is gone never leaves its files behind
    await this.workspaces.drop(conversationId, runId, true);
    await this.call('delete a run', () => this.keyv.delete(runKey(conversationId, runId)));
    return found;
  }

  getWorkspace(conversationId: string, runId: string): Promise<WorkspaceManifest> {
    return this.workspaces.manifest(conversationId, runId);
  }

  putWorkspaceFiles(conversationId: string, runId: string, files: NewWorkspaceFile[], limits: WorkspaceLimits = DEFAULT_WORKSPACE_LIMITS): Promise<WorkspacePut> {
    return this.workspaces.put(conversationId, runId, files, limits);
  }

  async readWorkspace(conversationId: string, runId: string, manifest?: WorkspaceManifest): Promise<WorkspaceContent[]> {
    const files = manifest ?? (await this.workspaces.manifest(conversationId, runId));
    try {
      return await this.workspaces.read(conversationId, runId, files);
    } catch (err) {
      if (err instanceof HistoryError) throw err;
      throw new HistoryError(`${this.label}: ${(err as Error).message}`, { cause: err });
    }
  }

  removeWorkspaceFile(conversationId: string, runId: string, name: string): Promise<boolean> {
    return this.workspaces.remove(conversationId, runId, name);
  }

  /**
   * Sets who is told of each failed operation, by its name (a fixed phrase such as `save a run` or
   * `read the run index`, never a key or a value). Replaces the previous listener.
   */
  onFailure(listener: (operation: string) => void): void {
    this.failureListener = listener;
  }

  /** Reads one key within the deadline. @throws {HistoryError} naming the store when it cannot. */
  async ping(): Promise<void> {
    await this.call('answer a health check', () => this.keyv.get('health'));
  }

  takeTurn(runId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.call('take a run\'s turn', () => this.atomics.lease(`turn:${runId}`, owner, ttlMs));
  }

  releaseTurn(runId: string, owner: string): Promise<void> {
    return this.call('end a run\'s turn', () => this.atomics.release(`turn:${runId}`, owner));
  }

  /** Closes the connections, waiting at most {@link STORE_TIMEOUT_MS} (a store that is gone never answers). */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closing = (async () => {
      await this.atomics.close().catch(() => undefined);
      await this.keyv.disconnect().catch(() => undefined);
    })();
    await Promise.race([closing, new Promise<void>((r) => (timer = setTimeout(r, this.timeoutMs).unref()))]);
    clearTimeout(timer);
  }

  /** Runs one store operation within the backend's deadline ({@link STORE_TIMEOUT_MS}, longer for SQLite); every failure becomes a {@link HistoryError} naming the store. */
  private call<T>(what: string, fn: () => Promise<T>, passRefusals = false): Promise<T> {
    return callWithin({ label: this.label, timeoutMs: this.timeoutMs, onFailure: this.failureListener }, what, fn, passRefusals);
  }
}

function runKey(conversationId: string, runId: string): string {
  return `run:${conversationId}:${runId}`;
}

function isRun(value: unknown): value is Run {
  const r = value as Run;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && Array.isArray(r.attempts);
}
