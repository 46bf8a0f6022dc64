/**
 * `when` read into a cron line and a zone (src/schedules/when.ts): every form people type,
 * the channel's zone or one named in the text, and refusals that say what was understood and give
 * an example. The next ticks are computed by cron-parser, as BullMQ computes them.
 */
import { describe, expect, it } from 'vitest';
import { checkTimezone, nextTicks, readWhen, tickText, TimezoneError, WhenError } from '../../src/schedules/when.js';

describe('readWhen', () => {
  it.each([
    ['every Monday at 9', '0 9 * * 1', 'every Monday at 09:00'],
    ['daily at 08:00', '0 8 * * *', 'every day at 08:00'],
    ['every day at 5pm', '0 17 * * *', 'every day at 17:00'],
    ['every 2 hours', '0 */2 * * *', 'every 2 hours'],
    ['every weekday at 17:30', '30 17 * * 1-5', 'every weekday at 17:30'],
    ['weekdays at 9', '0 9 * * 1-5', 'every weekday at 09:00'],
    ['every 15 minutes', '*/15 * * * *', 'every 15 minutes'],
    ['every minute', '* * * * *', 'every minute'],
    ['hourly', '0 * * * *', 'every hour'],
    ['hourly at :15', '15 * * * *', 'every hour at :15'],
    ['every Monday and Thursday at 9:30pm', '30 21 * * 1,4', 'every Monday and Thursday at 21:30'],
    ['on Fridays at noon', '0 12 * * 5', 'every Friday at 12:00'],
    ['every weekend at 10', '0 10 * * 0,6', 'every Saturday and Sunday at 10:00'],
    ['monthly on the 1st at 9', '0 9 1 * *', 'every month on day 1 at 09:00'],
    ['0 9 * * 1', '0 9 * * 1', 'cron `0 9 * * 1`'],
    ['30 6 1-7 * mon', '30 6 1-7 * mon', 'cron `30 6 1-7 * mon`'],
  ])('%s → %s', (when, cron, text) => {
    const read = readWhen(when, 'Europe/Berlin');
    expect(read).toEqual({ cron, text, timezone: 'Europe/Berlin', zoneGiven: false });
  });

  it('takes a zone named at the end over the channel zone, in its canonical spelling', () => {
    expect(readWhen('daily at 8 in america/new_york', 'UTC')).toMatchObject({ cron: '0 8 * * *', timezone: 'America/New_York', zoneGiven: true });
    expect(() => readWhen('daily at 8 in Mars/Olympus', 'UTC')).toThrow(TimezoneError);
    expect(checkTimezone('utc')).toBe('UTC');
    expect(() => checkTimezone('Not A Zone')).toThrow(/IANA time zone/);
  });

  it.each([
    ['every Monday', 'every Monday, but no time of day'],
    ['daily', 'every day, but no time of day'],
    ['every 7 minutes', 'does not divide the hour evenly (try every 6 or 10 minutes)'],
    ['every 5 hours', 'does not divide the day evenly (try every 4 or 6 hours)'],
    ['every fortnight', '"every", but not what comes after it ("fortnight")'],
    ['every mon at 25:00', 'every Monday, but "25:00" is not a time of day'],
    ['every monday at 13pm', 'with am/pm the hour is 1 to 12'],
    ['0 9 * *', 'a cron line of 4 fields; it needs five'],
    ['0 0 9 * * 1', 'a cron line of 6 fields; it needs five'],
    ['61 9 * * *', 'a cron line, but'],
    ['monthly on the 31st at 9', 'only days 1 to 28'],
    ['tomorrow', 'no recurrence'],
    ['', 'nothing was given'],
  ])('refuses "%s", saying what was understood and giving an example', (when, understood) => {
    let error: unknown;
    try {
      readWhen(when, 'UTC');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(WhenError);
    expect((error as Error).message).toContain(understood);
    expect((error as Error).message).toContain('every Monday at 9 · daily at 08:00');
  });

  it('computes the next ticks in the zone, across a daylight saving change', () => {
    // Europe/Berlin moves to summer time on 2025-03-30: 09:00 local is 08:00 UTC before, 07:00 UTC after
    const ticks = nextTicks('0 9 * * *', 'Europe/Berlin', new Date('2025-03-29T00:00:00Z'), 2);
    expect(ticks.map((d) => d.toISOString())).toEqual(['2025-03-29T08:00:00.000Z', '2025-03-30T07:00:00.000Z']);
    expect(tickText(ticks[1]!, 'Europe/Berlin')).toBe('Sun 2025-03-30 09:00 (Europe/Berlin)');
  });
});
