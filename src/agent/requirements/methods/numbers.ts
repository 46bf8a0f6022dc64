/**
 * Conventions of how numbers are given (`table.ts`): rounding halves up or to even (Python's
 * `round()` and NumPy round halves to even; `Decimal(...).quantize(..., ROUND_HALF_UP)` rounds
 * them up), a percentage (0–100) or a fraction (0–1), and a range that includes or excludes its
 * ends (`.between()` includes both by default).
 */
import type { ProgramCalls } from './calls.js';
import { literal, onlyOne, quote, type Convention, type StatedMethod } from './table.js';

const HALF_UP = /\bround(?:ing)?\s+(?:the\s+)?hal(?:f|ves)\s+up\b|\bhal(?:f|ves)[- ]up\b|\bROUND_HALF_UP\b|\brounding\s+hal(?:f|ves)\s+up|\bhal(?:f|ves)\s+(?:are\s+|always\s+)?rounded\s+up\b|\.5\s+(?:always\s+)?rounds?\s+up\b/i;
const HALF_EVEN = /\bhal(?:f|ves)[- ]to[- ]even\b|\bhal(?:f|ves)[- ]even\b|\bbanker'?s\s+rounding\b|\bROUND_HALF_EVEN\b/i;

/** Where the program rounds halves up: a `ROUND_HALF_UP`, or a floor of something plus 0.5. */
function halfUpAt(program: ProgramCalls): string | undefined {
  if (program.names.includes('ROUND_HALF_UP')) return '`ROUND_HALF_UP`';
  const floor = program.calls.find((c) => /^(?:math\.floor|numpy\.floor|floor)$/.test(c.fn || c.method) && /\+\s*0?\.5\b/.test(c.text));
  return floor ? quote(floor) : undefined;
}

/** Where the program rounds halves to even: `round()`, NumPy's or pandas' round, or a format spec with decimals. */
function halfEvenAt(program: ProgramCalls): string | undefined {
  const call = program.calls.find((c) => c.fn === 'round' || /^numpy\.(?:round|around)$/.test(c.fn) || (c.fn === '' && c.method === 'round'));
  if (call) return quote(call);
  const spec = program.formats.find((f) => /\.\d+f/.test(f));
  return spec !== undefined ? `the format \`${spec}\`` : undefined;
}

const rounding: Convention = {
  id: 'rounding',
  recognise(request) {
    const found: StatedMethod[] = [];
    if (HALF_UP.test(request)) found.push({ convention: 'rounding', variant: 'half-up', label: 'rounding halves up', requirement: "Round halves up (12.25 → 12.3): float(Decimal(str(x)).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)) from decimal; Python's round(), numpy and pandas round halves to even (round(12.25, 1) == 12.2)." });
    if (HALF_EVEN.test(request)) found.push({ convention: 'rounding', variant: 'half-even', label: 'rounding halves to even', requirement: "Round halves to even (banker's rounding, 12.25 → 12.2): Python's round() does; do not use ROUND_HALF_UP or floor(x + 0.5)." });
    return onlyOne(found);
  },
  unmet(stated, program) {
    if (stated.variant === 'half-up') {
      if (halfUpAt(program) !== undefined) return undefined;
      const even = halfEvenAt(program);
      return even ? `${stated.label} asked; ${even} rounds halves to even (round(12.25, 1) is 12.2)` : undefined;
    }
    const up = halfUpAt(program);
    return up ? `${stated.label} asked; ${up} rounds halves up` : undefined;
  },
};

const FRACTION = /\bas an? (?:fraction|proportion|share|ratio)\b|\bfraction between 0 and 1\b|\bbetween 0 and 1\b|\(\s*0\s*[-–]\s*1\s*\)|\bnot (?:as )?a percent(?:age)?\b/i;
const PERCENT = /\bpercentage\b|\bpercent\b|\bin %|\(\s*0\s*[-–]\s*100\s*\)|\b0\s*[-–]\s*100\b/i;

const percentOrFraction: Convention = {
  id: 'percent-or-fraction',
  recognise(request) {
    if (FRACTION.test(request)) return [{ convention: 'percent-or-fraction', variant: 'fraction', label: 'a fraction (0–1)', requirement: 'Give the share as a fraction between 0 and 1: do not multiply it by 100 and print no % sign.' }];
    if (PERCENT.test(request)) return [{ convention: 'percent-or-fraction', variant: 'percent', label: 'a percentage (0–100)', requirement: 'Give the share as a percentage (0–100): multiply the fraction by 100.' }];
    return [];
  },
  unmet(stated, program) {
    // an f-string spec `.1%` or a `{:.2%}` format: Python multiplies by 100 itself
    const percentFormat = program.formats.find((f) => /^[.,\d]*%$/.test(f) || /\{[^{}]*:[^{}]*%\}/.test(f));
    if (stated.variant === 'percent') {
      if (program.hundreds.length > 0 || percentFormat !== undefined) return undefined;
      const share = program.calls.find((c) => c.fn === '' && (c.method === 'mean' || (c.method === 'value_counts' && literal(c.kw.normalize) === 'True')));
      return share ? `${stated.label} asked; the program never multiplies by 100, so ${quote(share)} is printed as a fraction` : undefined;
    }
    if (program.hundreds.length > 0) return `${stated.label} asked; \`${program.hundreds[0]}\` makes it a percentage`;
    if (percentFormat !== undefined) return `${stated.label} asked; the format \`${percentFormat}\` prints it as a percentage`;
    return undefined;
  },
};

const INCLUSIVE = /\binclusive\b|\bboth ends (?:count|included)\b|\bincluding (?:both|the) (?:ends|bounds)\b/i;
const EXCLUSIVE = /\bexclusive\b|\bstrictly\s+(?:between|greater|less|above|below)\b|\bnot (?:counting|including) the (?:ends|bounds)\b|\bthemselves do not count\b/i;

const rangeEnds: Convention = {
  id: 'range-ends',
  recognise(request) {
    const inclusive = INCLUSIVE.test(request.replace(/\bexclusive\b/gi, ''));
    const exclusive = EXCLUSIVE.test(request);
    if (inclusive === exclusive) return [];
    const m = /\bbetween\s+(-?\d+(?:\.\d+)?)\s+and\s+(-?\d+(?:\.\d+)?)|\bfrom\s+(-?\d+(?:\.\d+)?)\s+to\s+(-?\d+(?:\.\d+)?)/i.exec(request);
    const bounds = m ? [Number(m[1] ?? m[3]), Number(m[2] ?? m[4])] : undefined;
    const ends = bounds ? ` (${bounds.join(' and ')})` : '';
    return inclusive
      ? [{ convention: 'range-ends', variant: 'inclusive', label: `a range that includes its ends${ends}`, requirement: `The range includes its ends${ends}: compare with >= and <=, or .between(a, b) (inclusive by default).`, ...(bounds ? { bounds } : {}) }]
      : [{ convention: 'range-ends', variant: 'exclusive', label: `a range that excludes its ends${ends}`, requirement: `The range excludes its ends${ends}: compare with > and <, or .between(a, b, inclusive='neither') (.between includes both ends by default).`, ...(bounds ? { bounds } : {}) }];
  },
  unmet(stated, program) {
    const inclusive = stated.variant === 'inclusive';
    for (const c of program.calls) {
      if (c.fn !== '' || c.method !== 'between') continue;
      const given = literal(c.kw.inclusive ?? c.args[2]) ?? 'both';
      const both = given === 'both' || given === 'True';
      const neither = given === 'neither' || given === 'False';
      if (inclusive && !both) return `${stated.label} asked; ${quote(c)} leaves out ${neither ? 'both ends' : 'an end'}`;
      if (!inclusive && !neither) return `${stated.label} asked; ${quote(c)} includes ${both ? `both ends${c.kw.inclusive ? '' : " (inclusive='both' is its default)"}` : 'an end'}`;
    }
    if (!stated.bounds) return undefined;
    for (const cmp of program.compares) {
      if (!cmp.consts.some((v) => stated.bounds!.includes(v))) continue;
      const strict = cmp.op === '<' || cmp.op === '>';
      if (inclusive && strict) return `${stated.label} asked; \`${cmp.text}\` leaves out the bound`;
      if (!inclusive && !strict) return `${stated.label} asked; \`${cmp.text}\` includes the bound`;
    }
    return undefined;
  },
};

/** A count of days that includes the first and the last day ("counting both the first and the last day"). */
const BOTH_DAYS = /\b(?:count(?:ing)?|includ(?:e|ing))\s+both\s+(?:the\s+)?(?:first\s+and\s+(?:the\s+)?last\s+day|start\s+and\s+(?:the\s+)?end\s+dates?|end\s*(?:points|days|dates)|dates|days)\b|\bdays?\b[^.?!]{0,60}\binclusive\b|\binclusive\b[^.?!]{0,30}\bdays?\b/i;

const dayCount: Convention = {
  id: 'day-count',
  recognise(request) {
    if (!BOTH_DAYS.test(request)) return [];
    return [{ convention: 'day-count', variant: 'both-ends', label: 'a count of days that includes the first and the last day', requirement: 'Count both the first and the last day: (end - start).days + 1, or len(pd.date_range(start, end)) (it includes both dates).' }];
  },
  unmet(stated, program) {
    // a timedelta's .days counts the days after the first one: both ends need one more
    if (!program.names.includes('days') || program.plus1) return undefined;
    if (program.calls.some((c) => /(?:^|\.)(?:b?date_range|busday_count)$/.test(c.fn || c.method))) return undefined;
    return `${stated.label} asked; the program takes a difference's \`.days\` (the days after the first one) and never adds 1`;
  },
};

/** The conventions of how numbers are given. */
export const NUMBER_CONVENTIONS: readonly Convention[] = [rounding, percentOrFraction, rangeEnds, dayCount];
