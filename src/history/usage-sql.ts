/**
 * The {@link UsageLedger} on SQL (PostgreSQL with `pg`, SQLite with `sqlite3`): a row per day,
 * channel and user in `code_agent_usage`, added to by one upsert
 * (`INSERT … ON CONFLICT (day, channel, user_id) DO UPDATE SET n = n + excluded.n`), which both
 * databases run atomically (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT,
 * https://sqlite.org/lang_upsert.html). The tables are created with the store's other tables.
 *
 * Reservations (budgets, see `usage.ts`) are rows of `code_agent_usage_holds`, expiring by the
 * database's clock (ms since the epoch). A reservation is one `INSERT … SELECT … WHERE` that adds
 * the row only when the day's spent tokens + live reservations + its tokens fit in each budget.
 * SQLite runs a writing statement under the file's write lock from its start, so one statement is
 * atomic across processes (https://sqlite.org/lockingv3.html); PostgreSQL runs it in a transaction
 * that first takes an advisory lock per budget (`pg_advisory_xact_lock`,
 * https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS), so reservations
 * against one budget run one after another, each reading what the one before committed.
 */
import {
  USAGE_FIELDS,
  USAGE_KEEP_DAYS,
  firstRefusal,
  utcDay,
  wholeCounts,
  type ReservationRequest,
  type ReservationResult,
  type UsageCounts,
  type UsageKey,
  type UsageLedger,
  type UsageRow,
  type UsageTotals,
} from './usage.js';

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
CREATE INDEX IF NOT EXISTS code_agent_usage_user ON code_agent_usage (day, user_id);
CREATE TABLE IF NOT EXISTS code_agent_usage_holds (
  id TEXT PRIMARY KEY,
  day TEXT NOT NULL,
  channel TEXT NOT NULL,
  user_id TEXT NOT NULL,
  tokens BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS code_agent_usage_holds_channel ON code_agent_usage_holds (day, channel);
CREATE INDEX IF NOT EXISTS code_agent_usage_holds_user ON code_agent_usage_holds (day, user_id);`;

/** Runs one statement; `$1…$n` placeholders (turned into `?` for SQLite by the caller). */
export type SqlRunner = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** What differs between the databases. */
export interface SqlDialect {
  /** An SQL expression of the database's clock, in whole ms since the epoch. */
  nowMs: string;
  /**
   * Runs `fn` so that no other process runs a reservation under any of `locks` meanwhile (see the
   * module comment), with the runner `fn` must use.
   */
  serialized<T>(locks: string[], fn: (query: SqlRunner) => Promise<T>): Promise<T>;
}

/** See the module comment. */
export class SqlUsageLedger implements UsageLedger {
  /**
   * @param query runs a statement and returns its rows (none for an upsert)
   * @param dialect the database's clock and how reservations are serialized
   */
  constructor(
    private readonly query: SqlRunner,
    private readonly dialect: SqlDialect,
  ) {}

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

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    const { key } = request;
    const now = this.dialect.nowMs;
    const params: unknown[] = [request.id, key.day, key.channel, key.user, request.tokens, Math.max(1, Math.round(request.ttlMs))];
    const fits: string[] = [];
    for (const [limit, column, keyParam] of [[request.channelLimit, 'channel', 3], [request.userLimit, 'user_id', 4]] as const) {
      if (limit === undefined) continue;
      params.push(limit);
      fits.push(
        `(SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) FROM code_agent_usage WHERE day = $2 AND ${column} = $${keyParam})
         + (SELECT COALESCE(SUM(tokens), 0) FROM code_agent_usage_holds WHERE day = $2 AND ${column} = $${keyParam} AND expires_at > ${now})
         + CAST($5 AS BIGINT) <= CAST($${params.length} AS BIGINT)`,
      );
    }
    const locks = [`code-agent:budget:channel:${key.day}:${key.channel}`, `code-agent:budget:user:${key.day}:${key.user}`];
    return this.dialect.serialized(locks, async (query) => {
      const held = await query(
        `INSERT INTO code_agent_usage_holds (id, day, channel, user_id, tokens, expires_at)
         SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT), CAST($5 AS BIGINT), ${now} + CAST($6 AS BIGINT)
         WHERE ${fits.length ? fits.join('\n AND ') : '1 = 1'}
         RETURNING id`,
        params,
      );
      if (held.length === 1) return { held: true } as const;
      const [row] = await query<Record<string, unknown>>(
        `SELECT (SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) FROM code_agent_usage WHERE day = $1 AND channel = $2) AS cu,
                (SELECT COALESCE(SUM(tokens), 0) FROM code_agent_usage_holds WHERE day = $1 AND channel = $2 AND expires_at > ${now}) AS ch,
                (SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) FROM code_agent_usage WHERE day = $1 AND user_id = $3) AS uu,
                (SELECT COALESCE(SUM(tokens), 0) FROM code_agent_usage_holds WHERE day = $1 AND user_id = $3 AND expires_at > ${now}) AS uh`,
        [key.day, key.channel, key.user],
      );
      const spent = { channelTokens: Number(row?.cu ?? 0), userTokens: Number(row?.uu ?? 0) };
      const reserved = { channelTokens: Number(row?.ch ?? 0), userTokens: Number(row?.uh ?? 0) };
      // what was read after the refusal may fit by now (a call settled meanwhile): it was refused all the same
      return (
        firstRefusal(request, spent, reserved) ??
        (request.channelLimit !== undefined
          ? { held: false, budget: 'channel_day', limit: request.channelLimit, used: spent.channelTokens, reserved: reserved.channelTokens }
          : { held: false, budget: 'user_day', limit: request.userLimit ?? 0, used: spent.userTokens, reserved: reserved.userTokens })
      );
    });
  }

  async renew(id: string, _key: UsageKey, ttlMs: number): Promise<boolean> {
    const now = this.dialect.nowMs;
    const rows = await this.query(
      `UPDATE code_agent_usage_holds SET expires_at = ${now} + CAST($2 AS BIGINT) WHERE id = $1 AND expires_at > ${now} RETURNING id`,
      [id, Math.max(1, Math.round(ttlMs))],
    );
    return rows.length === 1;
  }

  async settle(id: string, key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals> {
    // the usage first: in between, the tokens count twice (a reservation may be refused), never zero times
    const totals = await this.add(key, counts);
    await this.query('DELETE FROM code_agent_usage_holds WHERE id = $1', [id]);
    if (Math.random() < 0.01) await this.query(`DELETE FROM code_agent_usage_holds WHERE expires_at <= ${this.dialect.nowMs}`, []);
    return totals;
  }
}
