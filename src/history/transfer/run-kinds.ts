/**
 * Dump kinds of a conversation's runs: `run` (the run with its attempts), `thread` (a chat thread's
 * link to its run), `workspace` (a run's manifest and every file's content, base64). See `kinds.ts`.
 */
import { contentHash, type WorkspaceManifest } from '../workspace.js';
import type { Run } from '../types.js';
import { check, type ExportScope, type ImportOutcome, type RecordKind, type TransferSide } from './kinds.js';

/** `run`: `{kind, run}`; the target keeps its own copy when it was updated later. */
export const RUN_KIND: RecordKind = {
  kind: 'run',
  problem(line) {
    const run = line.run as Run;
    return check.first(
      check.object(run, 'run'),
      check.text(run?.id, 'run.id'),
      typeof run?.id === 'string' && run.id.includes(':') ? 'run.id: a run id has no ":"' : undefined,
      check.text(run?.conversationId, 'run.conversationId'),
      Array.isArray(run?.attempts) ? undefined : 'run.attempts: expected a list',
      check.text(run?.updatedAt, 'run.updatedAt'),
    );
  },
  async *export(source, scope) {
    for (const conversationId of scope.conversations) {
      const prefix = `run:${conversationId}:`;
      const ids = ownKeys(await source.call('list the runs', () => source.atomics.keys(prefix)), prefix, conversationId, scope).filter((id) => !id.includes(':'));
      const exported: string[] = [];
      for (const id of ids) {
        const run = await source.store.getRun(conversationId, id).catch(() => undefined);
        if (!run || (scope.since !== undefined && run.updatedAt < scope.since)) continue;
        exported.push(id);
        yield { kind: 'run', run };
      }
      scope.runs.set(conversationId, exported);
    }
  },
  async import(target, line) {
    const run = line.run as Run;
    let there: Run | undefined;
    try {
      there = await target.store.getRun(run.conversationId, run.id);
    } catch {
      there = undefined; // a corrupt record is replaced
    }
    if (there && JSON.stringify(there) === JSON.stringify(run)) return 'unchanged';
    if (there && there.updatedAt > run.updatedAt) return { skipped: `run ${run.id} of ${run.conversationId} is newer in the target (updated ${there.updatedAt})` };
    await target.store.saveRun(run);
    return 'imported';
  },
};

/** `thread`: `{kind, conversationId, threadKey, runId}`; a thread linked to another run in the target is left alone. */
export const THREAD_KIND: RecordKind = {
  kind: 'thread',
  problem: (line) => check.first(check.text(line.conversationId, 'conversationId'), check.text(line.threadKey, 'threadKey'), check.text(line.runId, 'runId')),
  async *export(source, scope) {
    for (const conversationId of scope.conversations) {
      const prefix = `thread:${conversationId}:`;
      const runs = scope.since !== undefined ? new Set(scope.runs.get(conversationId) ?? []) : undefined;
      for (const threadKey of ownKeys(await source.call('list the threads', () => source.atomics.keys(prefix)), prefix, conversationId, scope)) {
        const runId = await source.store.threadRunId(conversationId, threadKey);
        if (runId === undefined || (runs && !runs.has(runId))) continue;
        yield { kind: 'thread', conversationId, threadKey, runId };
      }
    }
  },
  async import(target, line) {
    const { conversationId, threadKey, runId } = line as { conversationId: string; threadKey: string; runId: string };
    const there = await target.store.threadRunId(conversationId, threadKey);
    if (there === runId) return 'unchanged';
    if (there !== undefined) return { skipped: `thread ${threadKey} of ${conversationId} is linked to run ${there} in the target` };
    await target.store.linkThread(conversationId, threadKey, runId);
    return 'imported';
  },
};

/** `workspace`: `{kind, conversationId, runId, manifest, contents: {sha256: base64}}`; every content checked against its hash before anything is written. */
export const WORKSPACE_KIND: RecordKind = {
  kind: 'workspace',
  problem(line) {
    const manifest = line.manifest as WorkspaceManifest;
    const contents = line.contents as Record<string, unknown>;
    const basic = check.first(
      check.text(line.conversationId, 'conversationId'),
      check.text(line.runId, 'runId'),
      check.object(manifest, 'manifest'),
      Array.isArray(manifest?.files) ? undefined : 'manifest.files: expected a list',
      check.object(contents, 'contents'),
    );
    if (basic) return basic;
    for (const [i, f] of manifest.files.entries()) {
      if (typeof f?.name !== 'string' || typeof f.hash !== 'string' || typeof f.bytes !== 'number') return `manifest.files[${i}]: expected {name, hash, bytes, origin}`;
      const content = contents[f.hash];
      if (typeof content !== 'string') return `contents: the content of ${f.name} is missing`;
      const bytes = Buffer.from(content, 'base64');
      if (bytes.length !== f.bytes || contentHash(bytes) !== f.hash) return `contents: the content of ${f.name} does not match its SHA-256 or size (the dump is damaged)`;
    }
    return undefined;
  },
  async *export(source, scope) {
    for (const conversationId of scope.conversations) {
      for (const runId of scope.runs.get(conversationId) ?? []) {
        const manifest = await source.workspaces.manifest(conversationId, runId);
        if (manifest.files.length === 0) continue;
        const files = await source.store.readWorkspace(conversationId, runId, manifest);
        const contents: Record<string, string> = {};
        manifest.files.forEach((f, i) => (contents[f.hash] = files[i]!.content.toString('base64')));
        yield { kind: 'workspace', conversationId, runId, manifest, contents };
      }
    }
  },
  async import(target, line): Promise<ImportOutcome> {
    const { conversationId, runId, manifest } = line as { conversationId: string; runId: string; manifest: WorkspaceManifest };
    const contents = new Map(Object.entries(line.contents as Record<string, string>).map(([h, b]) => [h, Buffer.from(b, 'base64')]));
    return (await target.workspaces.restore(conversationId, runId, manifest, contents)) ? 'imported' : 'unchanged';
  },
};

/**
 * The rest of each key after `prefix`, without the keys of a longer conversation id of the scope
 * that `prefix` also matches (`thread:slack:T1:` would match `slack:T1:C9`'s keys if both were ids).
 */
export function ownKeys(keys: string[], prefix: string, conversationId: string, scope: ExportScope): string[] {
  const kind = prefix.slice(0, prefix.length - conversationId.length - 1);
  const longer = scope.conversations.filter((c) => c !== conversationId && c.startsWith(`${conversationId}:`)).map((c) => `${kind}${c}:`);
  return keys.filter((k) => !longer.some((p) => k.startsWith(p))).map((k) => k.slice(prefix.length));
}

export type { TransferSide };
