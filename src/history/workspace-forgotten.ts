/**
 * The store's log of forgotten workspace contents: how every machine's workspace cache
 * (`workspace-cache.ts`) learns that a run's files were deleted (a run deleted on request or by
 * retention, a workspace purged by `retention.files_days` or by the conversation's size bound, a
 * file removed with `/show <run> remove <file>`), so it drops its copies too.
 *
 * Why a log in the store rather than a broadcast: the store is the one thing every process shares
 * in both modes and on every backend (SQLite, PostgreSQL, Redis); a worker that was stopped or
 * restarting when a run was deleted still finds the entry when it starts (a pub/sub message sent
 * while it was down would be lost, and its disk tier outlives restarts). Each cache reads the log
 * before it is used and once a minute (`WorkspaceCache.sync`): one read of the newest entry when
 * nothing changed.
 *
 * The log is the store's run index under a reserved name ({@link FORGOTTEN_LOG}, which no
 * conversation id can be: they start with their platform), appended atomically by any process
 * and kept to its newest {@link FORGOTTEN_LOG_MAX} entries. An entry is `<id> <sha256>,<sha256>…`,
 * its id unique (time and randomness), and, when the run's outputs went too (a run deleted, or its
 * files by `retention.files_days`), ` <run>`: the conversation and run id as base64url JSON, so
 * that each machine deletes the outputs it kept of that run (a worker's artifacts folder). A cache that finds the log full and without the last entry
 * it applied may have missed entries, and drops every content it holds (the store stays the truth:
 * that costs only reads).
 */
import { randomBytes } from 'node:crypto';
import type { AtomicOps } from './atomic.js';

/** The reserved run-index name the log is kept under. */
export const FORGOTTEN_LOG = '@forgotten-workspace-contents';
/** Most entries the log keeps (the oldest go first). */
export const FORGOTTEN_LOG_MAX = 1000;

const HASH = /^[0-9a-f]{64}$/;

/** A run whose outputs went with its workspace. */
export interface ForgottenRun {
  conversationId: string;
  runId: string;
}

/** One entry of the log. */
export interface ForgottenEntry {
  id: string;
  /** SHA-256 of each content deleted. */
  hashes: string[];
  /** The run whose outputs were deleted too, when they were. */
  run?: ForgottenRun;
}

/** The entry's text for a list of hashes and maybe a run (a new unique id). */
export function forgottenEntry(hashes: readonly string[], run?: ForgottenRun): string {
  const tail = run ? ` ${Buffer.from(JSON.stringify([run.conversationId, run.runId])).toString('base64url')}` : '';
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')} ${[...new Set(hashes)].join(',')}${tail}`;
}

/** An entry from its text; undefined for text that is not one. */
export function parseForgotten(text: string): ForgottenEntry | undefined {
  const [id, list, runPart] = text.split(' ');
  if (!id || list === undefined) return undefined;
  const hashes = list.split(',').filter((h) => HASH.test(h));
  let run: ForgottenRun | undefined;
  try {
    const [conversationId, runId] = runPart ? (JSON.parse(Buffer.from(runPart, 'base64url').toString('utf8')) as unknown[]) : [];
    if (typeof conversationId === 'string' && typeof runId === 'string') run = { conversationId, runId };
  } catch {
    run = undefined; // not an entry of this release: its hashes still count
  }
  return { id, hashes, ...(run ? { run } : {}) };
}

/**
 * Appends an entry for `hashes` (nothing for no hash and no run).
 * @param run the run whose outputs are deleted too
 * @throws the backend's error when the append fails
 */
export async function recordForgotten(atomics: Pick<AtomicOps, 'append'>, hashes: readonly string[], run?: ForgottenRun): Promise<void> {
  if (hashes.length === 0 && !run) return;
  await atomics.append(FORGOTTEN_LOG, forgottenEntry(hashes, run), FORGOTTEN_LOG_MAX);
}

/**
 * The newest `limit` entries, oldest first.
 * @throws the backend's error when the read fails
 */
export async function readForgotten(atomics: Pick<AtomicOps, 'recent'>, limit = FORGOTTEN_LOG_MAX): Promise<ForgottenEntry[]> {
  return (await atomics.recent(FORGOTTEN_LOG, limit)).map(parseForgotten).filter((e): e is ForgottenEntry => e !== undefined);
}
