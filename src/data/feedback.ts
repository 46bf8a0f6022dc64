/**
 * Failures on the data: when a program fails on the structure of its input (a key or column that
 * is not there, a string indexed like a dict, a parse error, an empty result), the next prompt
 * shows the profile of the files it read, not only the traceback.
 */
import type { ExecutionResult } from '../sandbox/types.js';
import { exceptionLine } from '../agent/failure.js';
import { fileProfileText, type InputProfile } from './profile.js';

/**
 * Exceptions that say the program assumed a structure the data does not have. Matched against the
 * `Type: message` line of the traceback.
 */
const STRUCTURAL = [
  /^(?:[\w.]+\.)?KeyError\b/,
  /^(?:[\w.]+\.)?IndexError\b/,
  /^TypeError: .*(?:indices must be integers|not subscriptable|object is not iterable|unhashable type|not supported between instances|can only concatenate|unsupported operand type|must be str, not|argument must be a string or a number)/,
  /^AttributeError: '(?:list|dict|str|int|float|NoneType|Series|DataFrame)' object has no attribute/,
  /^(?:[\w.]+\.)?ValueError: .*(?:could not convert|invalid literal|time data|does not match format|Length mismatch|columns passed|Expected object or value|Trailing data|too many values to unpack|not enough values to unpack|Usecols|not in list|Unknown string format)/,
  /^(?:[\w.]+\.)?(?:ParserError|EmptyDataError|JSONDecodeError|UnicodeDecodeError)\b/,
  /^_?csv\.Error\b/,
  /^(?:[\w.]+\.)?(?:XLRDError|InvalidFileException|BadZipFile)\b/,
];

/** Output that says a program found nothing where rows were expected. */
const EMPTY_RESULT = /^\s*$|Empty DataFrame|Series\(\[\], |^\s*(?:nan|None|\[\]|\{\}|0)\s*$/i;

/**
 * Whether an execution failed on the data's structure: a structural exception, or (exit 0) an
 * empty result (no output, an empty DataFrame, a lone `0`/`nan`/`None`).
 */
export function failedOnData(result: ExecutionResult): boolean {
  if (result.success) return EMPTY_RESULT.test(result.stdout);
  if (result.limitHit || result.timedOut) return false;
  const line = exceptionLine(result.stderr);
  return line !== undefined && STRUCTURAL.some((re) => re.test(line));
}

/**
 * The part of the profile that explains a failure on the data: the profiles of the files the
 * program names (all files when it names none), and, for a `KeyError`, whether the failing key
 * appears in them at all. Undefined when the failure is not about the data.
 * @param code the program that failed (to see which files it read)
 */
export function dataFeedback(profile: InputProfile | undefined, result: ExecutionResult, code: string): string | undefined {
  if (!profile || profile.files.length === 0 || !failedOnData(result)) return undefined;
  const named = profile.files.filter((f) => code.includes(f.name));
  const files = named.length > 0 ? named : profile.files;
  const sections = files.map((f) => fileProfileText(profile, f.name)!);
  const key = /KeyError: (?:"|')?(.*?)(?:"|')?$/.exec(exceptionLine(result.stderr) ?? '')?.[1];
  const lines = [
    result.success
      ? 'The program found nothing in the data. The input data, as profiled:'
      : 'The failure is about the structure of the input data. The input data, as profiled:',
    ...sections,
  ];
  if (key !== undefined && key !== '' && !sections.some((s) => s.includes(key))) {
    lines.push(`The key ${JSON.stringify(key)} does not appear in this profile: use the names shown above.`);
  }
  lines.push('Read the data with the structure shown above (keys, columns, header, delimiter, format).');
  return lines.join('\n');
}
