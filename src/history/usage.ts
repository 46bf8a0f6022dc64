/**
 * The usage ledger: what runs spent (LLM tokens and time, sandbox CPU, tool calls), added up per
 * UTC day, channel and user in the shared store, so that `code-agent usage`, `/usage` and the
 * budgets (src/usage/budgets.ts) read the same numbers in every process. Each addition is one
 * atomic operation of the backend (see `atomic-*.ts`): processes adding at once never lose one.
 */

/** What one row of the ledger counts. Times are whole milliseconds; tokens as the LLM reported them. */
export interface UsageCounts {
  /** Runs started (a run's first turn). */
  runs: number;
  /** LLM calls made (code, checks, review, agreement). */
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Time spent waiting for LLM replies, in ms. */
  llmMs: number;
  /** Programs executed in the sandbox. */
  executions: number;
  /** CPU time the sandboxed programs used, in ms (0 where no cgroup measures it). */
  cpuMs: number;
  /** Tool calls the programs made through the broker. */
  toolCalls: number;
}

/** The counts' names, in the order the backends store them. */
export const USAGE_FIELDS = ['runs', 'llmCalls', 'promptTokens', 'completionTokens', 'llmMs', 'executions', 'cpuMs', 'toolCalls'] as const satisfies readonly (keyof UsageCounts)[];

/** Where usage is counted: a UTC day and who spent it. */
export interface UsageKey {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The channel's key, platform included (e.g. `slack:T1:C1`, `discord:G1:C1`, `cli:local`). */
  channel: string;
  /** The user's key, platform included (e.g. `slack:T1:U1`, `discord:user:42`). */
  user: string;
}

/** One row of the ledger. */
export type UsageRow = UsageKey & UsageCounts;

/** LLM tokens (prompt + completion) spent on one day by a channel and by a user. */
export interface UsageTotals {
  channelTokens: number;
  userTokens: number;
}

/** Which daily budget: a channel's or a user's. */
export type BudgetName = 'channel_day' | 'user_day';

/**
 * A reservation of an LLM call's most tokens against the daily budgets of its channel and user,
 * made before the call and settled to its real usage after it (see `src/usage/reservations.ts`).
 */
export interface ReservationRequest {
  /** Unique among reservations (a random id). */
  id: string;
  key: UsageKey;
  /** The most tokens the call can spend (prompt + longest reply), a whole positive number. */
  tokens: number;
  /** The channel's daily budget in tokens; undefined: none. */
  channelLimit?: number;
  /** The user's daily budget in tokens; undefined: none. */
  userLimit?: number;
  /** How long the reservation holds unless renewed or settled, in ms (a crashed process's expire then). */
  ttlMs: number;
}

/** What a reservation got: held, or refused by the first budget it does not fit in. */
export type ReservationResult =
  | { held: true }
  | {
      held: false;
      budget: BudgetName;
      limit: number;
      /** Tokens spent today (settled calls). */
      used: number;
      /** Tokens held today by other calls in progress. */
      reserved: number;
    };

/** How long the ledger keeps a day, in days (older rows are removed now and then). */
export const USAGE_KEEP_DAYS = 400;

/** The ledger of a store. Every method may throw the store's errors. */
export interface UsageLedger {
  /**
   * Adds `counts` to the row of `key`, atomically across processes.
   * @returns the day's token totals of the key's channel and user, this addition included
   */
  add(key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals>;
  /** The day's token totals of a channel and a user. */
  totals(key: UsageKey): Promise<UsageTotals>;
  /** Every row from `fromDay` to `toDay` (both `YYYY-MM-DD`, inclusive), in no particular order. */
  rows(fromDay: string, toDay: string): Promise<UsageRow[]>;
  /**
   * Reserves `tokens` against every budget given, atomically across processes and all-or-nothing:
   * held when, for each budget, the day's spent tokens + the live reservations + `tokens` ≤ its
   * limit; else nothing is held. Expired reservations count for nothing.
   */
  reserve(request: ReservationRequest): Promise<ReservationResult>;
  /**
   * Extends a live reservation to `ttlMs` from now.
   * @returns false when it is gone (settled, or expired first)
   */
  renew(id: string, key: UsageKey, ttlMs: number): Promise<boolean>;
  /**
   * Ends a reservation and adds `counts` (the call's real usage; none for a failed call) to the
   * row of `key`. The usage is added before the reservation ends, so the tokens are never counted
   * by neither. A reservation that is gone already is ignored; the usage is added all the same.
   * @returns the day's token totals of the key's channel and user, this addition included
   */
  settle(id: string, key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals>;
}

/** All counts zero. */
export function zeroCounts(): UsageCounts {
  return { runs: 0, llmCalls: 0, promptTokens: 0, completionTokens: 0, llmMs: 0, executions: 0, cpuMs: 0, toolCalls: 0 };
}

/** `counts` with every field present, each a non-negative whole number. */
export function wholeCounts(counts: Partial<UsageCounts>): UsageCounts {
  const out = zeroCounts();
  for (const f of USAGE_FIELDS) out[f] = Math.max(0, Math.round(counts[f] ?? 0));
  return out;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(at: Date | number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The UTC days from `fromDay` to `toDay`, inclusive (at most {@link USAGE_KEEP_DAYS}). */
export function daysBetween(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${toDay}T00:00:00Z`);
  for (let t = Date.parse(`${fromDay}T00:00:00Z`); t <= end && days.length < USAGE_KEEP_DAYS; t += 86_400_000) days.push(utcDay(t));
  return days;
}

/** A ledger in one process (a Map-backed store in tests and benches; the terminal without a shared store). */
export class MemoryUsageLedger implements UsageLedger {
  private readonly table = new Map<string, UsageRow>();
  private readonly holds = new Map<string, { key: UsageKey; tokens: number; until: number }>();

  async add(key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals> {
    const id = JSON.stringify([key.day, key.channel, key.user]);
    const row = this.table.get(id) ?? { ...key, ...zeroCounts() };
    const add = wholeCounts(counts);
    for (const f of USAGE_FIELDS) row[f] += add[f];
    this.table.set(id, row);
    return this.totals(key);
  }

  async totals(key: UsageKey): Promise<UsageTotals> {
    let channelTokens = 0;
    let userTokens = 0;
    for (const r of this.table.values()) {
      if (r.day !== key.day) continue;
      if (r.channel === key.channel) channelTokens += r.promptTokens + r.completionTokens;
      if (r.user === key.user) userTokens += r.promptTokens + r.completionTokens;
    }
    return { channelTokens, userTokens };
  }

  async rows(fromDay: string, toDay: string): Promise<UsageRow[]> {
    return [...this.table.values()].filter((r) => r.day >= fromDay && r.day <= toDay).map((r) => ({ ...r }));
  }

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    const now = Date.now();
    const { key } = request;
    const spent = await this.totals(key);
    let channelHeld = 0;
    let userHeld = 0;
    for (const [id, h] of this.holds) {
      if (h.until <= now) this.holds.delete(id);
      else if (h.key.day === key.day) {
        if (h.key.channel === key.channel) channelHeld += h.tokens;
        if (h.key.user === key.user) userHeld += h.tokens;
      }
    }
    const refused = firstRefusal(request, spent, { channelTokens: channelHeld, userTokens: userHeld });
    if (refused) return refused;
    this.holds.set(request.id, { key, tokens: request.tokens, until: now + request.ttlMs });
    return { held: true };
  }

  async renew(id: string, _key: UsageKey, ttlMs: number): Promise<boolean> {
    const h = this.holds.get(id);
    if (!h || h.until <= Date.now()) return false;
    h.until = Date.now() + ttlMs;
    return true;
  }

  async settle(id: string, key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals> {
    const totals = await this.add(key, counts);
    this.holds.delete(id);
    return totals;
  }
}

/**
 * The budget of `request` that its tokens do not fit in, given the day's `spent` and `reserved`
 * tokens of its channel and user: first one they cannot fit in even once the calls in progress
 * settle, else the first one they do not fit in now; undefined when they fit in every one.
 */
export function firstRefusal(request: ReservationRequest, spent: UsageTotals, reserved: UsageTotals): ReservationResult | undefined {
  const budgets: [BudgetName, number | undefined, keyof UsageTotals][] = [
    ['channel_day', request.channelLimit, 'channelTokens'],
    ['user_day', request.userLimit, 'userTokens'],
  ];
  for (const counting of [{ channelTokens: 0, userTokens: 0 }, reserved]) {
    for (const [budget, limit, field] of budgets) {
      if (limit !== undefined && spent[field] + counting[field] + request.tokens > limit) {
        return { held: false, budget, limit, used: spent[field], reserved: reserved[field] };
      }
    }
  }
  return undefined;
}
