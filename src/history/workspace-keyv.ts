/**
 * Workspaces in the history's Keyv namespace (so every backend keeps them, and every worker sharing
 * the store restores them):
 * - `ws:<conversationId>:<runId>` → the {@link WorkspaceManifest}
 * - `blob:<conversationId>:<runId>:<sha256>` → a file's content, base64 (once per content and run:
 *   a file unchanged across attempts is stored once)
 * - `wsbytes:<conversationId>` → bytes of each run's workspace (`{ runId: bytes }`), for the
 *   conversation's bound (past it, the oldest other runs' workspaces are deleted)
 *
 * A change writes the contents first and the manifest last, in one write: a change that fails
 * midway leaves the manifest as it was (a content written for it is unreferenced and is written
 * again, under the same key, by the next try). Contents no manifest refers to any more are deleted
 * after the manifest. Changes of one run are serialised by the run's turn lease (the agent holds it);
 * two runs of one conversation changing at the same moment may under-count the conversation's tally
 * by one of them until either changes again.
 */
import type Keyv from 'keyv';
import {
  contentHash,
  manifestBytes,
  planPut,
  type NewWorkspaceFile,
  type WorkspaceContent,
  type WorkspaceLimits,
  type WorkspaceManifest,
  type WorkspacePut,
} from './workspace.js';

/** Runs one store operation within its deadline, naming `what` in its error (see `KeyvHistoryStore`). */
export type StoreCall = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/** The workspace part of the Keyv history store (see the module doc). */
export class KeyvWorkspaces {
  /**
   * @param forgotten told the hashes of the contents a deletion removed (the log every machine's
   *   workspace cache reads: `workspace-forgotten.ts`)
   */
  constructor(
    private readonly keyv: Keyv,
    private readonly call: StoreCall,
    private readonly forgotten: (hashes: string[], run?: { conversationId: string; runId: string }) => Promise<void> = async () => undefined,
  ) {}

  /** @returns the run's manifest; an empty one when the run has no workspace. */
  async manifest(conversationId: string, runId: string): Promise<WorkspaceManifest> {
    const value = await this.call('read a workspace', () => this.keyv.get<WorkspaceManifest>(manifestKey(conversationId, runId)));
    return isManifest(value) ? value : { files: [] };
  }

  /**
   * Adds files (see {@link planPut}); past the conversation's bound, the oldest other runs'
   * workspaces are deleted first (in `evicted`).
   * @throws {WorkspaceLimitError} with nothing written when a run's bound would be passed
   */
  async put(conversationId: string, runId: string, files: NewWorkspaceFile[], limits: WorkspaceLimits): Promise<WorkspacePut> {
    const before = await this.manifest(conversationId, runId);
    const plan = planPut(before, files, limits);
    if (plan.contents.size === 0 && plan.manifest.files.length === before.files.length) {
      return { manifest: before, replaced: [], added: [], evicted: [] };
    }
    const evicted = await this.makeRoom(conversationId, runId, manifestBytes(plan.manifest), limits.maxConversationBytes);
    const known = new Set(before.files.map((f) => f.hash));
    const fresh = [...plan.contents].filter(([hash]) => !known.has(hash));
    await this.call('store workspace files', () =>
      Promise.all(fresh.map(([hash, content]) => this.keyv.set(blobKey(conversationId, runId, hash), content.toString('base64')))),
    );
    await this.call('store a workspace', () => this.keyv.set(manifestKey(conversationId, runId), plan.manifest));
    await this.dropUnreferenced(conversationId, runId, before, plan.manifest);
    await this.setTally(conversationId, runId, manifestBytes(plan.manifest));
    return { manifest: plan.manifest, replaced: plan.replaced, added: plan.added, evicted };
  }

  /**
   * Deletes the workspaces of the conversation's other runs, oldest first (run ids sort by time),
   * until `bytes` more fit within `max`.
   * @returns the runs whose workspaces were deleted
   */
  private async makeRoom(conversationId: string, runId: string, bytes: number, max: number): Promise<string[]> {
    const tally = await this.tally(conversationId);
    const others = Object.entries(tally)
      .filter(([id]) => id !== runId)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let total = others.reduce((n, [, b]) => n + b, 0);
    const evicted: string[] = [];
    for (const [id, size] of others) {
      if (total + bytes <= max) break;
      await this.drop(conversationId, id);
      total -= size;
      evicted.push(id);
    }
    return evicted;
  }

  /**
   * Reads the contents of a manifest's files (all of them, or those named).
   * @throws {HistoryError} when a content is missing (the store lost it): naming the file
   */
  async read(conversationId: string, runId: string, manifest: WorkspaceManifest): Promise<WorkspaceContent[]> {
    const values = await this.call('read workspace files', () =>
      Promise.all(manifest.files.map((f) => this.keyv.get<string>(blobKey(conversationId, runId, f.hash)))),
    );
    return manifest.files.map((f, i) => {
      const value = values[i];
      if (typeof value !== 'string') throw new Error(`the content of workspace file ${f.name} of run ${runId} is missing from the store`);
      return { name: f.name, content: Buffer.from(value, 'base64') };
    });
  }

  /** Removes one file. @returns false when there was no file of that name. */
  async remove(conversationId: string, runId: string, name: string): Promise<boolean> {
    const before = await this.manifest(conversationId, runId);
    const after = { files: before.files.filter((f) => f.name !== name) };
    if (after.files.length === before.files.length) return false;
    const removed = before.files.find((f) => f.name === name)!.hash;
    // announced first: a removal that fails midway and is not retried still leaves the caches
    if (!after.files.some((f) => f.hash === removed)) await this.forgotten([removed]);
    await this.call('store a workspace', () => this.keyv.set(manifestKey(conversationId, runId), after));
    await this.dropUnreferenced(conversationId, runId, before, after);
    await this.setTally(conversationId, runId, manifestBytes(after));
    return true;
  }

  /**
   * Puts back a run's whole workspace as another store kept it (import): the contents first, then
   * the manifest, then the conversation's tally; no bound is checked (the source kept it within its own).
   * @param contents each file's content by its hash
   * @returns false when the stored manifest is the same already (nothing written)
   * @throws {Error} naming the file when a content is missing or its SHA-256 is not its hash (nothing written)
   */
  async restore(conversationId: string, runId: string, manifest: WorkspaceManifest, contents: Map<string, Buffer>): Promise<boolean> {
    for (const f of manifest.files) {
      const content = contents.get(f.hash);
      if (!content) throw new Error(`the content of workspace file ${f.name} is missing`);
      if (contentHash(content) !== f.hash || content.length !== f.bytes) throw new Error(`the content of workspace file ${f.name} does not match its hash or size`);
    }
    const before = await this.manifest(conversationId, runId);
    if (JSON.stringify(before) === JSON.stringify(manifest)) return false;
    await this.call('store workspace files', () =>
      Promise.all([...new Set(manifest.files.map((f) => f.hash))].map((h) => this.keyv.set(blobKey(conversationId, runId, h), contents.get(h)!.toString('base64')))),
    );
    await this.call('store a workspace', () => this.keyv.set(manifestKey(conversationId, runId), manifest));
    await this.dropUnreferenced(conversationId, runId, before, manifest);
    await this.setTally(conversationId, runId, manifestBytes(manifest));
    return true;
  }

  /**
   * Deletes a run's whole workspace (manifest first, then the contents), and logs its contents as forgotten.
   * @param withOutputs the run's outputs are deleted too (a run deleted, `retention.files_days`):
   *   the log names the run, so every machine deletes the outputs it kept of it
   */
  async drop(conversationId: string, runId: string, withOutputs = false): Promise<void> {
    const before = await this.manifest(conversationId, runId);
    // announced first: once the manifest is gone, a retry would not know which contents it named
    await this.forgotten(before.files.map((f) => f.hash), withOutputs ? { conversationId, runId } : undefined);
    await this.call('delete a workspace', () => this.keyv.delete(manifestKey(conversationId, runId)));
    await this.dropUnreferenced(conversationId, runId, before, { files: [] });
    await this.setTally(conversationId, runId, 0);
  }

  private async dropUnreferenced(conversationId: string, runId: string, before: WorkspaceManifest, after: WorkspaceManifest): Promise<void> {
    const kept = new Set(after.files.map((f) => f.hash));
    const gone = [...new Set(before.files.map((f) => f.hash))].filter((h) => !kept.has(h));
    if (gone.length === 0) return;
    await this.call('delete workspace files', () => Promise.all(gone.map((h) => this.keyv.delete(blobKey(conversationId, runId, h)))));
  }

  private async tally(conversationId: string): Promise<Record<string, number>> {
    const value = await this.call('read a workspace', () => this.keyv.get<Record<string, number>>(tallyKey(conversationId)));
    return value && typeof value === 'object' ? value : {};
  }

  private async setTally(conversationId: string, runId: string, bytes: number): Promise<void> {
    const tally = await this.tally(conversationId);
    if ((tally[runId] ?? 0) === bytes) return;
    if (bytes === 0) delete tally[runId];
    else tally[runId] = bytes;
    await this.call('store a workspace', () => this.keyv.set(tallyKey(conversationId), tally));
  }
}

function manifestKey(conversationId: string, runId: string): string {
  return `ws:${conversationId}:${runId}`;
}

function blobKey(conversationId: string, runId: string, hash: string): string {
  return `blob:${conversationId}:${runId}:${hash}`;
}

function tallyKey(conversationId: string): string {
  return `wsbytes:${conversationId}`;
}

function isManifest(value: unknown): value is WorkspaceManifest {
  return typeof value === 'object' && value !== null && Array.isArray((value as WorkspaceManifest).files);
}
