/**
 * Dump kinds a channel owns besides its runs: `memory` (each entry, live or forgotten, with who and
 * when), `usage` (a ledger row: day, channel, user and its counts), `program` (a team program's
 * record with every version, live or removed). See `kinds.ts`.
 */
import { addedPart, type MemoryEntry } from '../memory.js';
import { USAGE_FIELDS, utcDay, type UsageRow } from '../usage.js';
import type { ProgramIndex } from '../programs-keyv.js';
import type { TeamProgram } from '../programs.js';
import { check, type ImportOutcome, type RecordKind, type TransferSide } from './kinds.js';

/** An entry is "the same" in two stores when these agree (its id may differ: ids are given by each store). */
const identity = (e: MemoryEntry) => JSON.stringify([e.kind, e.text, e.addedBy, e.addedAt]);

/**
 * `memory`: `{kind, entry}`. An entry already in the target's conversation (same kind, text, who and
 * when) is not added again; one forgotten in the dump but live there is forgotten there. A new
 * entry keeps its id when that id is free in the target, else gets a new one.
 */
export const MEMORY_KIND: RecordKind = {
  kind: 'memory',
  problem(line) {
    const e = line.entry as MemoryEntry;
    return check.first(
      check.object(e, 'entry'),
      check.text(e?.id, 'entry.id'),
      check.text(e?.conversationId, 'entry.conversationId'),
      e?.kind === 'definition' || e?.kind === 'example' ? undefined : 'entry.kind: expected definition or example',
      check.text(e?.text, 'entry.text'),
      check.text(e?.addedAt, 'entry.addedAt'),
      typeof e?.bytes === 'number' ? undefined : 'entry.bytes: expected a number',
    );
  },
  async *export(source, scope) {
    const memory = source.store.memory;
    for (const conversationId of scope.conversations) {
      for (const e of await memory.list(conversationId, true)) {
        // one order of fields on every backend, so that dumps of the same memory are the same text
        const { id, bytes, removedBy, removedAt } = e;
        const entry: MemoryEntry = { ...addedPart(e), id, conversationId, bytes, ...(removedAt !== undefined ? { removedBy: removedBy ?? '', removedAt } : {}) };
        yield { kind: 'memory', entry };
      }
    }
  },
  async import(target, line, memo): Promise<ImportOutcome> {
    const entry = line.entry as MemoryEntry;
    const memory = target.store.memory;
    if (!memory.restore) return { skipped: 'the target store cannot import memory entries' };
    const key = `memory:${entry.conversationId}`;
    let there = memo.get(key) as Map<string, MemoryEntry> | undefined;
    if (!there) {
      there = new Map((await memory.list(entry.conversationId, true)).map((e) => [identity(e), e]));
      memo.set(key, there);
    }
    const same = there.get(identity(entry));
    if (same) {
      if (entry.removedAt === undefined || same.removedAt !== undefined) return 'unchanged';
      const forgotten = await memory.forget(entry.conversationId, same.id, entry.removedBy ?? 'import', entry.removedAt);
      if (forgotten) there.set(identity(entry), forgotten);
      return 'imported';
    }
    const stored = await memory.restore(entry);
    there.set(identity(stored), stored);
    return 'imported';
  },
};

/**
 * `usage`: `{kind, row}`. A row the target has too keeps, for each count, the larger of the two
 * (so importing twice adds nothing, and a row counted in both stores is never counted twice).
 */
export const USAGE_KIND: RecordKind = {
  kind: 'usage',
  problem(line) {
    const row = line.row as UsageRow;
    const basic = check.first(check.object(row, 'row'), /^\d{4}-\d{2}-\d{2}$/.test(String(row?.day)) ? undefined : 'row.day: expected YYYY-MM-DD', check.text(row?.channel, 'row.channel'), check.text(row?.user, 'row.user'));
    return basic ?? USAGE_FIELDS.map((f) => (Number.isInteger(row[f]) && row[f] >= 0 ? undefined : `row.${f}: expected a whole number`)).find(Boolean);
  },
  async *export(source, scope) {
    const ledger = source.store.usage;
    const from = scope.since !== undefined ? scope.since.slice(0, 10) : utcDay(Date.now() - 400 * 86_400_000);
    const channels = new Set(scope.conversations);
    const rows = await ledger.rows(from, utcDay());
    rows.sort((a, b) => (a.day + a.channel + a.user < b.day + b.channel + b.user ? -1 : 1));
    for (const row of rows) if (channels.has(row.channel)) yield { kind: 'usage', row };
  },
  async import(target, line, memo): Promise<ImportOutcome> {
    const row = line.row as UsageRow;
    const ledger = target.store.usage;
    const key = `usage:${row.day}`;
    let day = memo.get(key) as Map<string, UsageRow> | undefined;
    if (!day) {
      day = new Map((await ledger.rows(row.day, row.day)).map((r) => [JSON.stringify([r.channel, r.user]), r]));
      memo.set(key, day);
    }
    const id = JSON.stringify([row.channel, row.user]);
    const there = day.get(id);
    const delta = Object.fromEntries(USAGE_FIELDS.map((f) => [f, Math.max(0, row[f] - (there?.[f] ?? 0))]));
    if (USAGE_FIELDS.every((f) => delta[f] === 0)) return 'unchanged';
    await ledger.add({ day: row.day, channel: row.channel, user: row.user }, delta);
    day.set(id, { ...row, ...Object.fromEntries(USAGE_FIELDS.map((f) => [f, Math.max(row[f], there?.[f] ?? 0)])) });
    return 'imported';
  },
};

/** `program`: `{kind, conversationId, recordId, live, program}`: under its record id; a live name held by another record in the target is skipped. */
export const PROGRAM_KIND: RecordKind = {
  kind: 'program',
  problem(line) {
    const p = line.program as TeamProgram;
    return check.first(
      check.text(line.conversationId, 'conversationId'),
      check.text(line.recordId, 'recordId'),
      typeof line.live === 'boolean' ? undefined : 'live: expected true or false',
      check.object(p, 'program'),
      check.text(p?.name, 'program.name'),
      Array.isArray(p?.versions) ? undefined : 'program.versions: expected a list',
    );
  },
  async *export(source: TransferSide, scope) {
    for (const conversationId of scope.conversations) {
      const index: ProgramIndex = await source.programs.storedIndex(conversationId);
      const records: [string, boolean][] = [...Object.values(index.live).map((id): [string, boolean] => [id, true]), ...index.removed.map((id): [string, boolean] => [id, false])];
      for (const [recordId, live] of records) {
        const program = await source.programs.record(conversationId, recordId);
        if (program) yield { kind: 'program', conversationId, recordId, live, program };
      }
    }
  },
  async import(target, line) {
    const { conversationId, recordId, live, program } = line as { conversationId: string; recordId: string; live: boolean; program: TeamProgram };
    return target.programs.restore(conversationId, recordId, program, live);
  },
};
