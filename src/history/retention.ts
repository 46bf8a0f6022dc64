/**
 * Retention: forgetting runs and files by age (`retention.runs_days`, `retention.files_days`), and
 * one thread's run on request (`code-agent store forget`). Channel memory, team programs and the
 * usage ledger are not touched: they are kept until forgotten (the ledger drops days past 400 by itself).
 *
 * A sweep walks the store's run keys from a cursor and reads at most `maxRunsPerSweep` run records,
 * so one sweep's work is bounded whatever the store's size; the next sweep goes on from there, and
 * a walk that reached the end starts again with a fresh list. A run's age is its last change
 * (`updatedAt`): a run improved yesterday is not old. Run ids start with their creation time, so a
 * run created after the cutoff is passed without reading it.
 *
 * In a process that serves chat, {@link startRetention} sweeps at start and then every
 * `sweep_every_min` minutes; processes sharing one store take turns through the store's lease
 * `retention-sweep`, so a cluster sweeps once per period, not once per process.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { KeyvHistoryStore } from './keyv-store.js';
import { safeSegment } from './ids.js';

/** How long runs and their files are kept, in days; undefined keeps them (the default). */
export interface RetentionPolicy {
  /** Runs (records, workspaces, outputs) unchanged for longer are deleted. */
  runsDays?: number;
  /** Workspaces and outputs of runs unchanged for longer are deleted; the run records stay. */
  filesDays?: number;
}

/** What one sweep did. */
export interface SweepResult {
  /** Run records read. */
  read: number;
  /** Runs deleted, as `<conversationId> <runId>`. */
  deleted: string[];
  /** Runs whose workspace and outputs were deleted (their records stay). */
  emptied: string[];
  /** The walk reached the last run (the next sweep starts again from the first). */
  finished: boolean;
}

/** What {@link forgetRun} deleted. */
export interface Forgotten {
  /** The run record was there. */
  run: boolean;
  /** Files of its workspace that were deleted. */
  files: number;
  /** Thread links removed (given, or found in the conversation). */
  threads: string[];
}

/**
 * Deletes one run: its workspace files, its record, its outputs under `artifactRoot`
 * (`<conversation>/<runId>/`) and the thread links to it in its conversation. Its entry in the
 * conversation's index stays (a listed id whose run is gone is skipped).
 * @param links the conversation's thread links (thread key → run id), when the caller read them
 *   already (a sweep reads them once per conversation); default: read here
 * @throws the store's {@link HistoryError} when a deletion fails (what was deleted before stays deleted; run it again)
 */
export async function forgetRun(store: KeyvHistoryStore, conversationId: string, runId: string, artifactRoot?: string, links?: Map<string, string>): Promise<Forgotten> {
  const { keyv, call } = store.internals();
  const files = (await store.getWorkspace(conversationId, runId)).files.length;
  const run = await store.deleteRun(conversationId, runId);
  if (artifactRoot) await rm(join(artifactRoot, safeSegment(conversationId), runId), { recursive: true, force: true });
  const threads: string[] = [];
  for (const [threadKey, linked] of links ?? (await threadLinks(store, conversationId))) {
    if (linked !== runId) continue;
    const key = `thread:${conversationId}:${threadKey}`;
    // links read earlier: one relinked to another run since is left alone
    if (links && (await call('find a thread', () => keyv.get<string>(key))) !== runId) continue;
    await call('delete a thread link', () => keyv.delete(key));
    links?.delete(threadKey);
    threads.push(threadKey);
  }
  return { run, files, threads };
}

/**
 * A conversation's thread links: thread key → run id (read 100 at a time).
 * @throws the store's {@link HistoryError} when a read fails
 */
export async function threadLinks(store: KeyvHistoryStore, conversationId: string): Promise<Map<string, string>> {
  const { atomics, keyv, call } = store.internals();
  const prefix = `thread:${conversationId}:`;
  const keys = await call('list the threads', () => atomics.keys(prefix));
  const links = new Map<string, string>();
  for (let i = 0; i < keys.length; i += 100) {
    const part = keys.slice(i, i + 100);
    const values = await call('find a thread', () => Promise.all(part.map((k) => keyv.get<string>(k))));
    part.forEach((k, j) => {
      if (typeof values[j] === 'string') links.set(k.slice(prefix.length), values[j]!);
    });
  }
  return links;
}

/** Options of {@link RetentionSweeper}. */
export interface SweeperOptions {
  /** The host folder of outputs (`<artifactRoot>/<conversation>/<runId>/`); none: only the store. */
  artifactRoot?: string;
  /** Most run records read per sweep. Default 500. */
  maxRunsPerSweep?: number;
  /** Told of each deletion, one line. */
  log?: (message: string) => void;
  /** Told of each deletion by kind (the metrics count them). */
  counted?: (what: 'run' | 'files') => void;
  now?: () => number;
}

/** Sweeps a store by a {@link RetentionPolicy}, a bounded piece at a time (see the module comment). */
export class RetentionSweeper {
  private keys: string[] = [];
  private cursor = 0;
  /** Each conversation's thread links, read once per walk of the store (not once per deleted run). */
  private links = new Map<string, Map<string, string>>();

  constructor(
    private readonly store: KeyvHistoryStore,
    private readonly policy: RetentionPolicy,
    private readonly options: SweeperOptions = {},
  ) {}

  /** One sweep. @throws the store's {@link HistoryError} when it fails (the next sweep tries again) */
  async sweep(): Promise<SweepResult> {
    const result: SweepResult = { read: 0, deleted: [], emptied: [], finished: false };
    const { runsDays, filesDays } = this.policy;
    if (runsDays === undefined && filesDays === undefined) return { ...result, finished: true };
    const now = this.options.now?.() ?? Date.now();
    const cutoff = (days: number | undefined) => (days === undefined ? undefined : new Date(now - days * 86_400_000).toISOString());
    const runsBefore = cutoff(runsDays);
    const filesBefore = cutoff(filesDays);
    const latest = [runsBefore, filesBefore].filter((c): c is string => c !== undefined).sort().at(-1)!;
    if (this.cursor >= this.keys.length) {
      const { atomics, call } = this.store.internals();
      this.keys = await call('list the runs', () => atomics.keys('run:'));
      this.cursor = 0;
      this.links.clear();
    }
    const max = this.options.maxRunsPerSweep ?? 500;
    while (this.cursor < this.keys.length && result.read < max) {
      const key = this.keys[this.cursor++]!;
      const cut = key.lastIndexOf(':');
      const conversationId = key.slice('run:'.length, cut);
      const runId = key.slice(cut + 1);
      const born = Number.parseInt(runId.split('-', 1)[0]!, 36);
      if (Number.isFinite(born) && born > 1e12 && new Date(born).toISOString() >= latest) continue; // created after every cutoff
      result.read++;
      const run = await this.store.getRun(conversationId, runId).catch(() => undefined);
      if (!run || run.status === 'running') continue;
      if (runsBefore !== undefined && run.updatedAt < runsBefore) {
        let links = this.links.get(conversationId);
        if (!links) this.links.set(conversationId, (links = await threadLinks(this.store, conversationId)));
        await forgetRun(this.store, conversationId, runId, this.options.artifactRoot, links);
        result.deleted.push(`${conversationId} ${runId}`);
        this.options.counted?.('run');
        this.options.log?.(`retention: deleted run ${runId} of ${conversationId} (unchanged since ${run.updatedAt}; retention.runs_days: ${runsDays})`);
      } else if (filesBefore !== undefined && run.updatedAt < filesBefore) {
        const { workspaces } = this.store.internals();
        const had = (await workspaces.manifest(conversationId, runId)).files.length > 0;
        if (had) await workspaces.drop(conversationId, runId, true);
        if (this.options.artifactRoot) await rm(join(this.options.artifactRoot, safeSegment(conversationId), runId), { recursive: true, force: true });
        if (had) {
          result.emptied.push(`${conversationId} ${runId}`);
          this.options.counted?.('files');
          this.options.log?.(`retention: deleted the files of run ${runId} of ${conversationId} (unchanged since ${run.updatedAt}; retention.files_days: ${filesDays})`);
        }
      }
    }
    result.finished = this.cursor >= this.keys.length;
    return result;
  }
}

/**
 * Sweeps at once and then every `everyMs`, when this process takes the store's `retention-sweep`
 * lease (held for `everyMs`: one process of a cluster per period). A failed sweep is logged and
 * tried again next period.
 * @returns stop: clears the timer (a sweep under way ends by itself)
 */
export function startRetention(store: KeyvHistoryStore, policy: RetentionPolicy, everyMs: number, options: SweeperOptions & { warn: (m: string) => void }): () => void {
  if (policy.runsDays === undefined && policy.filesDays === undefined) return () => undefined;
  const sweeper = new RetentionSweeper(store, policy, options);
  const owner = randomUUID();
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      if (!(await store.internals().atomics.lease('retention-sweep', owner, everyMs))) return;
      await sweeper.sweep();
    } catch (err) {
      options.warn(`retention: the sweep failed (tried again in ${Math.round(everyMs / 60_000)} min): ${(err as Error).message}`);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
