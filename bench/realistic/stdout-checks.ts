/** Checks on a program's stdout shared by the requests; each returns a verdict saying what it saw. */
import { hasNumber, lineIndex, linesOf, numbersIn, wordRe } from './parse.js';
import { bad, ok, type Verdict } from './types.js';

const excerpt = (stdout: string) => {
  const t = stdout.trim().replace(/\s+/g, ' ');
  return t === '' ? 'nothing printed' : `printed "${t.length > 80 ? `${t.slice(0, 77)}…` : t}"`;
};

/** `expected` (e.g. `71.68`) is printed as a number; each of `wrong` is not. */
export function expectNumber(stdout: string, expected: string, wrong: readonly string[] = []): Verdict {
  if (!hasNumber(stdout, expected)) return bad(`expected ${expected}, ${excerpt(stdout)}`);
  const seen = wrong.find((w) => hasNumber(stdout, w));
  return seen ? bad(`printed ${expected} but also ${seen}`) : ok(`printed ${expected}`);
}

/** Each value is printed (as a number), their first appearances in this order. */
export function expectNumbersInOrder(stdout: string, values: readonly string[]): Verdict {
  let from = 0;
  for (const v of values) {
    const rest = stdout.slice(from);
    const m = new RegExp(`(?<![\\d.])${v.replace('.', '\\.')}(?!\\d)`).exec(rest);
    if (!m) return bad(hasNumber(stdout, v) ? `${v} is out of order` : `${v} not printed; ${excerpt(stdout)}`);
    from += m.index + m[0].length;
  }
  return ok(`printed ${values.join(', ')} in order`);
}

/** One expected row of a listing: a name and the number printed on its line. */
export interface Row {
  name: string;
  value: number;
  /** Allowed difference (default 0.005). */
  tol?: number;
}

/**
 * Each row's name is printed on a line that also shows its value, the rows in this order
 * (by the first line naming each); none of `absent` is named anywhere.
 */
export function expectRows(stdout: string, rows: readonly Row[], absent: readonly string[] = []): Verdict {
  const lines = linesOf(stdout);
  let previous = -1;
  for (const row of rows) {
    const shows = (l: string | undefined) => l !== undefined && numbersIn(l).some((n) => Math.abs(n - row.value) <= (row.tol ?? 0.005));
    // the value on the name's line, or on the next one when the name's line has no number ("Name: Amira" / "Score: 97")
    const at = lines.findIndex((l, i) => wordRe(row.name).test(l) && (shows(l) || (numbersIn(l).length === 0 && shows(lines[i + 1]))));
    if (at < 0) {
      const named = lineIndex(lines, wordRe(row.name));
      return bad(named < 0 ? `${row.name} not printed` : `${row.name}: expected ${row.value}, line "${lines[named]}"`);
    }
    if (at < previous) return bad(`${row.name} is out of order`);
    previous = at;
  }
  const extra = absent.find((a) => wordRe(a).test(stdout));
  return extra ? bad(`also lists ${extra}`) : ok(`${rows.map((r) => r.name).join(' > ')} with the right values`);
}

/** Some line matching `label` shows `expected` (e.g. the line saying "missing" shows 8). */
export function expectLabelled(stdout: string, label: RegExp, expected: number): Verdict {
  const lines = linesOf(stdout).filter((l) => label.test(l));
  if (!lines.length) return bad(`no line matching ${label}; ${excerpt(stdout)}`);
  return lines.some((l) => numbersIn(l).includes(expected))
    ? ok(`${label.source}: ${expected}`)
    : bad(`${label.source}: expected ${expected}, got "${lines[0]}"`);
}

/** Each row's name is printed on a line that also shows its value, in any order. */
export function expectEach(stdout: string, rows: readonly Row[]): Verdict {
  for (const row of rows) {
    const verdict = expectRows(stdout, [row]);
    if (!verdict.pass) return verdict;
  }
  return ok(`${rows.map((r) => `${r.name} ${r.value}`).join(', ')}`);
}

/**
 * Some number printed is within `tol` of `expected` (for answers the request did not ask to round,
 * e.g. a float sum printed as `4286.639999999999`); none is within `tol` of a value in `wrong`.
 */
export function expectNear(stdout: string, expected: number, tol: number, wrong: readonly number[] = []): Verdict {
  const nums = numbersIn(stdout);
  const near = (v: number) => nums.some((n) => Math.abs(n - v) <= tol);
  if (!near(expected)) return bad(`expected ${expected}, ${excerpt(stdout)}`);
  const seen = wrong.find(near);
  return seen === undefined ? ok(`printed ${expected}`) : bad(`printed ${expected} but also ${seen}`);
}
