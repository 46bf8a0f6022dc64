/**
 * A small deterministic pseudo-random generator (mulberry32) for the generated input files: the
 * same seed gives the same bytes on every machine and Node version, so the expected answers, which
 * the checkers compute from the generated records, never move.
 */

/** Draws from one seeded stream. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [lo, hi] (both included). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One element, drawn with the given relative weights (same length as `items`). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items.at(-1)!;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A price-like number in [lo, hi] with 2 decimals. */
  cents(lo: number, hi: number): number {
    return this.int(Math.round(lo * 100), Math.round(hi * 100)) / 100;
  }
}

/** Rounds half away from zero to `digits` decimals, on the decimal value (so 2.675 → 2.68). */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.sign(x) * Math.round(Number((Math.abs(x) * f).toPrecision(12))) / f;
}

/** Sum of values in cents, exact for 2-decimal amounts; returned in units. */
export function sumCents(values: readonly number[]): number {
  return values.reduce((n, v) => n + Math.round(v * 100), 0) / 100;
}

/** Groups values by key, keys in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

/** Entries of a map sorted by value, biggest first (ties by key). */
export function biggestFirst(m: ReadonlyMap<string, number>): [string, number][] {
  return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Two-digit text of a number (`7` → `07`). */
export const pad2 = (n: number) => String(n).padStart(2, '0');
