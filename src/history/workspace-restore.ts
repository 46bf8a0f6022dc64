/**
 * Restoring a run's workspace: the contents this machine's cache holds come from it, the rest from
 * the store (and join the cache). The store stays the truth: the manifest is always read from it,
 * and a content the cache lacks or holds with another size is read from it.
 */
import { createHash } from 'node:crypto';
import type { HistoryStore } from './types.js';
import type { WorkspaceContent, WorkspaceManifest } from './workspace.js';
import type { WorkspaceCache } from './workspace-cache.js';

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/**
 * The contents of a manifest's files, in its order (see the module doc). Without a cache, the
 * store's `readWorkspace`.
 * @throws {HistoryError} when the store fails, or lost a content it lists
 */
export async function readWorkspaceCached(
  store: Pick<HistoryStore, 'readWorkspace'>,
  cache: WorkspaceCache | undefined,
  conversationId: string,
  runId: string,
  manifest: WorkspaceManifest,
): Promise<WorkspaceContent[]> {
  if (!cache) return store.readWorkspace(conversationId, runId, manifest);
  await cache.sync(); // contents deleted anywhere since the last use leave this machine first
  const held = manifest.files.map((f) => cache.get(f.hash, f.bytes));
  const missing = manifest.files.filter((_, i) => held[i] === undefined);
  const fetched = missing.length > 0 ? await store.readWorkspace(conversationId, runId, { files: missing }) : [];
  fetched.forEach((c, i) => {
    const hash = missing[i]!.hash;
    if (sha256(c.content) === hash) cache.put(hash, c.content); // only a content that is what its hash says
  });
  let next = 0;
  return manifest.files.map((f, i) => ({ name: f.name, content: held[i] ?? fetched[next++]!.content }));
}

/** Puts the contents a change of the workspace stored into the cache, under the hashes the manifest gives them. */
export function cacheStored(cache: WorkspaceCache | undefined, manifest: WorkspaceManifest, files: readonly { name: string; content: Buffer }[]): void {
  if (!cache) return;
  for (const f of files) {
    const entry = manifest.files.find((m) => m.name === f.name);
    if (entry && entry.bytes === f.content.length) cache.put(entry.hash, f.content);
  }
}
