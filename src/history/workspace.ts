/**
 * A run's workspace: every file given in the run (at the start or with an improve) and every file
 * its programs wrote, kept with the history so that any worker restores it. A manifest (name →
 * content hash, size, origin) plus the content stored once per hash and run. This module holds the
 * shapes, the bounds and the pure planning of a change; `workspace-keyv.ts` stores them.
 */
import { createHash } from 'node:crypto';
import { HistoryError } from './errors.js';

/** Where a workspace file came from. */
export type WorkspaceOrigin =
  /** given by the user (an attachment, `--file`, `/attach`) */
  | { kind: 'input'; turn: number; at: string }
  /** written by the program of attempt `attempt` */
  | { kind: 'written'; attempt: number; turn: number; at: string };

/** One file of a run's workspace. */
export interface WorkspaceFile {
  /** The name the program finds in its work dir (cleaned, see `src/text/file-names.ts`). */
  name: string;
  /** SHA-256 of the content, hex. */
  hash: string;
  /** Size in bytes. */
  bytes: number;
  origin: WorkspaceOrigin;
}

/** A run's workspace as stored: its files, in the order they arrived. */
export interface WorkspaceManifest {
  files: WorkspaceFile[];
}

/** A file to add to a workspace. */
export interface NewWorkspaceFile {
  name: string;
  content: Buffer;
  origin: WorkspaceOrigin;
}

/** A workspace file with its content. */
export interface WorkspaceContent {
  name: string;
  content: Buffer;
}

/** Bounds of workspaces; every one counts bytes of content. */
export interface WorkspaceLimits {
  /** Most files in one run's workspace. */
  maxFiles: number;
  /** Most bytes in one run's workspace. */
  maxBytes: number;
  /**
   * Most bytes in the workspaces of all the runs of one conversation: past it, the oldest other
   * runs' workspaces are deleted (their records stay) until the change fits.
   */
  maxConversationBytes: number;
}

export { WORKSPACE_MAX_BYTES, WORKSPACE_MAX_CONVERSATION_BYTES, WORKSPACE_MAX_FILES } from '../config/defaults.js';
import { WORKSPACE_MAX_BYTES, WORKSPACE_MAX_CONVERSATION_BYTES, WORKSPACE_MAX_FILES } from '../config/defaults.js';

/** The default bounds. */
export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = {
  maxFiles: WORKSPACE_MAX_FILES,
  maxBytes: WORKSPACE_MAX_BYTES,
  maxConversationBytes: WORKSPACE_MAX_CONVERSATION_BYTES,
};

/** A workspace bound would be passed: nothing was written; the message says which bound and what to do. */
export class WorkspaceLimitError extends HistoryError {
  override name = 'WorkspaceLimitError';
}

/** What a change of a workspace did. */
export interface WorkspacePut {
  manifest: WorkspaceManifest;
  /** Files that were there under the same name with other content, now replaced (the old entry). */
  replaced: WorkspaceFile[];
  /** Names of files that were not there before. */
  added: string[];
  /**
   * Runs of the conversation whose workspaces were deleted to keep the conversation within
   * `maxConversationBytes` (the oldest first; never the run changed). Their records stay.
   */
  evicted: string[];
}

/** SHA-256 of a content, hex. */
export function contentHash(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Total bytes of a manifest's files. */
export function manifestBytes(manifest: WorkspaceManifest): number {
  return manifest.files.reduce((n, f) => n + f.bytes, 0);
}

/**
 * The manifest after adding `files` (a file of a name already there replaces it, unless its content
 * is the same), with the contents to store. Pure: nothing is written.
 * @throws {WorkspaceLimitError} when the result would pass a run's bound (naming it and the sizes)
 */
export function planPut(
  before: WorkspaceManifest,
  files: NewWorkspaceFile[],
  limits: Pick<WorkspaceLimits, 'maxFiles' | 'maxBytes'>,
): Omit<WorkspacePut, 'evicted'> & { contents: Map<string, Buffer> } {
  const entries = new Map(before.files.map((f) => [f.name, f]));
  const replaced: WorkspaceFile[] = [];
  const added: string[] = [];
  const contents = new Map<string, Buffer>();
  for (const file of files) {
    const hash = contentHash(file.content);
    const old = entries.get(file.name);
    if (old?.hash === hash) continue;
    if (old) {
      if (!replaced.some((r) => r.name === old.name)) replaced.push(old);
      entries.delete(file.name); // the newer one goes last
    } else if (!added.includes(file.name)) added.push(file.name);
    entries.set(file.name, { name: file.name, hash, bytes: file.content.length, origin: file.origin });
    contents.set(hash, file.content);
  }
  const manifest = { files: [...entries.values()] };
  const bytes = manifestBytes(manifest);
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (manifest.files.length > limits.maxFiles) {
    throw new WorkspaceLimitError(
      `the run's workspace would hold ${manifest.files.length} files; the limit is ${limits.maxFiles} (workspace.max_files): nothing was added; remove files or start a new run`,
    );
  }
  if (bytes > limits.maxBytes) {
    throw new WorkspaceLimitError(
      `the run's workspace would hold ${mib(bytes)}; the limit is ${mib(limits.maxBytes)} (workspace.max_bytes): nothing was added; remove files or start a new run`,
    );
  }
  return { manifest, replaced, added, contents };
}

/**
 * One string that changes whenever a name or a content of the workspace changes (order does not
 * count): what "the same workspace" means for the repeated-program rule.
 */
export function workspaceFingerprint(manifest: WorkspaceManifest): string {
  const lines = manifest.files.map((f) => `${f.name}\0${f.hash}`).sort();
  return contentHash(Buffer.from(lines.join('\n')));
}
