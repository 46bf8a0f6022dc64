/**
 * Dump kind `schedule`: `{kind, schedule}`, a team program's schedule in a conversation with its
 * definition (program, recurrence, gates, who made it) and its state (what its ticks did, a
 * pause). See `kinds.ts`.
 *
 * Import: a schedule whose definition the target's conversation has already (the same program,
 * `when`, gates, creator and time) is the same schedule: its state is taken from the dump when the
 * dump's last tick is later (the work gate then compares with the last posted run's inputs),
 * else it is left. A new one keeps its id when no schedule of the target has it, else gets a new
 * one. The scheduler picks up imported schedules when it starts (import before starting the
 * processes on the new store).
 */
import type { Schedule } from '../programs.js';
import { splitSchedule } from '../schedules.js';
import { check, type ImportOutcome, type RecordKind } from './kinds.js';

const definition = (s: Schedule) => splitSchedule(s).body;
const status = (s: Schedule) => splitSchedule(s).status;

/** See the module comment. */
export const SCHEDULE_KIND: RecordKind = {
  kind: 'schedule',
  problem(line) {
    const s = line.schedule as Schedule;
    return check.first(
      check.object(s, 'schedule'),
      check.text(s?.id, 'schedule.id'),
      ...(['conversationId', 'platform', 'channel', 'program', 'when', 'cron', 'timezone', 'createdBy', 'createdAt'] as const).map((f) => check.text(s?.[f], `schedule.${f}`)),
      check.object(s?.params, 'schedule.params'),
      check.object(s?.resultGate, 'schedule.resultGate'),
      typeof s?.workGate === 'boolean' ? undefined : 'schedule.workGate: expected true or false',
      check.object(s?.state, 'schedule.state'),
      typeof s?.state?.failures === 'number' ? undefined : 'schedule.state.failures: expected a number',
    );
  },
  async *export(source, scope) {
    for (const conversationId of scope.conversations) {
      for (const schedule of await source.store.schedules.list(conversationId)) yield { kind: 'schedule', schedule };
    }
  },
  async import(target, line, memo): Promise<ImportOutcome> {
    const schedule = line.schedule as Schedule;
    const schedules = target.store.schedules;
    const key = `schedules:${schedule.conversationId}`;
    let there = memo.get(key) as Map<string, Schedule> | undefined;
    if (!there) {
      there = new Map((await schedules.list(schedule.conversationId)).map((s) => [definition(s), s]));
      memo.set(key, there);
    }
    const same = there.get(definition(schedule));
    if (!same) {
      const stored = await schedules.restore(schedule);
      there.set(definition(stored), stored);
      return 'imported';
    }
    if (status(same) === status(schedule)) return 'unchanged';
    if ((schedule.state.lastTickAt ?? '') <= (same.state.lastTickAt ?? '')) {
      return { skipped: `schedule ${same.id} of ${schedule.conversationId} ticked as late or later in the target (last tick ${same.state.lastTickAt ?? 'none'})` };
    }
    const updated = await schedules.update(schedule.conversationId, same.id, { state: schedule.state, paused: schedule.paused ?? null });
    if (updated) there.set(definition(updated), updated);
    return 'imported';
  },
};
