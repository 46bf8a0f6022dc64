/**
 * Failures on the data: when a program fails on the structure of its input (a key or column that
 * is not there, a string indexed like a dict, a parse error, an empty result), the next prompt
 * says so and repeats how to read the files it read (the profile itself is in the chat's first message).
 */
import type { ExecutionResult } from '../sandbox/types.js';
import { exceptionLine } from '../text/exception-line.js';
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

/** The lines of a file's profile that say how to read it (repeated after a failure on its data). */
const HOW_TO_READ = /^(?:read it with|records): /;

/**
 * What to say after a failure on the data: that it is about the data's structure, how to read the
 * files the program names (all files when it names none) as their profile says — their `read it
 * with` and `records` lines, not their whole profile: the whole profile is in the first message of
 * the same chat — and, for a `KeyError`, whether the failing key appears in the profile at all.
 * Undefined when the failure is not about the data.
 * @param code the program that failed (to see which files it read)
 */
export function dataFeedback(profile: InputProfile | undefined, result: ExecutionResult, code: string): string | undefined {
  if (!profile || profile.files.length === 0 || !failedOnData(result)) return undefined;
  const named = profile.files.filter((f) => code.includes(f.name));
  const files = named.length > 0 ? named : profile.files;
  const howToRead = files.flatMap((f) => {
    const lines = f.text.split('\n').filter((l) => HOW_TO_READ.test(l));
    return lines.length > 0 ? [`--- ${f.name}: ${lines.join('\n')}`] : [];
  });
  const key = /KeyError: (?:"|')?(.*?)(?:"|')?$/.exec(exceptionLine(result.stderr) ?? '')?.[1];
  const lines = [
    result.success
      ? 'The program found nothing in the data. Read the data with the structure its profile (above) shows (keys, columns, header, delimiter, format):'
      : 'The failure is about the structure of the input data. Read the data with the structure its profile (above) shows (keys, columns, header, delimiter, format):',
    ...howToRead,
  ];
  if (key !== undefined && key !== '' && !files.some((f) => fileProfileText(profile, f.name)!.includes(key))) {
    lines.push(`The key ${JSON.stringify(key)} does not appear in the profile: use the names it shows.`);
  }
  return lines.join('\n');
}
