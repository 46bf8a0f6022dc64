/**
 * A run's workspace in chat, the same on every platform: the line a thread's end message carries,
 * the listing `/show` answers with, and removing a file (`/show <run> remove <name>`). Texts are
 * plain; each platform escapes them for its markup (file names are the user's words).
 */
import type { Run } from '../history/types.js';
import type { WorkspaceManifest } from '../history/workspace.js';
import { workspaceEntryText } from '../text/workspace-entry.js';
import { formatBytes } from '../text/bytes.js';
import type { Notice } from './verification.js';

/** A run's workspace, read and changed (the agent's: src/agent/loop/agent.ts). */
export interface WorkspaceAccess {
  /** @throws the store's errors */
  workspace(run: Run): Promise<WorkspaceManifest>;
  /** @returns false when the workspace has no such file. @throws the store's errors */
  removeFile(run: Run, name: string): Promise<boolean>;
}

/** Most file names the end message's line names (the rest are counted). */
const NAMED_MAX = 8;

/**
 * The end message's line, e.g. `📁 Workspace: inventory.csv, clean.csv (2 files, 1.2 KB), in every
 * later turn's work dir`; undefined for an empty workspace.
 */
export function workspaceLine(manifest: WorkspaceManifest): string | undefined {
  const { files } = manifest;
  if (files.length === 0) return undefined;
  const named = files.slice(0, NAMED_MAX).map((f) => f.name);
  const more = files.length > NAMED_MAX ? ` and ${files.length - NAMED_MAX} more` : '';
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  return `📁 Workspace: ${named.join(', ')}${more} (${files.length} file${files.length === 1 ? '' : 's'}, ${formatBytes(bytes)}), in every later turn's work dir`;
}

/** `/show`'s listing of a run's workspace: one line per file (name, size, given or written by which attempt). */
export function workspaceListing(manifest: WorkspaceManifest, removeHint: string): Notice {
  if (manifest.files.length === 0) return { title: '📁 Workspace: empty (files given in the thread and files the programs write go here)', lines: [] };
  const n = manifest.files.length;
  return { title: `📁 Workspace (${n} file${n === 1 ? '' : 's'}, in every later turn's work dir; ${removeHint}):`, lines: manifest.files.map(workspaceEntryText) };
}

/** Why a name cannot be a workspace file's (undefined: it may be one). */
function badName(name: string): string | undefined {
  if (!name) return 'say which file to remove';
  if (name.length > 255) return 'that file name is longer than 255 characters';
  return undefined;
}

/**
 * Removes a file from a run's workspace for a chat user (access already checked by the caller):
 * later turns no longer find it; earlier results keep it.
 * @returns what to answer (plain text)
 * @throws the store's errors
 */
export async function removeFileText(agent: WorkspaceAccess, run: Run, name: string): Promise<string> {
  const wanted = name.trim();
  const bad = badName(wanted);
  if (bad) return `Nothing removed: ${bad}.`;
  // a turn at work holds the run's files: removing waits for it, which a chat answer cannot
  if (run.status === 'running') return `Nothing removed: run ${run.id} is still at work; remove ${wanted} when it ends.`;
  const removed = await agent.removeFile(run, wanted);
  if (!removed) {
    const names = (await agent.workspace(run)).files.map((f) => f.name);
    const listed = names.length > NAMED_MAX * 2 ? `${names.slice(0, NAMED_MAX * 2).join(', ')} and ${names.length - NAMED_MAX * 2} more` : names.join(', ');
    return `Nothing removed: the workspace of run ${run.id} has no file named ${wanted}${names.length ? ` (it has: ${listed})` : ' (it is empty)'}.`;
  }
  return `🗑️ Removed ${wanted} from the workspace of run ${run.id}: later turns no longer find it (earlier results keep it).`;
}
