/**
 * The table of stated methods: the conventions data work states most often, each with how it is
 * recognised in a request and how a program is judged by what it calls (`calls.ts`), no LLM call.
 * The conventions themselves are in `spread.ts` (variance and standard deviation, skewness and
 * kurtosis), `order.ts` (quantiles, the median of an even count, correlation), `numbers.ts`
 * (rounding, percentages, ranges, days counted with both ends) and `defaults.ts` (a library function with its defaults).
 */
import type { CallFact, ProgramCalls } from './calls.js';

/** The conventions the table knows. */
export type ConventionId =
  | 'variance-ddof'
  | 'skew-bias'
  | 'kurtosis-definition'
  | 'correlation'
  | 'quantile-interpolation'
  | 'even-median'
  | 'rounding'
  | 'percent-or-fraction'
  | 'range-ends'
  | 'day-count'
  | 'library-defaults';

/** A convention a request states. */
export interface StatedMethod {
  convention: ConventionId;
  /** Which way it is stated: `population`, `spearman`, `half-up`… */
  variant: string;
  /** The convention in words, as a check's message names it (`population standard deviation`). */
  label: string;
  /** What every program of the run is told (one line). */
  requirement: string;
  /** The functions a `library-defaults` statement names (`scipy.stats.skew`). */
  functions?: string[];
  /** The bounds a range statement names (`between 40 and 60`). */
  bounds?: number[];
}

/** One convention of the table. */
export interface Convention {
  id: ConventionId;
  /** The statements of this convention in a request (none when it states none, or states it both ways). */
  recognise(request: string): StatedMethod[];
  /** Why the program does not follow `stated`, naming the convention and the call; undefined when it does, or nothing says. */
  unmet(stated: StatedMethod, program: ProgramCalls): string | undefined;
}

/** A call as a message quotes it. */
export const quote = (c: CallFact): string => `\`${c.text}\``;

/** Whether a method call's receiver is a NumPy array (`.values`, `.to_numpy()`, `np.array(…)`), whose methods follow NumPy's defaults. */
export function numpyReceiver(c: CallFact): boolean {
  return /\.values\b|\.to_numpy\(|\bnp\.|\bnumpy\.|\barray\(/.test(c.receiver);
}

/** A keyword argument's value as a plain literal: quotes taken off strings (`'neither'` → `neither`). */
export function literal(source: string | undefined): string | undefined {
  if (source === undefined) return undefined;
  const m = /^(['"])(.*)\1$/.exec(source.trim());
  return m ? m[2] : source.trim();
}

/** Whether the request states both of two variants (then neither is taken as stated). */
export function onlyOne<T>(found: T[]): T[] {
  return found.length === 1 ? found : [];
}
