/**
 * What a surface (the terminal session, a chat's `/show`, a button) does with a run's workspace
 * between turns: list it, add files, remove one. Adding and removing take the run's turn lease, so
 * files never change under a turn that is going (the call waits for it, as a second turn would).
 */
import type { HistoryStore, Run } from '../../history/types.js';
import type { WorkspaceLimits, WorkspaceManifest, WorkspacePut } from '../../history/workspace.js';
import type { InputFile } from '../../sandbox/types.js';
import { sandboxInputNames } from '../../text/file-names.js';
import { takeTurn, type AgentEventListener } from '../run/index.js';
import type { WorkspaceCache } from '../../history/workspace-cache.js';
import { cacheStored } from '../../history/workspace-restore.js';

/** What the workspace operations need. */
export interface WorkspaceFilesDeps {
  store: HistoryStore;
  limits: WorkspaceLimits;
  /** The longest an addition waits for a turn of the run that is going, in ms. */
  waitMs: number;
  log?: (message: string) => void;
  /** This machine's cache of workspace contents (files added are put in it). */
  cache?: WorkspaceCache;
}

/**
 * Adds files to a run's workspace between turns (as given by the user, in the run's next turn),
 * under the names its programs will find (cleaned, see `sandboxInputNames`).
 * @param onEvent receives `queued` when a turn of the run is going (the call waits for it)
 * @throws {WorkspaceLimitError} when a bound would be passed (nothing is added)
 * @throws {TurnBusyError} when a turn of the run went on longer than the wait
 */
export async function addWorkspaceFiles(deps: WorkspaceFilesDeps, run: Run, files: InputFile[], onEvent?: AgentEventListener): Promise<WorkspacePut> {
  const held = await takeTurn(deps.store, run.id, {
    waitMs: deps.waitMs,
    log: deps.log,
    onQueued: () => onEvent?.({ type: 'queued', runId: run.id, waitMs: deps.waitMs }),
  });
  try {
    const at = new Date().toISOString();
    const turn = (run.turns ?? 0) + 1;
    const { files: named } = sandboxInputNames(files);
    const put = await deps.store.putWorkspaceFiles(
      run.conversationId,
      run.id,
      named.map((f) => ({ name: f.name, content: f.content, origin: { kind: 'input' as const, turn, at } })),
      deps.limits,
    );
    cacheStored(deps.cache, put.manifest, named);
    if (put.evicted.length > 0) {
      deps.log?.(`the files of older runs of ${run.conversationId} (${put.evicted.join(', ')}) were deleted to keep its workspaces within workspace.max_conversation_bytes`);
    }
    return put;
  } finally {
    await held.release();
  }
}

/**
 * Removes a file from a run's workspace between turns (waiting for a turn of the run that is going).
 * @returns false when the workspace has no file of that name
 * @throws {TurnBusyError} when a turn of the run went on longer than the wait
 */
export async function removeWorkspaceFile(deps: WorkspaceFilesDeps, run: Run, name: string, onEvent?: AgentEventListener): Promise<boolean> {
  const held = await takeTurn(deps.store, run.id, {
    waitMs: deps.waitMs,
    log: deps.log,
    onQueued: () => onEvent?.({ type: 'queued', runId: run.id, waitMs: deps.waitMs }),
  });
  try {
    return await deps.store.removeWorkspaceFile(run.conversationId, run.id, name);
  } finally {
    await held.release();
  }
}

/** @returns the run's workspace (files in arrival order; empty when it has none). */
export function listWorkspace(store: HistoryStore, run: Run): Promise<WorkspaceManifest> {
  return store.getWorkspace(run.conversationId, run.id);
}
