/**
 * The run's workspace during one turn: the files given with the call are added to the run's
 * workspace in the store, the whole workspace is restored (every execution's work dir gets it), and
 * the files a successful execution wrote are added to it, marked as written by that attempt. With
 * this machine's workspace cache, a restore reads from the store only the contents it lacks.
 */
import { readFile } from 'node:fs/promises';
import type { HistoryStore, Run } from '../../history/types.js';
import type { Artifact, InputFile } from '../../sandbox/types.js';
import { sandboxInputNames } from '../../text/file-names.js';
import {
  DEFAULT_WORKSPACE_LIMITS,
  workspaceFingerprint,
  WorkspaceLimitError,
  type WorkspaceFile,
  type WorkspaceLimits,
  type WorkspaceManifest,
} from '../../history/workspace.js';
import type { AgentEvent, WorkspaceEntry } from './events.js';
import type { WorkspaceCache } from '../../history/workspace-cache.js';
import { cacheStored, readWorkspaceCached } from '../../history/workspace-restore.js';

/** The workspace of the turn in progress. */
export interface TurnWorkspace {
  /** The run's turn number (1 for the call that started it). */
  turn: number;
  /** The manifest as it is now (files added during the turn included). */
  manifest: WorkspaceManifest;
  /** Every file with its content, under its workspace name: what each execution's work dir gets. */
  files: InputFile[];
  /** The workspace's fingerprint at the start of the turn (see `Attempt.workspace`). */
  fingerprint: string;
}

/** What the workspace steps need. */
export interface WorkspaceDeps {
  store: HistoryStore;
  limits?: WorkspaceLimits;
  emit(event: AgentEvent): void;
  /** The operator's log (older runs whose files were deleted for the conversation's bound). */
  log?: (message: string) => void;
  /** This machine's cache of workspace contents: a restore reads from the store only what it lacks. */
  cache?: WorkspaceCache;
}

/**
 * Adds the call's files to the run's workspace (a newer file of a name replaces the older one:
 * `workspace_replaced` says so), restores the whole workspace and emits `workspace` when it has files.
 * @throws {WorkspaceLimitError} when the given files would pass a bound (nothing is added)
 * @throws {HistoryError} when the store fails
 */
export async function openWorkspace(deps: WorkspaceDeps, run: Run, turn: number, given: InputFile[] = []): Promise<TurnWorkspace> {
  const { store } = deps;
  let manifest = await store.getWorkspace(run.conversationId, run.id);
  const { files: named } = sandboxInputNames(given);
  if (named.length > 0) {
    const at = new Date().toISOString();
    const put = await store.putWorkspaceFiles(
      run.conversationId,
      run.id,
      named.map((f) => ({ name: f.name, content: f.content, origin: { kind: 'input' as const, turn, at } })),
      deps.limits ?? DEFAULT_WORKSPACE_LIMITS,
    );
    manifest = put.manifest;
    cacheStored(deps.cache, manifest, named);
    reportReplaced(deps, run, put.replaced, manifest);
    reportEvicted(deps, run, put.evicted);
  }
  const files = manifest.files.length > 0 ? await readWorkspaceCached(store, deps.cache, run.conversationId, run.id, manifest) : [];
  if (manifest.files.length > 0) deps.emit({ type: 'workspace', runId: run.id, files: manifest.files.map(entry) });
  return { turn, manifest, files, fingerprint: workspaceFingerprint(manifest) };
}

/**
 * Adds the files an execution wrote to the workspace (read from where the executor kept them), except
 * `main.py` (the program itself) and files in sub-folders.
 * A bound that would be passed keeps none of them and emits `workspace_refused`; the execution's
 * result is unchanged (its files are still returned to the user).
 * @throws {HistoryError} when the store fails
 */
export async function keepWritten(deps: WorkspaceDeps, run: Run, attempt: number, artifacts: Artifact[], ws: TurnWorkspace): Promise<void> {
  // the program's own source, and files in sub-folders (a work dir gets its files at its top), are not kept
  const kept = artifacts.filter((a) => a.name !== 'main.py' && !a.name.includes('/'));
  if (kept.length === 0) return;
  const at = new Date().toISOString();
  const files = await Promise.all(
    kept.map(async (a) => ({ name: a.name, content: await readFile(a.path), origin: { kind: 'written' as const, attempt, turn: ws.turn, at } })),
  );
  try {
    const put = await deps.store.putWorkspaceFiles(run.conversationId, run.id, files, deps.limits ?? DEFAULT_WORKSPACE_LIMITS);
    cacheStored(deps.cache, put.manifest, files);
    reportReplaced(deps, run, put.replaced, put.manifest);
    reportEvicted(deps, run, put.evicted);
    ws.manifest = put.manifest;
  } catch (err) {
    if (!(err instanceof WorkspaceLimitError)) throw err;
    deps.emit({ type: 'workspace_refused', runId: run.id, attempt, names: files.map((f) => f.name), reason: err.message });
    return;
  }
  const byName = new Map(ws.files.map((f) => [f.name, f]));
  for (const f of files) byName.set(f.name, { name: f.name, content: f.content });
  ws.files = ws.manifest.files.map((f) => byName.get(f.name)!).filter((f) => f !== undefined);
}

function reportReplaced(deps: WorkspaceDeps, run: Run, replaced: WorkspaceFile[], manifest: WorkspaceManifest): void {
  for (const previous of replaced) {
    const file = manifest.files.find((f) => f.name === previous.name);
    if (file) deps.emit({ type: 'workspace_replaced', runId: run.id, file: entry(file), previous: entry(previous) });
  }
}

function reportEvicted(deps: WorkspaceDeps, run: Run, evicted: string[]): void {
  if (evicted.length === 0) return;
  deps.log?.(
    `the files of ${evicted.length} older run${evicted.length === 1 ? '' : 's'} of ${run.conversationId} (${evicted.join(', ')}) were deleted to keep its workspaces within workspace.max_conversation_bytes`,
  );
}

function entry(file: WorkspaceFile): WorkspaceEntry {
  return { name: file.name, bytes: file.bytes, origin: file.origin };
}

/**
 * The workspace as the model reads it, before the files' profile: each file's name, size and where
 * it came from. Empty without files.
 */
export function workspaceSection(manifest: WorkspaceManifest | undefined): string {
  if (!manifest || manifest.files.length === 0) return '';
  const lines = manifest.files.map((f) => `- ${f.name} (${f.bytes.toLocaleString('en-US')} bytes; ${originText(f)})`);
  return ['Files in the current working directory (the workspace of this conversation; earlier programs\' outputs are there too):', ...lines].join('\n');
}

function originText(file: WorkspaceFile): string {
  const o = file.origin;
  return o.kind === 'input' ? `given by the user${o.turn > 1 ? ` in turn ${o.turn}` : ''}` : `written by the program of attempt ${o.attempt}`;
}
