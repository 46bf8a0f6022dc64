/**
 * Requests over hand-typed amounts and timestamps with UTC offsets. Expected values are computed
 * here from the generated rows (`../gen/`).
 */
import { EXPENSES, EXPENSES_CSV } from '../gen/tables.js';
import { SIGNUPS, SIGNUPS_CSV } from '../gen/events.js';
import { groupBy, round, sumCents } from '../gen/rng.js';
import { dayCounts } from '../parse.js';
import { expectEach, expectNear, expectNumber } from '../stdout-checks.js';
import { bad, file, ok, type RealisticRequest } from '../types.js';

const expenses = () => [file('expenses.csv', EXPENSES_CSV)];
const signups = () => [file('signups.csv', SIGNUPS_CSV)];

const TYPED = EXPENSES.filter((e) => e.amount !== undefined);
const TOTAL = sumCents(TYPED.map((e) => e.amount!));
/** Leaving out the amounts written with a thousands separator (a plain float() fails on them). */
const TOTAL_WITHOUT_COMMAS = sumCents(TYPED.filter((e) => !e.typed.includes(',')).map((e) => e.amount!));
const CATEGORY_MEANS = [...groupBy(TYPED, (e) => e.category)].map(([name, list]) => ({ name, value: round(sumCents(list.map((e) => e.amount!)) / list.length, 2) }));

const tally = (keys: readonly string[]) => [...groupBy(keys, (k) => k)].map(([k, list]) => [k, list.length] as const).sort((a, b) => a[0].localeCompare(b[0]));
const PER_UTC_DAY = tally(SIGNUPS.map((s) => new Date(s.utcMs).toISOString().slice(0, 10)));
const utcTimes = SIGNUPS.map((s) => s.utcMs);
const SPAN_HOURS = round((Math.max(...utcTimes) - Math.min(...utcTimes)) / 3_600_000, 1);
/** The span when the offsets are ignored (local wall-clock times compared). */
const NAIVE_SPAN_HOURS = round((Date.parse(`${SIGNUPS.at(-1)!.local.slice(0, 19)}Z`) - Date.parse(`${SIGNUPS[0]!.local.slice(0, 19)}Z`)) / 3_600_000, 1);

/** The hand-typed and time-zone requests, in a fixed order. */
export const MESSY_FILE_REQUESTS: RealisticRequest[] = [
  {
    id: 'messy-expenses-total',
    kind: 'files',
    requirement: 'expenses.csv was typed by hand (dollar signs, commas, stray spaces, some n/a). What do the expenses add up to? Skip the n/a ones.',
    inputFiles: expenses(),
    // sum of every amount once "$", "," and spaces are removed; dropping the ones with a comma is the mistake.
    check: async ({ stdout }) => expectNear(stdout, TOTAL, 0.005, [TOTAL_WITHOUT_COMMAS]),
  },
  {
    id: 'messy-category-average',
    kind: 'files',
    requirement: 'In expenses.csv (hand typed, has $ signs and n/a values): average expense per category, ignoring the n/a ones. 2 decimals.',
    inputFiles: expenses(),
    // mean over the rows with an amount; counting n/a as 0 lowers every mean that has one.
    check: async ({ stdout }) => expectEach(stdout, CATEGORY_MEANS.map((r) => ({ ...r, tol: 0.006 }))),
  },
  {
    id: 'tz-signups-per-day-utc',
    kind: 'files',
    requirement:
      'signups.csv has sign-up times from our offices around the world, each with its UTC offset. How many sign-ups were there per day, in UTC?',
    inputFiles: signups(),
    // each instant converted to UTC, counted by UTC date; the date part as written (local) is the mistake.
    check: async ({ stdout }) => {
      const got = new Map(dayCounts(stdout));
      const wrong = PER_UTC_DAY.find(([day, n]) => got.get(day) !== n);
      if (wrong) return bad(`${wrong[0]}: expected ${wrong[1]}, got ${got.get(wrong[0]) ?? 'nothing'}`);
      const extra = [...got].find(([day, n]) => n > 0 && !PER_UTC_DAY.some(([d]) => d === day));
      return extra ? bad(`also ${extra[0]}: ${extra[1]}`) : ok(PER_UTC_DAY.map(([d, n]) => `${d} ${n}`).join(', '));
    },
  },
  {
    id: 'tz-span-hours',
    kind: 'files',
    requirement: 'How many hours passed between the very first and the very last sign-up in signups.csv? Round to 1 decimal.',
    inputFiles: signups(),
    // latest minus earliest instant (offsets applied); comparing the local times as written is the mistake.
    check: async ({ stdout }) => expectNumber(stdout, SPAN_HOURS.toFixed(1), [NAIVE_SPAN_HOURS.toFixed(1)]),
  },
];

