/**
 * Channel memory ({@link MemoryBackend}) on SQL: a row per entry in `code_agent_memory`. An entry
 * is added by one `INSERT … SELECT … WHERE <live entries> < max AND <live bytes> + n <= max`, so the
 * bounds are checked and the row written in one statement: SQLite takes the file's write lock for
 * the whole statement (https://sqlite.org/lang_transaction.html); PostgreSQL runs it after
 * `pg_advisory_xact_lock` on the conversation in the same transaction
 * (https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS), so two
 * processes adding at once never pass a bound together. Forgetting sets `removed_by`/`removed_at`
 * (the row stays for the audit; the oldest tombstones past {@link MAX_TOMBSTONES} are dropped).
 */
import { addedPart, fullError, MAX_TOMBSTONES, type MemoryBackend, type MemoryEntry, type MemoryLimits, type NewMemoryEntry } from './memory.js';
import type { SqlRunner } from './usage-sql.js';

/** The table, for the SCHEMA of `atomic-sqlite.ts` (`INTEGER PRIMARY KEY AUTOINCREMENT`) and `atomic-postgres.ts` (`BIGSERIAL PRIMARY KEY`). */
export function memoryTable(seqColumn: string): string {
  return `
CREATE TABLE IF NOT EXISTS code_agent_memory (
  seq ${seqColumn},
  conversation_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  removed_by TEXT,
  removed_at TEXT
);
CREATE INDEX IF NOT EXISTS code_agent_memory_conversation ON code_agent_memory (conversation_id, seq);`;
}

/** Runs `fn` while no other process adds to or forgets from the same conversation's memory. */
export type ConversationLock = <T>(conversationId: string, fn: (query: SqlRunner) => Promise<T>) => Promise<T>;

interface Row {
  seq: unknown;
  conversation_id: string;
  body: string;
  bytes: unknown;
  removed_by: string | null;
  removed_at: string | null;
}

const COLUMNS = 'seq, conversation_id, body, bytes, removed_by, removed_at';

/** See the module comment. */
export class SqlMemory implements MemoryBackend {
  /**
   * @param query runs one statement (`$1…$n` placeholders)
   * @param locked runs statements under the conversation's lock (SQLite: the statement's own lock suffices)
   * @param afterExplicitId a statement run after a row was written with an id of its own (PostgreSQL:
   *   move the sequence past it; SQLite's AUTOINCREMENT does so by itself)
   */
  constructor(
    private readonly query: SqlRunner,
    private readonly locked: ConversationLock = (_, fn) => fn(query),
    private readonly afterExplicitId?: string,
  ) {}

  async restore(entry: MemoryEntry): Promise<MemoryEntry> {
    const values = [entry.conversationId, entry.kind, JSON.stringify(addedPart(entry)), entry.bytes, entry.removedBy ?? null, entry.removedAt ?? null];
    const seq = seqOf(entry.id);
    if (seq !== undefined) {
      const kept = await this.query<{ seq: unknown }>(
        `INSERT INTO code_agent_memory (seq, conversation_id, kind, body, bytes, removed_by, removed_at)
         VALUES (CAST($7 AS BIGINT), $1, $2, $3, CAST($4 AS BIGINT), $5, $6) ON CONFLICT DO NOTHING RETURNING seq`,
        [...values, seq],
      );
      if (kept.length === 1) {
        if (this.afterExplicitId) await this.query(this.afterExplicitId, []);
        return { ...entry };
      }
    }
    const [row] = await this.query<{ seq: unknown }>(
      `INSERT INTO code_agent_memory (conversation_id, kind, body, bytes, removed_by, removed_at)
       VALUES ($1, $2, $3, CAST($4 AS BIGINT), $5, $6) RETURNING seq`,
      values,
    );
    return { ...entry, id: `m${String(row?.seq)}` };
  }

  async conversations(): Promise<string[]> {
    return (await this.query<{ conversation_id: string }>('SELECT DISTINCT conversation_id FROM code_agent_memory', [])).map((r) => r.conversation_id);
  }

  async add(conversationId: string, entry: NewMemoryEntry, bytes: number, limits: MemoryLimits): Promise<MemoryEntry> {
    const body = JSON.stringify(entry);
    return this.locked(conversationId, async (query) => {
      const rows = await query<{ seq: unknown }>(
        `INSERT INTO code_agent_memory (conversation_id, kind, body, bytes)
         SELECT $1, $2, $3, CAST($4 AS BIGINT)
         WHERE (SELECT COUNT(*) FROM code_agent_memory WHERE conversation_id = $1 AND removed_at IS NULL) < CAST($5 AS BIGINT)
           AND (SELECT COALESCE(SUM(bytes), 0) FROM code_agent_memory WHERE conversation_id = $1 AND removed_at IS NULL) + CAST($4 AS BIGINT) <= CAST($6 AS BIGINT)
         RETURNING seq`,
        [conversationId, entry.kind, body, bytes, limits.maxEntries, limits.maxBytes],
      );
      const seq = rows[0]?.seq;
      if (seq !== undefined) return { ...entry, id: `m${String(seq)}`, conversationId, bytes };
      const [used] = await query<{ n: unknown; b: unknown }>(
        'SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM code_agent_memory WHERE conversation_id = $1 AND removed_at IS NULL',
        [conversationId],
      );
      const n = Number(used?.n ?? 0);
      throw n >= limits.maxEntries ? fullError(conversationId, 'entries', limits, n, bytes) : fullError(conversationId, 'bytes', limits, Number(used?.b ?? 0), bytes);
    });
  }

  async list(conversationId: string, withRemoved: boolean): Promise<MemoryEntry[]> {
    const rows = await this.query<Row>(
      `SELECT ${COLUMNS} FROM code_agent_memory WHERE conversation_id = $1${withRemoved ? '' : ' AND removed_at IS NULL'} ORDER BY seq`,
      [conversationId],
    );
    return rows.map(toEntry);
  }

  async forget(conversationId: string, id: string, by: string, at: string): Promise<MemoryEntry | undefined> {
    const seq = seqOf(id);
    if (seq === undefined) return undefined;
    return this.locked(conversationId, async (query) => {
      const rows = await query<Row>(
        `UPDATE code_agent_memory SET removed_by = $3, removed_at = $4
         WHERE conversation_id = $1 AND seq = CAST($2 AS BIGINT) AND removed_at IS NULL RETURNING ${COLUMNS}`,
        [conversationId, seq, by, at],
      );
      if (rows.length === 0) return undefined;
      await query(
        `DELETE FROM code_agent_memory WHERE conversation_id = $1 AND removed_at IS NOT NULL AND seq <= (
           SELECT seq FROM code_agent_memory WHERE conversation_id = $1 AND removed_at IS NOT NULL ORDER BY seq DESC LIMIT 1 OFFSET CAST($2 AS BIGINT))`,
        [conversationId, MAX_TOMBSTONES],
      );
      return toEntry(rows[0]!);
    });
  }
}

/** The row number an id names (`m12` → 12), or undefined for anything else. */
export function seqOf(id: string): number | undefined {
  const m = /^m([1-9]\d{0,15})$/.exec(id.trim());
  return m ? Number(m[1]) : undefined;
}

function toEntry(row: Row): MemoryEntry {
  const body = JSON.parse(row.body) as NewMemoryEntry;
  return {
    ...body,
    id: `m${String(row.seq)}`,
    conversationId: row.conversation_id,
    bytes: Number(row.bytes),
    ...(row.removed_at !== null ? { removedAt: row.removed_at, removedBy: row.removed_by ?? '' } : {}),
  };
}
