/**
 * The names a failed program's error is about: a column or key that was not there (`KeyError: 19`,
 * `"['regoin'] not in index"`, `Missing column provided to 'parse_dates': 'date'`), a sheet that was
 * not found, or the columns a `.dt` / `.str` accessor was used on when the values were not dates or
 * text. Read from the exception line, the program's last line in the traceback and its code; the
 * profile then says what the data holds under those names (`src/data/name-facts.ts`).
 */
import { exceptionLine } from '../text/exception-line.js';

/** What an error refers to. */
export interface ErrorNames {
  /** Column or key names (a number for `KeyError: 19`), in the order the error gives them. */
  names: (string | number)[];
  /** The accessor used on values that do not have it (`.dt` on text, `.str` on numbers). */
  accessor?: 'dt' | 'str';
  /** A sheet that was asked for and not found. */
  sheet?: string;
}

/** A Python string or number literal: `'a'`, `"a"`, `19`, `-1.5`. */
const LITERAL = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)/g;

/** The literals of a text, strings as strings and numbers as numbers. */
function literals(text: string): (string | number)[] {
  return [...text.matchAll(LITERAL)].map((m) => (m[3] !== undefined ? Number(m[3]) : (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1')));
}

/** Patterns of sheet errors (pandas/openpyxl, xlrd): the sheet's name is group 1. */
const SHEET_ERRORS = [/Worksheet named '(.*)' not found/, /Worksheet (.*) does not exist/, /No sheet named <'(.*)'>/];

/**
 * The source line of the program's own last frame in a traceback (`File "main.py", line N`), the
 * line that failed in the code the model wrote.
 */
export function failingLine(stderr: string): string | undefined {
  const lines = stderr.split('\n');
  let found: string | undefined;
  for (let i = 0; i < lines.length - 1; i++) {
    if (/^\s*File "(?:[^"]*\/)?main\.py", line \d+/.test(lines[i]!)) found = lines[i + 1]!.trim();
  }
  return found;
}

/** Columns used with an accessor in a piece of code: `df['date'].dt`, `df["date"].dt`, `df.date.dt`. */
export function accessorColumns(code: string, accessor: 'dt' | 'str'): string[] {
  const out = new Set<string>();
  const re = new RegExp(String.raw`\[\s*(?:'([^']+)'|"([^"]+)")\s*\]\s*\.${accessor}\b|\.([A-Za-z_]\w*)\.${accessor}\b`, 'g');
  for (const m of code.matchAll(re)) out.add(m[1] ?? m[2] ?? m[3]!);
  return [...out];
}

/**
 * The names an execution's error is about (see the module doc); empty `names` when it names none.
 * @param stderr the execution's stderr (the traceback)
 * @param code the program that failed
 */
export function errorNames(stderr: string, code: string): ErrorNames {
  const line = exceptionLine(stderr) ?? '';
  for (const re of SHEET_ERRORS) {
    const m = re.exec(line);
    if (m) return { names: [], sheet: m[1]! };
  }
  const accessor = /Can only use \.(dt|str) accessor/.exec(line)?.[1] as 'dt' | 'str' | undefined;
  if (accessor) {
    const where = failingLine(stderr);
    const inLine = where ? accessorColumns(where, accessor) : [];
    return { names: inLine.length > 0 ? inLine : accessorColumns(code, accessor), accessor };
  }
  const key = /^(?:[\w.]+\.)?KeyError: (.*)$/.exec(line)?.[1];
  if (key !== undefined) {
    // "['a', 'b'] not in index", "None of [Index(['a'], dtype='object')] are in the [columns]", 'a', 19
    const inner = /^"(.*)"$/.exec(key)?.[1] ?? key;
    const listed = /\[(?:Index\()?\[?([^\]]*)\]/.exec(inner);
    const names = literals(listed ? listed[1]! : key).filter((n) => n !== 'object');
    return { names: names.slice(0, 5) };
  }
  const missing = /Missing column provided to '\w+': (.*)$/.exec(line)?.[1] ?? /columns expected but not found: (.*)$/.exec(line)?.[1];
  if (missing !== undefined) {
    const names = literals(missing).flatMap((n): (string | number)[] => (typeof n === 'string' ? n.split(/,\s*/) : [n]));
    return { names: names.slice(0, 5) };
  }
  const attribute = /^AttributeError: '(?:DataFrame|Series)' object has no attribute '(\w+)'/.exec(line)?.[1];
  if (attribute !== undefined) return { names: [attribute] };
  return { names: [] };
}
