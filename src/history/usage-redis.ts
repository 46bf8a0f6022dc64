/**
 * The {@link UsageLedger} on Redis: one Lua script, which Redis runs atomically
 * (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/), adds to a row and to
 * the day's token counters of its channel and user, and returns both counters.
 *
 * Keys (each expires {@link USAGE_KEEP_DAYS} days after its last addition):
 * - `code-agent:usage:rows:<day>`: set of the day's rows, each `JSON([channel, user])`
 * - `code-agent:usage:row:<day>:<row>`: hash of the row's counts
 * - `code-agent:usage:channel:<day>:<channel>`, `code-agent:usage:user:<day>:<user>`: tokens of the day
 *
 * Reservations (budgets, see `usage.ts`), each script atomic too, timed by the server's clock
 * (`TIME`), so hosts whose clocks differ agree:
 * - `code-agent:usage:held:channel:<day>:<channel>`, `…:held:user:<day>:<user>`: sorted sets of the
 *   live reservations of a budget, scored by their expiry in ms; expired ones are dropped by the
 *   next reservation
 * - `code-agent:usage:holds:<day>`: hash of each reservation's tokens
 * Reserving sums a budget's spent counter and its live reservations and adds the new one to every
 * set only when it fits in all; settling adds the usage and removes the reservation in one script.
 */
import {
  USAGE_FIELDS,
  USAGE_KEEP_DAYS,
  daysBetween,
  wholeCounts,
  zeroCounts,
  type ReservationRequest,
  type ReservationResult,
  type UsageCounts,
  type UsageKey,
  type UsageLedger,
  type UsageRow,
  type UsageTotals,
} from './usage.js';

/** The part of node-redis's client used here. */
export interface RedisUsageClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  mGet(keys: string[]): Promise<(string | null)[]>;
  sMembers(key: string): Promise<string[]>;
  hGetAll(key: string): Promise<Record<string, string>>;
}

/**
 * KEYS: rows set, row hash, channel counter, user counter, channel and user reservation sets,
 * reservations hash. ARGV: row id, ttl s, tokens, reservation id to end ('' none), then field/value pairs.
 */
const ADD = `
local ttl = tonumber(ARGV[2])
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ttl)
for i = 5, #ARGV, 2 do
  if tonumber(ARGV[i + 1]) ~= 0 then redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
redis.call('EXPIRE', KEYS[2], ttl)
local c = redis.call('INCRBY', KEYS[3], ARGV[3])
local u = redis.call('INCRBY', KEYS[4], ARGV[3])
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('EXPIRE', KEYS[4], ttl)
if ARGV[4] ~= '' then
  redis.call('ZREM', KEYS[5], ARGV[4])
  redis.call('ZREM', KEYS[6], ARGV[4])
  redis.call('HDEL', KEYS[7], ARGV[4])
end
return {c, u}`;

/** The server's clock in ms (scripts may read it: Redis replicates their effects, not the script). */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS: channel counter, user counter, channel and user reservation sets, reservations hash.
 * ARGV: id, tokens, ttl ms, channel limit, user limit (-1: none), keys' ttl s.
 * Returns {1} when held, else {0, budget, limit, used, reserved} of the budget it does not fit in
 * (first one it cannot fit in even once the calls in progress settle).
 */
const RESERVE = `${NOW}
local tokens = tonumber(ARGV[2])
local budgets = {{KEYS[1], KEYS[3], tonumber(ARGV[4]), 'channel_day'}, {KEYS[2], KEYS[4], tonumber(ARGV[5]), 'user_day'}}
for _, b in ipairs(budgets) do
  if b[3] >= 0 then
    redis.call('ZREMRANGEBYSCORE', b[2], '-inf', now)
    local reserved = 0
    local ids = redis.call('ZRANGE', b[2], 0, -1)
    if #ids > 0 then
      for _, n in ipairs(redis.call('HMGET', KEYS[5], unpack(ids))) do reserved = reserved + (tonumber(n) or 0) end
    end
    b[5] = tonumber(redis.call('GET', b[1]) or '0')
    b[6] = reserved
  end
end
-- a budget the call cannot fit in even once the calls in progress settle is named first
for pass = 1, 2 do
  for _, b in ipairs(budgets) do
    if b[3] >= 0 and b[5] + (pass == 1 and 0 or b[6]) + tokens > b[3] then return {0, b[4], b[3], b[5], b[6]} end
  end
end
for _, b in ipairs(budgets) do
  if b[3] >= 0 then
    redis.call('ZADD', b[2], now + tonumber(ARGV[3]), ARGV[1])
    redis.call('EXPIRE', b[2], tonumber(ARGV[6]))
  end
end
redis.call('HSET', KEYS[5], ARGV[1], tokens)
redis.call('EXPIRE', KEYS[5], tonumber(ARGV[6]))
return {1}`;

/** KEYS: channel and user reservation sets. ARGV: id, ttl ms. Returns 1 when a live reservation was extended. */
const RENEW = `${NOW}
local renewed = 0
for i = 1, 2 do
  local expiry = tonumber(redis.call('ZSCORE', KEYS[i], ARGV[1]) or '0')
  if expiry > now then
    redis.call('ZADD', KEYS[i], 'XX', now + tonumber(ARGV[2]), ARGV[1])
    renewed = 1
  end
end
return renewed`;

/** How long reservation keys live, in s: a day and its reservations' longest life, with room. */
const HOLD_KEYS_TTL_S = 2 * 86_400;

const P = 'code-agent:usage:';

/** See the module comment. */
export class RedisUsageLedger implements UsageLedger {
  /** @param connected resolves with the store's connected client */
  constructor(private readonly connected: () => Promise<RedisUsageClient>) {}

  add(key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals> {
    return this.addEnding(key, counts, '');
  }

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    const { key } = request;
    const reply = (await (await this.connected()).eval(RESERVE, {
      keys: [...counterKeys(key), ...holdKeys(key)],
      arguments: [
        request.id,
        String(request.tokens),
        String(Math.max(1, Math.round(request.ttlMs))),
        String(request.channelLimit ?? -1),
        String(request.userLimit ?? -1),
        String(HOLD_KEYS_TTL_S),
      ],
    })) as [number, string?, number?, number?, number?];
    if (Number(reply[0]) === 1) return { held: true };
    return { held: false, budget: reply[1] === 'user_day' ? 'user_day' : 'channel_day', limit: Number(reply[2]), used: Number(reply[3]), reserved: Number(reply[4]) };
  }

  async renew(id: string, key: UsageKey, ttlMs: number): Promise<boolean> {
    const reply = await (await this.connected()).eval(RENEW, { keys: holdKeys(key).slice(0, 2), arguments: [id, String(Math.max(1, Math.round(ttlMs)))] });
    return Number(reply) === 1;
  }

  settle(id: string, key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals> {
    return this.addEnding(key, counts, id);
  }

  /** Adds `counts` and ends reservation `ending` ('' none), in one script. */
  private async addEnding(key: UsageKey, counts: Partial<UsageCounts>, ending: string): Promise<UsageTotals> {
    const add = wholeCounts(counts);
    const row = JSON.stringify([key.channel, key.user]);
    const reply = (await (await this.connected()).eval(ADD, {
      keys: [`${P}rows:${key.day}`, `${P}row:${key.day}:${row}`, ...counterKeys(key), ...holdKeys(key)],
      arguments: [row, String(USAGE_KEEP_DAYS * 86_400), String(add.promptTokens + add.completionTokens), ending, ...USAGE_FIELDS.flatMap((f) => [f, String(add[f])])],
    })) as [number, number];
    return { channelTokens: Number(reply[0]), userTokens: Number(reply[1]) };
  }

  async totals(key: UsageKey): Promise<UsageTotals> {
    const [c, u] = await (await this.connected()).mGet(counterKeys(key));
    return { channelTokens: Number(c ?? 0), userTokens: Number(u ?? 0) };
  }

  async rows(fromDay: string, toDay: string): Promise<UsageRow[]> {
    const client = await this.connected();
    const rows: UsageRow[] = [];
    for (const day of daysBetween(fromDay, toDay)) {
      for (const id of await client.sMembers(`${P}rows:${day}`)) {
        const [channel, user] = JSON.parse(id) as [string, string];
        const hash = await client.hGetAll(`${P}row:${day}:${id}`);
        const counts = zeroCounts();
        for (const f of USAGE_FIELDS) counts[f] = Number(hash[f] ?? 0);
        rows.push({ day, channel, user, ...counts });
      }
    }
    return rows;
  }
}

function counterKeys(key: UsageKey): [string, string] {
  return [`${P}channel:${key.day}:${key.channel}`, `${P}user:${key.day}:${key.user}`];
}

/** The channel's and user's reservation sets of the day, and the day's reservations hash. */
function holdKeys(key: UsageKey): [string, string, string] {
  return [`${P}held:channel:${key.day}:${key.channel}`, `${P}held:user:${key.day}:${key.user}`, `${P}holds:${key.day}`];
}
