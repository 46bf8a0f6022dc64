/**
 * The chat commands of schedules, the same on every platform (Matrix spells them `!schedule …`):
 *
 * - `/schedule <program> [name=value …] <when> [only when <condition>]`: read, checked and saved
 *   at once, or refused with what was understood and an example (nothing half-saved: the `when`,
 *   the condition, the program and its parameter values are all read before anything is written);
 * - `/schedules`: the channel's schedules; `/schedules resume <id>`: a paused one runs again;
 * - `/unschedule <id>`.
 *
 * Answers are {@link ScheduleReply}s (a title in our words, lines of the team's text): the platform
 * shows them as it shows `/memory` (the lines in a code block).
 */
import type { Schedule } from '../history/programs.js';
import { ScheduleFullError, type ScheduleBackend, type ScheduleLimits } from '../history/schedules.js';
import { checkTimezone, nextTicks, readWhen, tickText, TimezoneError, WhenError, WHEN_EXAMPLES } from './when.js';
import { ConditionError, gateText, readResultGate } from './result-gate.js';
import type { Scheduler } from './scheduler.js';
import type { Asker, ScheduleCommandNames, ScheduleCommandsPort, SchedulePlace, ScheduleReply } from '../chat/schedule-commands-port.js';



/** The program a schedule names, as the team programs know it: its parameters' names, or a refusal. */
export type ProgramLookup = (conversationId: string, name: string, params: Record<string, string>) => Promise<{ params: Record<string, string | number | boolean> } | { refused: string }>;

/** Where the schedules' time zones come from (`schedules.timezone`, `schedules.channel_timezones`). */
export interface ZoneSettings {
  timezone: string;
  channelZones: Record<string, string>;
}


/** What the commands use. */
export interface ScheduleCommandDeps {
  schedules: ScheduleBackend;
  limits: ScheduleLimits;
  zones: ZoneSettings;
  /** Checks the program exists in the conversation and reads the parameter values given. */
  program: ProgramLookup;
  /** Starts and stops ticks (the mode's scheduler). */
  scheduler: Scheduler;
}


/** The zone of a conversation and how a reply names it. */
export function channelZone(zones: ZoneSettings, conversationId: string): { zone: string; said: string } {
  const own = zones.channelZones[conversationId];
  if (own) return { zone: checkTimezone(own), said: `${own}, this channel's zone (schedules.channel_timezones)` };
  const zone = checkTimezone(zones.timezone);
  return { zone, said: zone === 'UTC' && zones.timezone === 'UTC' ? 'UTC, the default zone (set another with schedules.timezone, or end the time with "in Europe/Berlin")' : `${zone}, the zone of schedules.timezone` };
}

/** Splits `<program> [k=v …] <when> [only when …]`. */
export function splitScheduleText(text: string): { program: string; params: Record<string, string>; when: string; condition: string } | undefined {
  const t = text.trim().replace(/\s+/g, ' ');
  const m = /^(\S+)((?: [A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S+))*) (.+?)(?: only (?:when|if) (.+))?$/i.exec(t);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (const a of (m[2] ?? '').trim().split(/ (?=[A-Za-z_][A-Za-z0-9_]*=)/).filter(Boolean)) {
    const i = a.indexOf('=');
    params[a.slice(0, i)] = a.slice(i + 1).replace(/^(["'])([\s\S]*)\1$/, '$2');
  }
  return { program: m[1]!.toLowerCase(), params, when: m[3]!, condition: m[4] ?? '' };
}

/** The one line listing a schedule. */
export function scheduleLine(s: Schedule): string {
  const params = Object.entries(s.params).map(([k, v]) => ` ${k}=${String(v)}`).join('');
  const gate = s.resultGate.kind === 'always' ? '' : `, ${gateText(s.resultGate)}`;
  const state = s.paused ? ` — ⏸ paused: ${s.paused.reason}` : s.state.failures ? ` — ${s.state.failures} failed in a row` : '';
  return `${s.id}: ${s.program}${params}, ${s.when} (${s.cron}, ${s.timezone})${gate}, by ${s.createdByName ?? s.createdBy}${state}`;
}

/** The commands of one channel (see the module comment). */
export class ScheduleCommands implements ScheduleCommandsPort {
  constructor(private readonly deps: ScheduleCommandDeps) {}

  /** `/schedule …`: reads everything, then saves and starts the schedule. Never throws for a refusal. */
  async schedule(place: SchedulePlace, who: Asker, text: string, names: ScheduleCommandNames): Promise<ScheduleReply> {
    const usage = `Usage: \`${names.schedule} <program> [name=value …] <when> [only when …]\`, e.g. \`${names.schedule} revenue-by-region region=EU every Monday at 9 only when refunds > 5 %\`.`;
    const parts = splitScheduleText(text);
    if (!parts) return { title: 'Not scheduled.', lines: [usage, `When: ${WHEN_EXAMPLES}.`], refused: true };
    const { zone, said } = channelZone(this.deps.zones, place.conversationId);
    let when;
    let gate;
    try {
      when = readWhen(parts.when, zone);
      gate = readResultGate(parts.condition);
    } catch (err) {
      if (err instanceof WhenError || err instanceof TimezoneError || err instanceof ConditionError) return { title: 'Not scheduled.', lines: [err.message, usage], refused: true };
      throw err;
    }
    const program = await this.deps.program(place.conversationId, parts.program, parts.params);
    if ('refused' in program) return { title: 'Not scheduled.', lines: [program.refused], refused: true };
    let saved: Schedule;
    try {
      saved = await this.deps.schedules.add(
        {
          conversationId: place.conversationId,
          platform: place.platform,
          channel: place.channel,
          program: parts.program,
          params: program.params,
          when: parts.when.trim(),
          cron: when.cron,
          timezone: when.timezone,
          resultGate: gate,
          workGate: true,
          createdBy: who.userId,
          ...(who.userName ? { createdByName: who.userName } : {}),
          ...(who.key ? { createdByKey: who.key } : {}),
          createdAt: new Date().toISOString(),
          state: { failures: 0 },
        },
        this.deps.limits,
      );
    } catch (err) {
      if (err instanceof ScheduleFullError) return { title: 'Not scheduled.', lines: [err.message], refused: true };
      throw err;
    }
    try {
      await this.deps.scheduler.add(saved);
    } catch (err) {
      // nothing half-saved: a schedule the scheduler could not take is removed again
      await this.deps.schedules.remove(place.conversationId, saved.id).catch(() => undefined);
      return { title: 'Not scheduled.', lines: [`The scheduler could not take it: ${(err as Error).message}`], refused: true };
    }
    const next = nextTicks(saved.cron, saved.timezone, new Date(), 3).map((d) => tickText(d, saved.timezone));
    return {
      title: `⏰ Scheduled ${saved.id}: team program \`${saved.program}\` ${when.text}.`,
      lines: [
        `Read as: ${when.text}, cron ${saved.cron}, in ${when.zoneGiven ? `${saved.timezone} (as given)` : said}.`,
        `Next runs: ${next.join('; ')}.`,
        `Result gate: ${gateText(gate)}.`,
        'Work gate: a run whose inputs did not change since the last posted one (its files, what its SQL sources and HTTP hosts answered) posts nothing.',
        `Each run posts a new thread here. Remove it with ${names.unschedule} ${saved.id}.`,
      ],
    };
  }

  /** `/schedules [resume <id>]`. */
  async schedules(place: SchedulePlace, text: string, names: ScheduleCommandNames): Promise<ScheduleReply> {
    const resume = /^resume\s+(\S+)$/i.exec(text.trim());
    if (resume) return this.resume(place, resume[1]!, names);
    if (text.trim()) return { title: `Usage: \`${names.schedules}\` lists this channel's schedules; \`${names.schedules} resume <id>\` runs a paused one again.`, lines: [], refused: true };
    const all = await this.deps.schedules.list(place.conversationId);
    if (all.length === 0) return { title: `No schedules in this channel. Add one with \`${names.schedule} <program> <when>\`.`, lines: [] };
    return { title: `⏰ Schedules of this channel (${all.length}):`, lines: all.map(scheduleLine) };
  }

  /** `/unschedule <id>`. */
  async unschedule(place: SchedulePlace, text: string, names: ScheduleCommandNames): Promise<ScheduleReply> {
    const id = text.trim();
    if (!id) return { title: `Usage: \`${names.unschedule} <id>\` (the ids are in \`${names.schedules}\`).`, lines: [], refused: true };
    const removed = await this.deps.schedules.remove(place.conversationId, id);
    if (!removed) return { title: `No schedule ${id.slice(0, 40)} in this channel; \`${names.schedules}\` lists them.`, lines: [], refused: true };
    await this.deps.scheduler.remove(removed);
    return { title: `Removed schedule ${removed.id}.`, lines: [scheduleLine(removed)] };
  }

  private async resume(place: SchedulePlace, id: string, names: ScheduleCommandNames): Promise<ScheduleReply> {
    const s = await this.deps.schedules.get(place.conversationId, id);
    if (!s) return { title: `No schedule ${id.slice(0, 40)} in this channel; \`${names.schedules}\` lists them.`, lines: [], refused: true };
    if (!s.paused) return { title: `Schedule ${s.id} is not paused.`, lines: [scheduleLine(s)], refused: true };
    const resumed = await this.deps.schedules.update(place.conversationId, s.id, { state: { ...s.state, failures: 0, failurePosted: false }, paused: null });
    if (resumed) await this.deps.scheduler.add(resumed);
    return { title: `▶️ Schedule ${s.id} runs again.`, lines: resumed ? [scheduleLine(resumed)] : [] };
  }
}
