/**
 * What a program calls, read once per program by `calls-source.ts` in the sandbox (one execution;
 * the code is never parsed on the host): each call with its function, receiver and arguments, and
 * the few other facts the stated methods are judged by (names used, format specs, comparisons with
 * constants, multiplications by 100). Stated methods (`stated.ts`) are judged from these.
 */
import type { Executor } from '../../../sandbox/types.js';
import { CALLS_INPUT, CALLS_PROGRAM } from './calls-source.js';

/** One call of the program. */
export interface CallFact {
  /** The function's full name when it comes from an import or is a builtin (`numpy.std`, `scipy.stats.skew`, `round`); '' for a method of a value. */
  fn: string;
  /** The called name itself (`std` of `df['x'].std()`). */
  method: string;
  /** For a method of a value: the value's source (`df['x']`), else ''. */
  receiver: string;
  /** Keyword arguments: name → source text. */
  kw: Record<string, string>;
  /** The first positional arguments' source texts. */
  args: string[];
  /** The call's source, on one line (at most 120 characters). */
  text: string;
}

/** A comparison `<`, `<=`, `>`, `>=` of the program, with the constant numbers on its sides. */
export interface CompareFact {
  op: '<' | '<=' | '>' | '>=';
  consts: number[];
  text: string;
}

/** What a program calls and uses (see the module comment). */
export interface ProgramCalls {
  calls: CallFact[];
  /** Every name and attribute name the code uses (`ROUND_HALF_UP`, `rank`). */
  names: string[];
  /** Format specs of f-strings (`.2f`, `.1%`) and string constants that hold a format (`{:.2%}`, `%.2f`). */
  formats: string[];
  compares: CompareFact[];
  /** Multiplications or divisions by 100 (`share * 100`), and `.mul(100)` calls. */
  hundreds: string[];
  /** Whether the code adds 3 somewhere (an excess kurtosis made Pearson's). */
  plus3: boolean;
  /** Whether the code adds 1 somewhere (`+ 1`, `+= 1`: a day count that includes both ends). */
  plus1: boolean;
}

/** Wall and CPU time of the reading execution, in s. */
export const CALLS_TIME_S = 10;

/**
 * Reads what a program calls, in the sandbox. Undefined when it could not be read (the code does
 * not parse, the execution failed): nothing is judged then (a program that does not parse fails
 * on its own).
 * @throws {SandboxUnavailableError} when the sandbox cannot isolate here
 */
export async function readCalls(executor: Executor, code: string, signal?: AbortSignal): Promise<ProgramCalls | undefined> {
  const result = await executor.execute(CALLS_PROGRAM, {
    inputFiles: [{ name: CALLS_INPUT, content: Buffer.from(code, 'utf8') }],
    limits: { wallTimeS: CALLS_TIME_S, cpuTimeS: CALLS_TIME_S },
    ...(signal ? { signal } : {}),
  });
  if (!result.success) return undefined;
  try {
    const data = JSON.parse(result.stdout) as Partial<ProgramCalls> & { error?: string };
    if (data.error !== undefined || !Array.isArray(data.calls)) return undefined;
    return {
      calls: data.calls,
      names: data.names ?? [],
      formats: data.formats ?? [],
      compares: data.compares ?? [],
      hundreds: data.hundreds ?? [],
      plus3: data.plus3 === true,
      plus1: data.plus1 === true,
    };
  } catch {
    return undefined;
  }
}
