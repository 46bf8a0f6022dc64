/**
 * Date requests, where off-by-one ranges and week conventions go wrong silently. Expected values
 * computed with /usr/bin/python3's datetime (day-by-day loops, not library shortcuts).
 */
import { isoDates, numbersIn, withoutDates } from '../parse.js';
import { expectNumber } from '../stdout-checks.js';
import { bad, ok, type RealisticRequest } from '../types.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The date requests, in a fixed order. */
export const DATE_REQUESTS: RealisticRequest[] = [
  {
    id: 'days-inclusive',
    kind: 'date',
    requirement: 'How many days is it from 15 January 2024 to 1 March 2024, counting both the first and the last day?',
    // (date(2024,3,1) - date(2024,1,15)).days = 46, + 1 for both ends = 47 (2024 is a leap year).
    check: async ({ stdout }) => expectNumber(withoutDates(stdout), '47', ['46']),
  },
  {
    id: 'weekday-of-date',
    kind: 'date',
    requirement: 'what day of the week was 29 February 2000?',
    // date(2000,2,29).strftime('%A') = Tuesday.
    check: async ({ stdout }) => {
      const named = WEEKDAYS.filter((d) => new RegExp(`\\b${d}\\b`, 'i').test(stdout));
      return named.length === 1 && named[0] === 'Tuesday' ? ok('Tuesday') : bad(`named ${named.join(', ') || 'no weekday'}`);
    },
  },
  {
    id: 'mondays-in-september',
    kind: 'date',
    requirement: 'List every Monday in September 2024, as YYYY-MM-DD, one per line.',
    // 2024-09-02, 09, 16, 23, 30 (range(1, 30) would miss the 30th).
    check: async ({ stdout }) => {
      const expected = ['2024-09-02', '2024-09-09', '2024-09-16', '2024-09-23', '2024-09-30'];
      const got = isoDates(stdout);
      return got.join(' ') === expected.join(' ') ? ok('the 5 Mondays') : bad(`printed ${got.join(' ') || 'no date'}`);
    },
  },
  {
    id: 'working-days-mar-may',
    kind: 'date',
    requirement:
      'How many working days (Monday to Friday) are there from 1 March 2024 to 31 May 2024, both days included? Ignore public holidays.',
    // a day-by-day loop gives 66; numpy.busday_count excludes the end date (a Friday): 65.
    check: async ({ stdout }) => expectNumber(withoutDates(stdout), '66', ['65']),
  },
  {
    id: 'thirty-business-days-later',
    kind: 'date',
    requirement:
      'A contract signed on 2024-12-20 has to be delivered within 30 business days (weekends skipped, no holidays, the signing day itself does not count). What is the deadline date? Answer as YYYY-MM-DD.',
    // stepping day by day from 2024-12-20, counting Mon–Fri: the 30th is 2025-01-31 (counting the
    // signing day: 2025-01-30).
    check: async ({ stdout }) => {
      const got = isoDates(stdout).filter((d) => d !== '2024-12-20');
      return got.length > 0 && got.every((d) => d === '2025-01-31') ? ok('2025-01-31') : bad(`printed ${got.join(' ') || 'no date'}`);
    },
  },
  {
    id: 'age-on-date',
    kind: 'date',
    requirement: 'Someone born on 31 August 1990 — how old are they (in completed years) on 30 August 2024?',
    // 2024 - 1990 = 34, minus 1 because the birthday has not come yet: 33.
    check: async ({ stdout }) => expectNumber(withoutDates(stdout), '33', ['34']),
  },
  {
    id: 'iso-week-number',
    kind: 'date',
    requirement: 'What ISO week number is 30 December 2024 in?',
    // date(2024,12,30).isocalendar() = (2025, 1, 1): week 1 (of 2025). strftime %W gives 53, %U 52.
    check: async ({ stdout }) => {
      const text = withoutDates(stdout);
      const nums = numbersIn(text.replace(/W(\d+)/gi, ' $1 ')).filter((n) => n !== 2024 && n !== 2025 && n !== 30 && n !== 12);
      if (nums.includes(52) || nums.includes(53)) return bad(`printed week ${nums.includes(52) ? 52 : 53}`);
      return nums.includes(1) ? ok('week 1') : bad(`no week 1 in "${stdout.trim().slice(0, 80)}"`);
    },
  },
];
