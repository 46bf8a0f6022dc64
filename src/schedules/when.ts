/**
 * `when` of a schedule, in the forms people type, read into a five-field cron line evaluated in a
 * time zone (docs/schedules.md). Our small grammar:
 *
 * - `every minute`, `every 15 minutes` (a divisor of 60), `hourly`, `every hour [at :15]`,
 *   `every 2 hours` (a divisor of 24);
 * - `daily at 08:00`, `every day at 9am`, `every weekday at 17:30`, `every weekend at 10`,
 *   `every Monday at 9`, `every Monday and Thursday at 9:30`, `on Fridays at noon`,
 *   `monthly on the 1st at 9`, `every month on the 15th at 08:00`;
 * - a five-field cron line (`0 9 * * 1`), checked by cron-parser (the library BullMQ evaluates
 *   job schedulers with, so both modes agree on every tick);
 * - any of them may end with `in <IANA zone>` (`daily at 8 in Europe/Berlin`); else the channel's
 *   zone is used.
 *
 * A time of day is `9`, `09:30`, `17:30`, `9am`, `5:30 pm`, `noon` or `midnight`. Anything else is
 * refused with a {@link WhenError} that says what was understood and gives an example.
 */
import cronParser from 'cron-parser';

/** A `when` read: the cron line, its zone, and how it reads back. */
export interface ReadWhen {
  /** Five fields: minute hour day-of-month month day-of-week. */
  cron: string;
  /** IANA zone, canonical spelling (`Europe/Berlin`, `UTC`). */
  timezone: string;
  /** How it reads back, e.g. `every Monday at 09:00`. */
  text: string;
  /** True when the zone was named in the text (not the channel's). */
  zoneGiven: boolean;
}

/** The forms people may type, for refusals and help texts. */
export const WHEN_EXAMPLES = 'every Monday at 9 · daily at 08:00 · every 2 hours · every weekday at 17:30 · every 15 minutes · hourly · a cron line such as `0 9 * * 1`';

/** A `when` that cannot be read; `message` says what was understood and gives an example. */
export class WhenError extends Error {
  override name = 'WhenError';
}

/** A time zone that is not an IANA zone name. */
export class TimezoneError extends Error {
  override name = 'TimezoneError';
}

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const CRON_TOKEN = /^(?:[0-9*?LW#/,-]|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)+$/i;

/**
 * The canonical name of an IANA time zone (`europe/berlin` → `Europe/Berlin`).
 * @throws {TimezoneError} naming the zone when the runtime's time zone database does not know it
 */
export function checkTimezone(zone: string): string {
  const z = zone.trim();
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(z)) throw new TimezoneError(`"${zone}" is not an IANA time zone name (e.g. UTC, Europe/Berlin, America/New_York)`);
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: z }).resolvedOptions().timeZone;
  } catch {
    throw new TimezoneError(`"${zone}" is not an IANA time zone name (e.g. UTC, Europe/Berlin, America/New_York)`);
  }
}

/** A time of day. */
interface Clock {
  hour: number;
  minute: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
const clockText = (c: Clock) => `${pad(c.hour)}:${pad(c.minute)}`;

/**
 * Reads a time of day (`9`, `09:30`, `9am`, `5:30 pm`, `noon`, `midnight`).
 * @returns the time, undefined when `text` is not one, or a string saying why it is not a valid one
 */
function readClock(text: string): Clock | string | undefined {
  const t = text.trim().replace(/\./g, '');
  if (t === 'noon' || t === 'midday') return { hour: 12, minute: 0 };
  if (t === 'midnight') return { hour: 0, minute: 0 };
  const m = /^(\d{1,2})(?:[:h](\d{2}))?\s*(am|pm)?$/.exec(t);
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (m[3]) {
    if (hour < 1 || hour > 12) return `"${text.trim()}" is not a time of day (with am/pm the hour is 1 to 12)`;
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return `"${text.trim()}" is not a time of day (hours 0 to 23, minutes 0 to 59)`;
  return { hour, minute };
}

/** `monday`, `mondays`, `mon` → 1; undefined for anything else. */
function readDay(word: string): number | undefined {
  const w = word.replace(/s$/, '');
  const i = DAYS.findIndex((d) => d === w || (w.length >= 3 && d.startsWith(w)));
  return i >= 0 ? i : undefined;
}

function refuse(when: string, understood: string): never {
  throw new WhenError(`Could not read "${when.trim()}" as a schedule: ${understood}. Say it like: ${WHEN_EXAMPLES}.`);
}

/** Divisors of `n` near `k`, for a refusal's suggestion. */
function nearDivisors(n: number, k: number): string {
  const divs = Array.from({ length: n - 1 }, (_, i) => i + 1).filter((d) => n % d === 0);
  const below = divs.filter((d) => d < k).pop();
  const above = divs.find((d) => d > k);
  return [below, above].filter((d) => d !== undefined).join(' or ');
}

/** The part after `at` as a time; refuses with what was understood when it is missing or wrong. */
function needClock(when: string, rest: string | undefined, understood: string): Clock {
  if (rest === undefined || rest.trim() === '') refuse(when, `${understood}, but no time of day (add one: "${understood} at 9")`);
  const clock = readClock(rest);
  if (clock === undefined) refuse(when, `${understood}, but "${rest.trim()}" is not a time of day`);
  if (typeof clock === 'string') refuse(when, `${understood}, but ${clock}`);
  return clock;
}

/** The cron line and text of the forms of our grammar (the text lower-cased, spaces collapsed, zone taken off). */
function readForm(when: string, t: string): { cron: string; text: string } {
  // intervals
  if (t === 'every minute') return { cron: '* * * * *', text: 'every minute' };
  let m = /^every (\d+) ?(?:minutes|minute|mins|min|m)$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    if (n < 1 || n > 59 || 60 % n !== 0) refuse(when, `every ${n} minutes does not divide the hour evenly${n >= 1 && n < 60 ? ` (try every ${nearDivisors(60, n)} minutes)` : ''}`);
    return n === 1 ? { cron: '* * * * *', text: 'every minute' } : { cron: `*/${n} * * * *`, text: `every ${n} minutes` };
  }
  m = /^(?:hourly|every hour)(?: at (?::(\d{1,2})|(\d{1,2}) (?:past|minutes past)))?$/.exec(t);
  if (m) {
    const minute = Number(m[1] ?? m[2] ?? 0);
    if (minute > 59) refuse(when, `every hour, but :${minute} is not a minute`);
    return { cron: `${minute} * * * *`, text: minute ? `every hour at :${pad(minute)}` : 'every hour' };
  }
  m = /^every (\d+) ?(?:hours|hour|hrs|hr|h)$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    if (n < 1 || n > 23 || 24 % n !== 0) refuse(when, `every ${n} hours does not divide the day evenly${n >= 1 && n < 24 ? ` (try every ${nearDivisors(24, n)} hours)` : ''}`);
    return n === 1 ? { cron: '0 * * * *', text: 'every hour' } : { cron: `0 */${n} * * *`, text: `every ${n} hours` };
  }
  // days (the time after "at", or none)
  const [days, atPart] = t.split(/ at | @ /, 2) as [string, string | undefined];
  if (/^(?:daily|every day|each day)$/.test(days)) {
    const c = needClock(when, atPart, 'every day');
    return { cron: `${c.minute} ${c.hour} * * *`, text: `every day at ${clockText(c)}` };
  }
  if (/^(?:every |on |each )?weekdays?$/.test(days)) {
    const c = needClock(when, atPart, 'every weekday');
    return { cron: `${c.minute} ${c.hour} * * 1-5`, text: `every weekday at ${clockText(c)}` };
  }
  if (/^(?:every |on |each )?weekends?$/.test(days)) {
    const c = needClock(when, atPart, 'every weekend day');
    return { cron: `${c.minute} ${c.hour} * * 0,6`, text: `every Saturday and Sunday at ${clockText(c)}` };
  }
  m = /^(?:monthly|every month)(?: on)?(?: the)? (\d{1,2})(?:st|nd|rd|th)?$/.exec(days) ?? /^(?:on )?the (\d{1,2})(?:st|nd|rd|th)? of (?:every|each) month$/.exec(days);
  if (m) {
    const d = Number(m[1]);
    if (d < 1 || d > 28) refuse(when, `every month on day ${d}, but only days 1 to 28 are in every month`);
    const c = needClock(when, atPart, `every month on the ${d}.`);
    return { cron: `${c.minute} ${c.hour} ${d} * *`, text: `every month on day ${d} at ${clockText(c)}` };
  }
  if (/^(?:monthly|every month)$/.test(days)) refuse(when, 'every month, but not on which day (e.g. "monthly on the 1st at 9")');
  m = /^(?:every |on |each |weekly on )?([a-z]+(?:(?:, ?| and | & |,? and )[a-z]+)*)$/.exec(days);
  if (m) {
    const words = m[1]!.split(/, ?| and | & |,? and /);
    const nums = words.map(readDay);
    if (nums.every((n) => n !== undefined)) {
      const sorted = [...new Set(nums as number[])].sort((a, b) => a - b);
      const names = sorted.map((n) => DAY_NAMES[n]!);
      const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]!;
      const c = needClock(when, atPart, `every ${list}`);
      return { cron: `${c.minute} ${c.hour} * * ${sorted.join(',')}`, text: `every ${list} at ${clockText(c)}` };
    }
    const known = words.filter((w) => readDay(w) !== undefined);
    if (known.length) refuse(when, `the day${known.length > 1 ? 's' : ''} ${known.map((w) => DAY_NAMES[readDay(w)!]).join(', ')}, but not "${words.filter((w) => readDay(w) === undefined).join('", "')}"`);
  }
  if (/^every\b/.test(t)) refuse(when, `"every", but not what comes after it ("${t.slice(6, 40)}")`);
  refuse(when, 'no recurrence (every …, daily, hourly, or a cron line)');
}

/**
 * Reads a `when` (see the module comment).
 * @param when what the person typed
 * @param channelZone the channel's IANA zone (`schedules.timezone`), used unless the text names one
 * @throws {WhenError} saying what was understood and giving an example
 * @throws {TimezoneError} for a zone named in the text that is not an IANA zone
 */
export function readWhen(when: string, channelZone: string): ReadWhen {
  let t = when.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]$/, '');
  if (!t) refuse(when, 'nothing was given');
  let timezone = channelZone;
  let zoneGiven = false;
  const zone = /\s(?:in|tz|timezone) ([a-z][a-z0-9_+\-/]*)$/i.exec(when.trim());
  if (zone) {
    timezone = checkTimezone(zone[1]!);
    zoneGiven = true;
    t = t.slice(0, t.length - zone[0].length).trim();
  }
  const tokens = t.split(' ');
  if (tokens.every((x) => CRON_TOKEN.test(x)) && tokens.some((x) => /[\d*]/.test(x))) {
    if (tokens.length !== 5) refuse(when, `a cron line of ${tokens.length} fields; it needs five (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1"`);
    try {
      cronParser.parseExpression(tokens.join(' '), { tz: timezone });
    } catch (err) {
      refuse(when, `a cron line, but ${(err as Error).message}`);
    }
    return { cron: tokens.join(' '), timezone, text: `cron \`${tokens.join(' ')}\``, zoneGiven };
  }
  return { ...readForm(when, t), timezone, zoneGiven };
}

/**
 * The next `n` times a cron line fires after `from`, in `timezone` (cron-parser, as BullMQ).
 * @throws the library's error for a line it cannot read (checked when the schedule was made)
 */
export function nextTicks(cron: string, timezone: string, from: Date, n: number): Date[] {
  const it = cronParser.parseExpression(cron, { tz: timezone, currentDate: from });
  return Array.from({ length: n }, () => it.next().toDate());
}

/** A tick's time as people read it, in the schedule's zone: `Mon 2025-03-03 09:00 (Europe/Berlin)` (seconds only when not zero). */
export function tickText(at: Date, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '';
  const seconds = p('second') !== '00' ? `:${p('second')}` : '';
  return `${p('weekday')} ${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}${seconds} (${timezone})`;
}
