/**
 * Schedules ({@link ScheduleBackend}) on Redis. Adding checks the bound and writes in one Lua
 * script, removing and updating in others; Redis runs each script atomically
 * (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/), so processes sharing
 * the store never pass the bound together and an update never brings back a removed schedule.
 *
 * Keys (`<c>` is the conversation id):
 * - `code-agent:schedules:seq`: the counter ids are made from (`s<n>`)
 * - `code-agent:schedules:all`: hash id → conversation id (every schedule of the store)
 * - `code-agent:schedules:<c>:ids`: list of ids, oldest first
 * - `code-agent:schedules:<c>:body`, `…:status`: hashes id → the definition's JSON, the status's JSON
 */
import type { Schedule } from './programs.js';
import { changedStatus, joinSchedule, scheduleFullError, splitSchedule, type NewSchedule, type ScheduleBackend, type ScheduleChange, type ScheduleLimits } from './schedules.js';

/** The part of node-redis's client used here. */
export interface RedisSchedulesClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  lRange(key: string, start: number, stop: number): Promise<string[]>;
  hmGet(key: string, fields: string[]): Promise<(string | null)[]>;
  hGetAll(key: string): Promise<Record<string, string>>;
}

/** KEYS: seq, all, ids, body, status. ARGV: conversation, body, status, max. */
const ADD = `
local n = redis.call('LLEN', KEYS[3])
if n >= tonumber(ARGV[4]) then return {'full', n} end
local id = 's' .. redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], id, ARGV[1])
redis.call('RPUSH', KEYS[3], id)
redis.call('HSET', KEYS[4], id, ARGV[2])
redis.call('HSET', KEYS[5], id, ARGV[3])
return {'ok', id}`;

/** KEYS: all, ids, body, status. ARGV: id, conversation. Returns {body, status} or nothing. */
const REMOVE = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return nil end
local body = redis.call('HGET', KEYS[3], ARGV[1])
local status = redis.call('HGET', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('LREM', KEYS[2], 0, ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return {body, status}`;

/** KEYS: all, status. ARGV: id, conversation, status. Writes only while the schedule is there. */
const UPDATE = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1`;

/** KEYS: seq, all, ids, body, status. ARGV: wanted id, conversation, body, status. Returns the id written. */
const RESTORE = `
local id = ARGV[1]
local n = tonumber(string.sub(id, 2))
if n == nil or redis.call('HEXISTS', KEYS[2], id) == 1 then id = 's' .. redis.call('INCR', KEYS[1])
elseif n > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], n) end
redis.call('HSET', KEYS[2], id, ARGV[2])
redis.call('RPUSH', KEYS[3], id)
redis.call('HSET', KEYS[4], id, ARGV[3])
redis.call('HSET', KEYS[5], id, ARGV[4])
return id`;

const P = 'code-agent:schedules:';
const keys = (c: string) => ({ ids: `${P}${c}:ids`, body: `${P}${c}:body`, status: `${P}${c}:status` });

/** See the module comment. */
export class RedisSchedules implements ScheduleBackend {
  /** @param connected resolves with the store's connected client */
  constructor(private readonly connected: () => Promise<RedisSchedulesClient>) {}

  async add(schedule: NewSchedule, limits: ScheduleLimits): Promise<Schedule> {
    const c = schedule.conversationId;
    const k = keys(c);
    const { body, status } = splitSchedule(schedule);
    const reply = (await (await this.connected()).eval(ADD, {
      keys: [`${P}seq`, `${P}all`, k.ids, k.body, k.status],
      arguments: [c, body, status, String(limits.maxPerConversation)],
    })) as [string, string | number];
    if (reply[0] === 'ok') return joinSchedule(String(reply[1]), body, status);
    throw scheduleFullError(c, limits, Number(reply[1]));
  }

  async list(conversationId: string): Promise<Schedule[]> {
    const client = await this.connected();
    const k = keys(conversationId);
    const ids = await client.lRange(k.ids, 0, -1);
    return this.read(client, conversationId, ids);
  }

  async get(conversationId: string, id: string): Promise<Schedule | undefined> {
    return (await this.read(await this.connected(), conversationId, [id.trim()]))[0];
  }

  async update(conversationId: string, id: string, change: ScheduleChange): Promise<Schedule | undefined> {
    const current = await this.get(conversationId, id);
    if (!current) return undefined;
    const status = changedStatus(current, change);
    const done = await (await this.connected()).eval(UPDATE, { keys: [`${P}all`, keys(conversationId).status], arguments: [current.id, conversationId, status] });
    if (Number(done) !== 1) return undefined;
    const { state: _state, paused: _paused, id: _id, ...body } = current;
    return joinSchedule(current.id, JSON.stringify(body), status);
  }

  async remove(conversationId: string, id: string): Promise<Schedule | undefined> {
    const k = keys(conversationId);
    const reply = (await (await this.connected()).eval(REMOVE, { keys: [`${P}all`, k.ids, k.body, k.status], arguments: [id.trim(), conversationId] })) as [string, string] | null;
    return reply ? joinSchedule(id.trim(), reply[0], reply[1]) : undefined;
  }

  async restore(schedule: Schedule): Promise<Schedule> {
    const c = schedule.conversationId;
    const k = keys(c);
    const { body, status } = splitSchedule(schedule);
    const wanted = /^s[1-9]\d{0,15}$/.test(schedule.id) ? schedule.id : '';
    const id = await (await this.connected()).eval(RESTORE, { keys: [`${P}seq`, `${P}all`, k.ids, k.body, k.status], arguments: [wanted, c, body, status] });
    return joinSchedule(String(id), body, status);
  }

  async all(): Promise<Schedule[]> {
    const client = await this.connected();
    const owners = await client.hGetAll(`${P}all`);
    const byConversation = new Map<string, string[]>();
    for (const [id, c] of Object.entries(owners)) byConversation.set(c, [...(byConversation.get(c) ?? []), id]);
    const out: Schedule[] = [];
    for (const [c, ids] of byConversation) out.push(...(await this.read(client, c, ids)));
    return out.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  }

  private async read(client: RedisSchedulesClient, conversationId: string, ids: string[]): Promise<Schedule[]> {
    if (ids.length === 0) return [];
    const k = keys(conversationId);
    const [bodies, statuses] = await Promise.all([client.hmGet(k.body, ids), client.hmGet(k.status, ids)]);
    const out: Schedule[] = [];
    ids.forEach((id, i) => {
      if (bodies[i] && statuses[i]) out.push(joinSchedule(id, bodies[i]!, statuses[i]!));
    });
    return out;
  }
}
