/**
 * Schedules ({@link ScheduleBackend}) on SQL: a row per schedule in `code_agent_schedules`, its
 * definition (`body`, written once) apart from its status (`status`: the ticks' state and the
 * pause, written after every tick). A schedule is added by one
 * `INSERT … SELECT … WHERE <the conversation's schedules> < max`, so the bound is checked and the
 * row written in one statement: SQLite takes the file's write lock for the whole statement;
 * PostgreSQL runs it after `pg_advisory_xact_lock` on the conversation in the same transaction
 * (as the channel memory does: `memory-sql.ts`). Ids are `s<seq>`; an import writes the id it
 * was given when it is free (PostgreSQL then moves its sequence past it: `afterExplicitId`).
 */
import type { Schedule } from './programs.js';
import { changedStatus, joinSchedule, scheduleFullError, scheduleSeq, splitSchedule, type NewSchedule, type ScheduleBackend, type ScheduleChange, type ScheduleLimits } from './schedules.js';
import type { SqlRunner } from './usage-sql.js';
import type { ConversationLock } from './memory-sql.js';

/** The table, for the SCHEMA of `atomic-sqlite.ts` (`INTEGER PRIMARY KEY AUTOINCREMENT`) and `atomic-postgres.ts` (`BIGSERIAL PRIMARY KEY`). */
export function schedulesTable(seqColumn: string): string {
  return `
CREATE TABLE IF NOT EXISTS code_agent_schedules (
  seq ${seqColumn},
  conversation_id TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS code_agent_schedules_conversation ON code_agent_schedules (conversation_id, seq);`;
}

interface Row {
  seq: unknown;
  body: string;
  status: string;
}

/** See the module comment. */
export class SqlSchedules implements ScheduleBackend {
  /**
   * @param query runs one statement (`$1…$n` placeholders)
   * @param locked runs statements under the conversation's lock (SQLite: the statement's own lock suffices)
   */
  constructor(
    private readonly query: SqlRunner,
    private readonly locked: ConversationLock = (_, fn) => fn(query),
    private readonly afterExplicitId?: string,
  ) {}

  async add(schedule: NewSchedule, limits: ScheduleLimits): Promise<Schedule> {
    const { body, status } = splitSchedule(schedule);
    const c = schedule.conversationId;
    return this.locked(`schedules:${c}`, async (query) => {
      const rows = await query<{ seq: unknown }>(
        `INSERT INTO code_agent_schedules (conversation_id, body, status)
         SELECT $1, $2, $3
         WHERE (SELECT COUNT(*) FROM code_agent_schedules WHERE conversation_id = $1) < CAST($4 AS BIGINT)
         RETURNING seq`,
        [c, body, status, limits.maxPerConversation],
      );
      const seq = rows[0]?.seq;
      if (seq !== undefined) return joinSchedule(`s${String(seq)}`, body, status);
      const [used] = await query<{ n: unknown }>('SELECT COUNT(*) AS n FROM code_agent_schedules WHERE conversation_id = $1', [c]);
      throw scheduleFullError(c, limits, Number(used?.n ?? 0));
    });
  }

  async list(conversationId: string): Promise<Schedule[]> {
    const rows = await this.query<Row>('SELECT seq, body, status FROM code_agent_schedules WHERE conversation_id = $1 ORDER BY seq', [conversationId]);
    return rows.map(toSchedule);
  }

  async get(conversationId: string, id: string): Promise<Schedule | undefined> {
    const seq = scheduleSeq(id);
    if (seq === undefined) return undefined;
    const rows = await this.query<Row>('SELECT seq, body, status FROM code_agent_schedules WHERE conversation_id = $1 AND seq = CAST($2 AS BIGINT)', [conversationId, seq]);
    return rows[0] ? toSchedule(rows[0]) : undefined;
  }

  async update(conversationId: string, id: string, change: ScheduleChange): Promise<Schedule | undefined> {
    const current = await this.get(conversationId, id);
    if (!current) return undefined;
    const rows = await this.query<Row>(
      'UPDATE code_agent_schedules SET status = $3 WHERE conversation_id = $1 AND seq = CAST($2 AS BIGINT) RETURNING seq, body, status',
      [conversationId, scheduleSeq(id), changedStatus(current, change)],
    );
    return rows[0] ? toSchedule(rows[0]) : undefined;
  }

  async remove(conversationId: string, id: string): Promise<Schedule | undefined> {
    const seq = scheduleSeq(id);
    if (seq === undefined) return undefined;
    const rows = await this.query<Row>('DELETE FROM code_agent_schedules WHERE conversation_id = $1 AND seq = CAST($2 AS BIGINT) RETURNING seq, body, status', [conversationId, seq]);
    return rows[0] ? toSchedule(rows[0]) : undefined;
  }

  async restore(schedule: Schedule): Promise<Schedule> {
    const { body, status } = splitSchedule(schedule);
    const seq = scheduleSeq(schedule.id);
    if (seq !== undefined) {
      const kept = await this.query<Row>(
        'INSERT INTO code_agent_schedules (seq, conversation_id, body, status) VALUES (CAST($1 AS BIGINT), $2, $3, $4) ON CONFLICT DO NOTHING RETURNING seq, body, status',
        [seq, schedule.conversationId, body, status],
      );
      if (kept[0]) {
        if (this.afterExplicitId) await this.query(this.afterExplicitId, []);
        return toSchedule(kept[0]);
      }
    }
    const [row] = await this.query<Row>('INSERT INTO code_agent_schedules (conversation_id, body, status) VALUES ($1, $2, $3) RETURNING seq, body, status', [schedule.conversationId, body, status]);
    return toSchedule(row!);
  }

  async all(): Promise<Schedule[]> {
    return (await this.query<Row>('SELECT seq, body, status FROM code_agent_schedules ORDER BY seq', [])).map(toSchedule);
  }
}

function toSchedule(row: Row): Schedule {
  return joinSchedule(`s${String(row.seq)}`, row.body, row.status);
}
