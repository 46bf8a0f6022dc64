/**
 * Channel memory ({@link MemoryBackend}) on Redis. Adding checks the bounds and writes the entry in
 * one Lua script, and forgetting moves it to the tombstones in another; Redis runs each script
 * atomically (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/), so
 * processes sharing the store never pass a bound together.
 *
 * Keys (`<c>` is the conversation id):
 * - `code-agent:memory:seq`: the counter ids are made from (`m<n>`)
 * - `code-agent:memory:<c>:entries`: hash id → the entry's JSON (what was added)
 * - `code-agent:memory:<c>:sizes`: hash id → its bytes
 * - `code-agent:memory:<c>:live`, `…:removed`: lists of ids, oldest first
 * - `code-agent:memory:<c>:bytes`: bytes of the live entries
 * - `code-agent:memory:<c>:forgotten`: hash id → JSON `{removedBy, removedAt}`
 */
import { addedPart, fullError, MAX_TOMBSTONES, type MemoryBackend, type MemoryEntry, type MemoryLimits, type NewMemoryEntry } from './memory.js';

/** The part of node-redis's client used here. */
export interface RedisMemoryClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  lRange(key: string, start: number, stop: number): Promise<string[]>;
  hmGet(key: string, fields: string[]): Promise<(string | null)[]>;
  scan(cursor: string, options: { MATCH: string; COUNT: number }): Promise<{ cursor: string | number; keys: string[] }>;
}

/**
 * KEYS: seq, entries, sizes, live, bytes, removed, forgotten. ARGV: id, entry JSON, bytes, removal JSON ('' live).
 * Keeps the id when it is past the counter (so no other conversation has it), else takes a new one.
 */
const RESTORE = `
local id = ARGV[1]
local n = tonumber(string.sub(id, 2)) or 0
if n > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], n)
else id = 'm' .. redis.call('INCR', KEYS[1]) end
redis.call('HSET', KEYS[2], id, ARGV[2])
redis.call('HSET', KEYS[3], id, ARGV[3])
if ARGV[4] == '' then
  redis.call('RPUSH', KEYS[4], id)
  redis.call('INCRBY', KEYS[5], ARGV[3])
else
  redis.call('RPUSH', KEYS[6], id)
  redis.call('HSET', KEYS[7], id, ARGV[4])
end
return id`;

/** KEYS: seq, entries, sizes, live, bytes. ARGV: entry JSON, bytes, max entries, max bytes. */
const ADD = `
local n = redis.call('LLEN', KEYS[4])
if n >= tonumber(ARGV[3]) then return {'entries', n} end
local used = tonumber(redis.call('GET', KEYS[5]) or '0')
if used + tonumber(ARGV[2]) > tonumber(ARGV[4]) then return {'bytes', used} end
local id = 'm' .. redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], id, ARGV[1])
redis.call('HSET', KEYS[3], id, ARGV[2])
redis.call('RPUSH', KEYS[4], id)
redis.call('INCRBY', KEYS[5], ARGV[2])
return {'ok', id}`;

/** KEYS: entries, sizes, live, bytes, removed, forgotten. ARGV: id, removal JSON, tombstones kept. */
const FORGET = `
if redis.call('LREM', KEYS[3], 0, ARGV[1]) == 0 then return 0 end
redis.call('DECRBY', KEYS[4], tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0'))
redis.call('HSET', KEYS[6], ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[5], ARGV[1])
while redis.call('LLEN', KEYS[5]) > tonumber(ARGV[3]) do
  local old = redis.call('LPOP', KEYS[5])
  redis.call('HDEL', KEYS[1], old)
  redis.call('HDEL', KEYS[2], old)
  redis.call('HDEL', KEYS[6], old)
end
return 1`;

const P = 'code-agent:memory:';

function keys(conversationId: string) {
  const k = (part: string) => `${P}${conversationId}:${part}`;
  return { entries: k('entries'), sizes: k('sizes'), live: k('live'), bytes: k('bytes'), removed: k('removed'), forgotten: k('forgotten') };
}

/** See the module comment. */
export class RedisMemory implements MemoryBackend {
  /** @param connected resolves with the store's connected client */
  constructor(private readonly connected: () => Promise<RedisMemoryClient>) {}

  async add(conversationId: string, entry: NewMemoryEntry, bytes: number, limits: MemoryLimits): Promise<MemoryEntry> {
    const k = keys(conversationId);
    const reply = (await (await this.connected()).eval(ADD, {
      keys: [`${P}seq`, k.entries, k.sizes, k.live, k.bytes],
      arguments: [JSON.stringify(entry), String(bytes), String(limits.maxEntries), String(limits.maxBytes)],
    })) as [string, string | number];
    if (reply[0] === 'ok') return { ...entry, id: String(reply[1]), conversationId, bytes };
    throw fullError(conversationId, reply[0] === 'entries' ? 'entries' : 'bytes', limits, Number(reply[1]), bytes);
  }

  async list(conversationId: string, withRemoved: boolean): Promise<MemoryEntry[]> {
    const client = await this.connected();
    const k = keys(conversationId);
    const live = await client.lRange(k.live, 0, -1);
    const removed = withRemoved ? await client.lRange(k.removed, 0, -1) : [];
    const ids = [...live, ...removed].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    if (ids.length === 0) return [];
    const [bodies, sizes, forgotten] = await Promise.all([client.hmGet(k.entries, ids), client.hmGet(k.sizes, ids), client.hmGet(k.forgotten, ids)]);
    const entries: MemoryEntry[] = [];
    ids.forEach((id, i) => {
      const body = bodies[i];
      if (!body) return; // a tombstone dropped meanwhile
      const removal = removed.includes(id) && forgotten[i] ? (JSON.parse(forgotten[i]!) as { removedBy: string; removedAt: string }) : undefined;
      entries.push({ ...(JSON.parse(body) as NewMemoryEntry), id, conversationId, bytes: Number(sizes[i] ?? 0), ...(removal ?? {}) });
    });
    return entries;
  }

  async forget(conversationId: string, id: string, by: string, at: string): Promise<MemoryEntry | undefined> {
    const k = keys(conversationId);
    const client = await this.connected();
    const done = await client.eval(FORGET, {
      keys: [k.entries, k.sizes, k.live, k.bytes, k.removed, k.forgotten],
      arguments: [id.trim(), JSON.stringify({ removedBy: by, removedAt: at }), String(MAX_TOMBSTONES)],
    });
    if (Number(done) !== 1) return undefined;
    const [body, size] = await Promise.all([client.hmGet(k.entries, [id.trim()]), client.hmGet(k.sizes, [id.trim()])]);
    if (!body[0]) return undefined;
    return { ...(JSON.parse(body[0]) as NewMemoryEntry), id: id.trim(), conversationId, bytes: Number(size[0] ?? 0), removedBy: by, removedAt: at };
  }

  async restore(entry: MemoryEntry): Promise<MemoryEntry> {
    const k = keys(entry.conversationId);
    const removal = entry.removedAt !== undefined ? JSON.stringify({ removedBy: entry.removedBy ?? '', removedAt: entry.removedAt }) : '';
    const id = await (await this.connected()).eval(RESTORE, {
      keys: [`${P}seq`, k.entries, k.sizes, k.live, k.bytes, k.removed, k.forgotten],
      arguments: [entry.id, JSON.stringify(addedPart(entry)), String(entry.bytes), removal],
    });
    return { ...entry, id: String(id) };
  }

  /** Conversations with an entries hash (SCAN `code-agent:memory:*:entries`). */
  async conversations(): Promise<string[]> {
    const client = await this.connected();
    const found = new Set<string>();
    let cursor = '0';
    do {
      const page = await client.scan(cursor, { MATCH: `${P}*:entries`, COUNT: 1000 });
      cursor = String(page.cursor);
      for (const key of page.keys) found.add(key.slice(P.length, -':entries'.length));
    } while (cursor !== '0');
    return [...found];
  }
}
