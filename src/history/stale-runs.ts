/**
 * A {@link HistoryStore} wrapper that ends runs left `running` by a process that stopped without
 * finishing them (killed, crashed, host rebooted): when such a run is read, it is stored and
 * returned as `failed` with an `error` saying it was interrupted. Runs of live processes, and of
 * processes on other hosts sharing the store (redis, postgres), are left alone — except the runs
 * this process gave up on while the store refused to record their end ({@link givenUpHere}).
 */
import { isProcessGone, thisProcess } from './process-identity.js';
import type { HistoryStore, Run } from './types.js';
import type { UsageLedger } from './usage.js';
import type { ProgramBackend } from './programs.js';
import type { MemoryBackend } from './memory.js';
import type { ScheduleBackend } from './schedules.js';
import type { NewWorkspaceFile, WorkspaceContent, WorkspaceLimits, WorkspaceManifest, WorkspacePut } from './workspace.js';

/** The `error` of a run found interrupted. */
export const INTERRUPTED = 'interrupted: the process running it stopped before it finished';

/** Runs this process stopped working on while their end could not be stored: run id → why they ended. */
const givenUp = new Map<string, string>();

/**
 * Records that this process stopped working on a run whose end the store refused (e.g. its disk
 * was full): the next read of the run through a {@link StaleRunRecovery} of this process, while it
 * is still stored `running`, stores it as `failed` with `reason`.
 */
export function givenUpHere(runId: string, reason: string): void {
  givenUp.set(runId, reason);
}

/** See the module comment. Every method delegates to `inner`; reads repair stale runs first. */
export class StaleRunRecovery implements HistoryStore {
  constructor(private readonly inner: HistoryStore) {}

  get usage(): UsageLedger | undefined {
    return this.inner.usage;
  }

  get memory(): MemoryBackend | undefined {
    return this.inner.memory;
  }

  get schedules(): ScheduleBackend | undefined {
    return this.inner.schedules;
  }

  get programs(): ProgramBackend | undefined {
    return this.inner.programs;
  }

  async ping(): Promise<void> {
    await this.inner.ping?.();
  }

  saveRun(run: Run): Promise<void> {
    return this.inner.saveRun(run);
  }

  async getRun(conversationId: string, runId: string): Promise<Run | undefined> {
    return this.repair(await this.inner.getRun(conversationId, runId));
  }

  async listRuns(conversationId: string, limit?: number): Promise<Run[]> {
    const runs = await this.inner.listRuns(conversationId, limit);
    return Promise.all(runs.map(async (run) => (await this.repair(run))!));
  }

  linkThread(conversationId: string, threadKey: string, runId: string): Promise<void> {
    return this.inner.linkThread(conversationId, threadKey, runId);
  }

  async findRunByThread(conversationId: string, threadKey: string): Promise<Run | undefined> {
    return this.repair(await this.inner.findRunByThread(conversationId, threadKey));
  }

  threadRunId(conversationId: string, threadKey: string): Promise<string | undefined> {
    return this.inner.threadRunId(conversationId, threadKey);
  }

  markEventSeen(eventId: string, ttlMs: number): Promise<boolean> {
    return this.inner.markEventSeen(eventId, ttlMs);
  }

  deleteRun(conversationId: string, runId: string): Promise<boolean> {
    return this.inner.deleteRun(conversationId, runId);
  }

  getWorkspace(conversationId: string, runId: string): Promise<WorkspaceManifest> {
    return this.inner.getWorkspace(conversationId, runId);
  }

  putWorkspaceFiles(conversationId: string, runId: string, files: NewWorkspaceFile[], limits?: WorkspaceLimits): Promise<WorkspacePut> {
    return this.inner.putWorkspaceFiles(conversationId, runId, files, limits);
  }

  readWorkspace(conversationId: string, runId: string, manifest?: WorkspaceManifest): Promise<WorkspaceContent[]> {
    return this.inner.readWorkspace(conversationId, runId, manifest);
  }

  removeWorkspaceFile(conversationId: string, runId: string, name: string): Promise<boolean> {
    return this.inner.removeWorkspaceFile(conversationId, runId, name);
  }

  takeTurn(runId: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.inner.takeTurn(runId, owner, ttlMs);
  }

  releaseTurn(runId: string, owner: string): Promise<void> {
    return this.inner.releaseTurn(runId, owner);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async repair(run: Run | undefined): Promise<Run | undefined> {
    if (!run || run.status !== 'running' || !run.runningIn) return run;
    const reason = run.runningIn === thisProcess() ? givenUp.get(run.id) : isProcessGone(run.runningIn) ? INTERRUPTED : undefined;
    if (reason === undefined) return run;
    const repaired: Run = { ...run, status: 'failed', error: reason, updatedAt: new Date().toISOString() };
    delete repaired.runningIn;
    await this.inner.saveRun(repaired);
    givenUp.delete(run.id);
    return repaired;
  }
}
