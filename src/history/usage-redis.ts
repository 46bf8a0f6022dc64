/**
 * The {@link UsageLedger} on Redis: one Lua script, which Redis runs atomically
 * (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/), adds to a row and to
 * the day's token counters of its channel and user, and returns both counters.
 *
 * Keys (each expires {@link USAGE_KEEP_DAYS} days after its last addition):
 * - `code-agent:usage:rows:<day>`: set of the day's rows, each `JSON([channel, user])`
 * - `code-agent:usage:row:<day>:<row>`: hash of the row's counts
 * - `code-agent:usage:channel:<day>:<channel>`, `code-agent:usage:user:<day>:<user>`: tokens of the day
 */
import { USAGE_FIELDS, USAGE_KEEP_DAYS, daysBetween, wholeCounts, zeroCounts, type UsageCounts, type UsageKey, type UsageLedger, type UsageRow, type UsageTotals } from './usage.js';

/** The part of node-redis's client used here. */
export interface RedisUsageClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  mGet(keys: string[]): Promise<(string | null)[]>;
  sMembers(key: string): Promise<string[]>;
  hGetAll(key: string): Promise<Record<string, string>>;
}

/** KEYS: rows set, row hash, channel counter, user counter. ARGV: row id, ttl s, tokens, then field/value pairs. */
const ADD = `
local ttl = tonumber(ARGV[2])
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ttl)
for i = 4, #ARGV, 2 do
  if tonumber(ARGV[i + 1]) ~= 0 then redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
redis.call('EXPIRE', KEYS[2], ttl)
local c = redis.call('INCRBY', KEYS[3], ARGV[3])
local u = redis.call('INCRBY', KEYS[4], ARGV[3])
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('EXPIRE', KEYS[4], ttl)
return {c, u}`;

const P = 'code-agent:usage:';

/** See the module comment. */
export class RedisUsageLedger implements UsageLedger {
  /** @param connected resolves with the store's connected client */
  constructor(private readonly connected: () => Promise<RedisUsageClient>) {}

  async add(key: UsageKey, counts: Partial<UsageCounts>): Promise<UsageTotals> {
    const add = wholeCounts(counts);
    const row = JSON.stringify([key.channel, key.user]);
    const reply = (await (await this.connected()).eval(ADD, {
      keys: [`${P}rows:${key.day}`, `${P}row:${key.day}:${row}`, ...counterKeys(key)],
      arguments: [row, String(USAGE_KEEP_DAYS * 86_400), String(add.promptTokens + add.completionTokens), ...USAGE_FIELDS.flatMap((f) => [f, String(add[f])])],
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
