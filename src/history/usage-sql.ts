/**
 * The {@link UsageLedger} on SQL (PostgreSQL with `pg`, SQLite with `sqlite3`): a row per day,
 * channel and user in `code_agent_usage`, added to by one upsert
 * (`INSERT … ON CONFLICT (day, channel, user_id) DO UPDATE SET n = n + excluded.n`), which both
 * databases run atomically (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT,
 * https://sqlite.org/lang_upsert.html). The table is created with the store's other tables.
 */
import { USAGE_FIELDS, USAGE_KEEP_DAYS, utcDay, wholeCounts, type UsageCounts, type UsageKey, type UsageLedger, type UsageRow, type UsageTotals } from './usage.js';

/** Column of each count. */
const COLUMNS: Record<keyof UsageCounts, string> = {
  runs: 'runs',
  llmCalls: 'llm_calls',
  promptTokens: 'prompt_tokens',
  completionTokens: 'completion_tokens',
  llmMs: 'llm_ms',
  executions: 'executions',
  cpuMs: 'cpu_ms',
  toolCalls: 'tool_calls',
};

/** The table, for the SCHEMA of `atomic-postgres.ts` and `atomic-sqlite.ts` (`BIGINT` is a 64-bit integer in both). */
export const USAGE_TABLE = `
CREATE TABLE IF NOT EXISTS code_agent_usage (
  day TEXT NOT NULL,
  channel TEXT NOT NULL,
  user_id TEXT NOT NULL,
  ${USAGE_FIELDS.map((f) => `${COLUMNS[f]} BIGINT NOT NULL DEFAULT 0`).join(',\n  ')},
  PRIMARY KEY (day, channel, user_id)
);
CREATE INDEX IF NOT EXISTS code_agent_usage_user ON code_agent_usage (day, user_id);`;

/** Runs one statement; `$1…$n` placeholders (turned into `?` for SQLite by the caller). */
export type SqlRunner = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** See the module comment. */
export class SqlUsageLedger implements UsageLedger {
  /** @param query runs a statement and returns its rows (none for an upsert) */
  constructor(private readonly query: SqlRunner) {}

  async add(key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals> {
    const add = wholeCounts(counts);
    const cols = USAGE_FIELDS.map((f) => COLUMNS[f]);
    await this.query(
      `INSERT INTO code_agent_usage (day, channel, user_id, ${cols.join(', ')})
       VALUES ($1, $2, $3, ${cols.map((_, i) => `$${i + 4}`).join(', ')})
       ON CONFLICT (day, channel, user_id) DO UPDATE SET ${cols.map((c) => `${c} = code_agent_usage.${c} + excluded.${c}`).join(', ')}`,
      [key.day, key.channel, key.user, ...USAGE_FIELDS.map((f) => add[f])],
    );
    if (Math.random() < 0.01) {
      await this.query('DELETE FROM code_agent_usage WHERE day < $1', [utcDay(Date.now() - USAGE_KEEP_DAYS * 86_400_000)]);
    }
    return this.totals(key);
  }

  async totals(key: UsageKey): Promise<UsageTotals> {
    const rows = await this.query<{ c: unknown; u: unknown }>(
      `SELECT COALESCE(SUM(CASE WHEN channel = $2 THEN prompt_tokens + completion_tokens ELSE 0 END), 0) AS c,
              COALESCE(SUM(CASE WHEN user_id = $3 THEN prompt_tokens + completion_tokens ELSE 0 END), 0) AS u
       FROM code_agent_usage WHERE day = $1 AND (channel = $2 OR user_id = $3)`,
      [key.day, key.channel, key.user],
    );
    return { channelTokens: Number(rows[0]?.c ?? 0), userTokens: Number(rows[0]?.u ?? 0) };
  }

  async rows(fromDay: string, toDay: string): Promise<UsageRow[]> {
    const rows = await this.query<Record<string, unknown>>(
      `SELECT day, channel, user_id, ${USAGE_FIELDS.map((f) => COLUMNS[f]).join(', ')} FROM code_agent_usage WHERE day >= $1 AND day <= $2`,
      [fromDay, toDay],
    );
    return rows.map((r) => {
      const row = { day: String(r.day), channel: String(r.channel), user: String(r.user_id) } as UsageRow;
      for (const f of USAGE_FIELDS) row[f] = Number(r[COLUMNS[f]] ?? 0);
      return row;
    });
  }
}
