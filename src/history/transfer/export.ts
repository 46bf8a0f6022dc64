/**
 * `code-agent store export`: a store's records as JSONL, streamed (one record in memory at a time,
 * a workspace with its files being one record). The first line is a header
 * `{"kind":"header","format":"code-agent-dump","version":1,"storeFormat":1,…}`, then the lines of
 * each kind of `registry.ts` in its order, then `{"kind":"end","lines":N,"counts":{…},"sha256":"…"}`:
 * the number of lines before it and the SHA-256 of their text (each with its newline), which
 * import checks, so a dump cut short or changed is refused. Kinds: run, thread, workspace, memory,
 * usage, program, schedule (`registry.ts`).
 *
 * Consistency: each line is one record as read at one moment (a run with all its attempts; a
 * workspace's manifest and the contents it names, which never change under a hash). Records are
 * read one after another, not in one snapshot: while the bot runs, a run that changes during the
 * export is exported as it was when it was read, and one that starts after its conversation was
 * listed is not exported (export again, or stop the bot, for the last minutes).
 */
import { createHash } from 'node:crypto';
import type { KeyvHistoryStore } from '../keyv-store.js';
import { KeyvPrograms } from '../programs-keyv.js';
import { STORE_FORMAT_VERSION } from '../format-version.js';
import { utcDay } from '../usage.js';
import type { ExportScope, TransferSide } from './kinds.js';
import { RECORD_KINDS } from './registry.js';

/** The dump format's version (its lines' shapes), in the header. */
export const DUMP_VERSION = 1;

/** What to export. */
export interface ExportOptions {
  /** One conversation only; default every conversation the store has. */
  conversation?: string;
  /** ISO 8601 time: only runs updated since, usage of days since (memory and programs are exported whole). */
  since?: string;
  /** The store's kind in the header (sqlite, redis, postgres). */
  source?: string;
}

/** The parts of a store export and import use. @throws {Error} for a store without team programs on Keyv */
export function sideOf(store: KeyvHistoryStore): TransferSide {
  const { keyv, atomics, workspaces, call } = store.internals();
  if (!(store.programs instanceof KeyvPrograms)) throw new Error('this store keeps no team programs on Keyv');
  return { store, keyv, atomics, workspaces, programs: store.programs, call };
}

/**
 * The dump's lines, each ending with a newline (see the module comment).
 * @throws the store's {@link HistoryError} when a read fails
 */
export async function* exportDump(store: KeyvHistoryStore, options: ExportOptions = {}): AsyncGenerator<string> {
  const side = sideOf(store);
  const conversations = options.conversation !== undefined ? [options.conversation] : await allConversations(side);
  const scope: ExportScope = { conversations, ...(options.since !== undefined ? { since: options.since } : {}), runs: new Map() };
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  let lines = 0;
  const line = (value: Record<string, unknown>) => {
    const text = `${JSON.stringify(value)}\n`;
    hash.update(text);
    lines++;
    return text;
  };
  yield line({
    kind: 'header',
    format: 'code-agent-dump',
    version: DUMP_VERSION,
    storeFormat: STORE_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    ...(options.source ? { source: options.source } : {}),
    ...(options.conversation !== undefined ? { conversation: options.conversation } : {}),
    ...(options.since !== undefined ? { since: options.since } : {}),
  });
  for (const kind of RECORD_KINDS) {
    counts[kind.kind] = 0;
    for await (const record of kind.export(side, scope)) {
      counts[kind.kind]!++;
      yield line(record);
    }
  }
  yield `${JSON.stringify({ kind: 'end', lines, counts, sha256: hash.digest('hex') })}\n`;
}

/** Every conversation with runs, team programs, schedules, memory or usage in the store, sorted. */
async function allConversations(side: TransferSide): Promise<string[]> {
  const found = new Set<string>();
  for (const key of await side.call('list the runs', () => side.atomics.keys('run:'))) {
    const cut = key.lastIndexOf(':');
    if (cut > 4) found.add(key.slice(4, cut));
  }
  for (const key of await side.call('list the team programs', () => side.atomics.keys('programs:'))) found.add(key.slice('programs:'.length));
  for (const c of (await side.store.memory.conversations?.()) ?? []) found.add(c);
  for (const s of await side.store.schedules.all()) found.add(s.conversationId);
  for (const row of await side.store.usage.rows(utcDay(Date.now() - 400 * 86_400_000), utcDay())) found.add(row.channel);
  return [...found].sort();
}
