/**
 * A program's facts, read once when a version is saved: its parameters and the tools it names,
 * found by Python's `ast` in one sandbox execution (facts-source.ts; the code is untrusted and is
 * never parsed on the host). What comes back is checked and bounded before it is kept.
 */
import type { Executor } from '../sandbox/types.js';
import type { ProgramParameter, ProgramSpan } from '../history/programs.js';
import { InputError } from '../config/errors.js';
import { boundLine } from '../text/cut.js';
import { FACTS_INPUT, FACTS_PROGRAM } from './facts-source.js';
import { MAX_VALUE_CHARS } from './parameters.js';

/** What a version's code says of itself. */
export interface ProgramFacts {
  parameters: ProgramParameter[];
  /** SQL sources named in `sql("<source>", …)`. */
  sources: string[];
  /** Hosts (`host` or `host:port`) of the http(s) URLs it spells. */
  hosts: string[];
}

/** Most parameters kept per version. */
export const MAX_PARAMETERS = 30;
/** Wall and CPU time of the facts execution, in s. */
export const FACTS_TIME_S = 20;

/**
 * Reads a program's facts in the sandbox.
 * @throws {InputError} when the code does not parse as Python, or the facts could not be read
 * @throws {SandboxUnavailableError} when the sandbox cannot isolate here
 */
export async function readFacts(executor: Executor, code: string, signal?: AbortSignal): Promise<ProgramFacts> {
  const result = await executor.execute(FACTS_PROGRAM, {
    inputFiles: [{ name: FACTS_INPUT, content: Buffer.from(code, 'utf8') }],
    limits: { wallTimeS: FACTS_TIME_S, cpuTimeS: FACTS_TIME_S },
    ...(signal ? { signal } : {}),
  });
  if (!result.success) throw new InputError(`the program's parameters could not be read: ${boundLine(result.stderr.trim().split('\n').at(-1) ?? `exit ${result.exitCode}`, 300)}`);
  let data: { error?: unknown; parameters?: unknown; sources?: unknown; hosts?: unknown };
  try {
    data = JSON.parse(result.stdout) as typeof data;
  } catch {
    throw new InputError("the program's parameters could not be read: the reader's answer was not JSON");
  }
  if (typeof data.error === 'string') throw new InputError(boundLine(data.error, 300));
  return {
    parameters: (Array.isArray(data.parameters) ? data.parameters : []).map(parameterOf).filter((p): p is ProgramParameter => p !== undefined).slice(0, MAX_PARAMETERS),
    sources: strings(data.sources),
    hosts: strings(data.hosts),
  };
}

function strings(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string' && s.length > 0 && s.length <= 200).slice(0, 20) : [];
}

/** One parameter as the reader sent it, when well-formed. */
function parameterOf(raw: unknown): ProgramParameter | undefined {
  const p = raw as { name?: unknown; type?: unknown; default?: unknown; span?: unknown };
  if (typeof p?.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(p.name)) return undefined;
  const span = spanOf(p.span);
  if (!span) return undefined;
  switch (p.type) {
    case 'str':
      return typeof p.default === 'string' && p.default.length <= MAX_VALUE_CHARS ? { name: p.name, type: 'str', default: p.default, span } : undefined;
    case 'int':
      return Number.isSafeInteger(p.default) ? { name: p.name, type: 'int', default: p.default as number, span } : undefined;
    case 'float':
      return typeof p.default === 'number' && Number.isFinite(p.default) ? { name: p.name, type: 'float', default: p.default, span } : undefined;
    case 'bool':
      return typeof p.default === 'boolean' ? { name: p.name, type: 'bool', default: p.default, span } : undefined;
    default:
      return undefined;
  }
}

function spanOf(raw: unknown): ProgramSpan | undefined {
  const s = raw as Partial<ProgramSpan>;
  const ok = (n: unknown, min: number) => Number.isInteger(n) && (n as number) >= min;
  return s && ok(s.line, 1) && ok(s.endLine, 1) && ok(s.col, 0) && ok(s.endCol, 0) ? { line: s.line!, col: s.col!, endLine: s.endLine!, endCol: s.endCol! } : undefined;
}
