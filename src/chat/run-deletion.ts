/**
 * Deleting one thread's run from chat (`/show <id> remove`; Matrix `!show <id> remove`), the same on
 * every platform. The caller (src/chat/ingress.ts) has checked access first: only people who may
 * use the channel (the same access admission uses) get here. What is deleted: the run's record
 * (every attempt), its workspace files in the store, its outputs on this host, every thread link to
 * it, and, through the store's log of forgotten workspaces, the copies of its files in the
 * workspace cache of every worker and the outputs a worker kept of it (dropped at the cache's next
 * use or sync: src/history/workspace-forgotten.ts). Kept: the channel's other runs, its memory (an example made
 * from the run stays until forgotten with `/memory forget`), team programs, schedules and usage.
 * Each deletion is logged with who asked and why, and counted (`code_agent_runs_deleted_total`).
 */
import type { KeyvHistoryStore } from '../history/keyv-store.js';
import { forgetRun } from '../history/retention.js';
import type { Run } from '../history/types.js';
import { formatBytes } from '../text/bytes.js';
import type { Who } from './incoming-port.js';

/** Deletes a run of a conversation for a person. @returns what to answer (plain text). @throws the store's errors */
export type RunDeletion = (run: Run, who: Who, platform: string) => Promise<string>;

/** What {@link runDeletion} uses. */
export interface RunDeletionDeps {
  store: KeyvHistoryStore;
  /** The host folder of outputs (`<artifactRoot>/<conversation>/<runId>/`). */
  artifactRoot: string;
  /** One line per deletion (who, why, what). */
  log: (line: string) => void;
  /** Counts a deletion (the metrics). */
  counted?: () => void;
}

/** The deletion of a run asked in chat (see the module comment). */
export function runDeletion(deps: RunDeletionDeps): RunDeletion {
  return async (run, who, platform) => {
    // a turn at work holds the run: deleting under it would leave half a run
    if (run.status === 'running') return `Nothing deleted: run ${run.id} is still at work; delete it when it ends.`;
    const manifest = await deps.store.getWorkspace(run.conversationId, run.id);
    const bytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
    const done = await forgetRun(deps.store, run.conversationId, run.id, deps.artifactRoot);
    deps.counted?.();
    const asker = `${platform} user ${who.userId}${who.userName ? ` (${who.userName})` : ''}`;
    deps.log(
      `chat: deleted run ${run.id} of ${run.conversationId} as ${asker} asked with /show ${run.id} remove: ` +
        `record ${done.run ? `with ${run.attempts.length} attempts` : 'already gone'}, ${done.files} workspace files (${bytes} bytes), outputs, ${done.threads.length} thread links`,
    );
    return deletedRunText(run, { files: done.files, bytes, threads: done.threads.length });
  };
}

/** The answer after a deletion: what was deleted, and what was kept. */
export function deletedRunText(run: Pick<Run, 'id' | 'attempts'>, what: { files: number; bytes: number; threads: number }): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  const files = what.files > 0 ? `its workspace (${n(what.files, 'file')}, ${formatBytes(what.bytes)})` : 'its workspace (it was empty)';
  return (
    `🗑️ Deleted run ${run.id}: its record (${n(run.attempts.length, 'attempt')} with their code and output), ${files}, ` +
    `its saved outputs (on every machine that kept them), ${n(what.threads, 'thread link')} (a reply in its thread now starts a new run), ` +
    "and the copies of its files in every worker's workspace cache (dropped at their next use). " +
    "Kept: this channel's other runs, its memory (an example made from this run stays until forgotten with the memory command), team programs, schedules and usage."
  );
}
