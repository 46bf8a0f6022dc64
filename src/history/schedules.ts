/**
 * Schedules as the history store keeps them (the types: `programs.ts`). Per conversation, never
 * shared across conversations: every read and write names the conversation, and an id of another
 * conversation is not found. Bounded per conversation ({@link ScheduleLimits}); adding checks the
 * bound and writes in one atomic step of the backend (`schedules-sql.ts` for SQLite and PostgreSQL,
 * `schedules-redis.ts`), so processes sharing a store never pass it together. Ids are short and
 * unique in the store (`s3`). A schedule's definition is written once; its state (what its ticks
 * did, whether it is paused) is written after every tick, apart from it.
 *
 * The scheduler lists every schedule of the store at start ({@link ScheduleBackend.all}).
 */
import type { Schedule, ScheduleState } from './programs.js';

/** A schedule to add (the store gives it its id). */
export type NewSchedule = Omit<Schedule, 'id'>;

/** What a tick changes of a schedule: its state, and its pause (null: not paused any more). */
export interface ScheduleChange {
  state: ScheduleState;
  paused?: { reason: string; at: string } | null;
}

/** Bounds of one conversation's schedules. */
export interface ScheduleLimits {
  /** Most schedules per conversation (`schedules.max_per_channel`). */
  maxPerConversation: number;
}

/** Default: 20 schedules per conversation. */
export const DEFAULT_SCHEDULE_LIMITS: ScheduleLimits = { maxPerConversation: 20 };

/** Largest schedule definition, in bytes of JSON (a `when`, a condition and parameters fit easily). */
export const MAX_SCHEDULE_BYTES = 16 * 1024;

/** A conversation holds as many schedules as it may: nothing was added. `message` names the bound. */
export class ScheduleFullError extends Error {
  override name = 'ScheduleFullError';
}

/** The refusal of a schedule past the bound, naming its config key and what to do. */
export function scheduleFullError(conversationId: string, limits: ScheduleLimits, used: number): ScheduleFullError {
  return new ScheduleFullError(
    `${conversationId} has ${used} schedules, the most it may have (schedules.max_per_channel: ${limits.maxPerConversation}); remove one with /unschedule <id>`,
  );
}

/** Schedules kept by a backend; each method is atomic across processes sharing the store. */
export interface ScheduleBackend {
  /**
   * Adds a schedule when its conversation stays within `limits`.
   * @returns the stored schedule with its id
   * @throws {ScheduleFullError} when the conversation has as many as it may
   */
  add(schedule: NewSchedule, limits: ScheduleLimits): Promise<Schedule>;
  /** @returns the conversation's schedules, oldest first. */
  list(conversationId: string): Promise<Schedule[]>;
  /** @returns one schedule of the conversation, or undefined (none of that id there). */
  get(conversationId: string, id: string): Promise<Schedule | undefined>;
  /** Writes what a tick changed. @returns the schedule as it is now, or undefined when it was removed meanwhile. */
  update(conversationId: string, id: string, change: ScheduleChange): Promise<Schedule | undefined>;
  /** Removes a schedule of the conversation. @returns it, or undefined when the conversation has none of that id. */
  remove(conversationId: string, id: string): Promise<Schedule | undefined>;
  /** @returns every schedule in the store (for the scheduler at start), oldest first. */
  all(): Promise<Schedule[]>;
  /**
   * Puts back a schedule as another store kept it (`code-agent store import`), definition and
   * state, under its own id when no schedule of the store has that id, else under a new one; the
   * per-conversation bound is not checked (the source kept it within its own).
   * @returns the stored schedule (its id as stored)
   */
  restore(schedule: Schedule): Promise<Schedule>;
}

/** The id's number (`s12` → 12), or undefined for anything else. */
export function scheduleSeq(id: string): number | undefined {
  const m = /^s([1-9]\d{0,15})$/.exec(id.trim());
  return m ? Number(m[1]) : undefined;
}

/** The definition part of a schedule (what is written once) and its status part (written per tick). */
export function splitSchedule(s: NewSchedule): { body: string; status: string } {
  const { state, paused, ...body } = s as NewSchedule & { id?: string };
  delete body.id; // the store gives the id
  return { body: JSON.stringify(body), status: JSON.stringify({ state, ...(paused ? { paused } : {}) }) };
}

/** A schedule from its stored parts. */
export function joinSchedule(id: string, body: string, status: string): Schedule {
  const parsed = JSON.parse(status) as { state: ScheduleState; paused?: Schedule['paused'] };
  return { id, ...(JSON.parse(body) as Omit<Schedule, 'id' | 'state' | 'paused'>), state: parsed.state, ...(parsed.paused ? { paused: parsed.paused } : {}) };
}

/** The status JSON after a change. */
export function changedStatus(current: Schedule, change: ScheduleChange): string {
  const paused = change.paused === undefined ? current.paused : (change.paused ?? undefined);
  return JSON.stringify({ state: change.state, ...(paused ? { paused } : {}) });
}

/**
 * A backend whose every operation goes through `call` (the store's deadline and error naming); a
 * refusal (full) is passed through as it is.
 */
export function schedulesWithDeadlines(schedules: ScheduleBackend, call: <T>(what: string, fn: () => Promise<T>, passRefusals: boolean) => Promise<T>): ScheduleBackend {
  return {
    add: (s, limits) => call('add a schedule', () => schedules.add(s, limits), true),
    list: (c) => call('read the schedules', () => schedules.list(c), false),
    get: (c, id) => call('read a schedule', () => schedules.get(c, id), false),
    update: (c, id, change) => call('update a schedule', () => schedules.update(c, id, change), false),
    remove: (c, id) => call('remove a schedule', () => schedules.remove(c, id), false),
    all: () => call('read the schedules', () => schedules.all(), false),
    restore: (s) => call('import a schedule', () => schedules.restore(s), false),
  };
}

/** In one process only (a Map-backed store in tests and benches). */
export class InProcessSchedules implements ScheduleBackend {
  private readonly rows = new Map<string, { conversationId: string; body: string; status: string }>();
  private seq = 0;

  async add(schedule: NewSchedule, limits: ScheduleLimits): Promise<Schedule> {
    const used = [...this.rows.values()].filter((r) => r.conversationId === schedule.conversationId).length;
    if (used >= limits.maxPerConversation) throw scheduleFullError(schedule.conversationId, limits, used);
    const id = `s${++this.seq}`;
    const { body, status } = splitSchedule(schedule);
    this.rows.set(id, { conversationId: schedule.conversationId, body, status });
    return joinSchedule(id, body, status);
  }

  async list(conversationId: string): Promise<Schedule[]> {
    return [...this.rows.entries()].filter(([, r]) => r.conversationId === conversationId).map(([id, r]) => joinSchedule(id, r.body, r.status));
  }

  async get(conversationId: string, id: string): Promise<Schedule | undefined> {
    const r = this.rows.get(id.trim());
    return r && r.conversationId === conversationId ? joinSchedule(id.trim(), r.body, r.status) : undefined;
  }

  async update(conversationId: string, id: string, change: ScheduleChange): Promise<Schedule | undefined> {
    const current = await this.get(conversationId, id);
    if (!current) return undefined;
    this.rows.get(id.trim())!.status = changedStatus(current, change);
    return this.get(conversationId, id);
  }

  async remove(conversationId: string, id: string): Promise<Schedule | undefined> {
    const current = await this.get(conversationId, id);
    if (current) this.rows.delete(id.trim());
    return current;
  }

  async all(): Promise<Schedule[]> {
    return [...this.rows.entries()].map(([id, r]) => joinSchedule(id, r.body, r.status));
  }

  async restore(schedule: Schedule): Promise<Schedule> {
    const wanted = scheduleSeq(schedule.id);
    const id = wanted !== undefined && !this.rows.has(`s${wanted}`) ? `s${wanted}` : `s${++this.seq}`;
    if (wanted !== undefined) this.seq = Math.max(this.seq, wanted);
    const { body, status } = splitSchedule(schedule);
    this.rows.set(id, { conversationId: schedule.conversationId, body, status });
    return joinSchedule(id, body, status);
  }
}
