/**
 * The constants a check compares the program with, read from the checks' source by Python's own
 * parser (`ast`) in the host's `/usr/bin/python3 -I`, which parses the text and executes nothing
 * of it. An assert `count == 10` compares with the literal `10`; `values == [n * n for n in …]`
 * compares with a value its code computes (no literal). `guesses.ts` decides which literals the
 * request states and which the check made up.
 */
import { execFile } from 'node:child_process';

/** The interpreter that parses checks (Debian's; the sandbox needs it too). */
export const PARSER_PYTHON = '/usr/bin/python3';
/** Longest checks' source parsed, in characters (derived checks are a few lines). */
export const MAX_SOURCE_CHARS = 20_000;
/** How long the parse may take, in ms. */
export const PARSE_TIMEOUT_MS = 5_000;

/** One value inside a literal: a number, a string, or a flag (`True`, `False`, `None`). */
export type LiteralAtom = { k: 'num'; v: number } | { k: 'str'; v: string } | { k: 'flag' } | { k: 'other' };

/** A literal one side of an assert's comparison is made of. */
export interface CheckLiteral {
  /** The values it holds, flattened (a list's items, a dict's keys and values); empty for `[]`, `''`… */
  atoms: LiteralAtom[];
  /** Its source text (at most 200 characters), e.g. `10` or `[255, 511]`. */
  text: string;
  /** True when the other side counts the output's lines (`len(OUTPUT.splitlines())`, `'\n' in OUTPUT`): a form. */
  form: boolean;
}

/** An assert of the checks and the literals it compares with (none: it compares with computed values). */
export interface AssertLiterals {
  /** The assert's source as the sandbox runner reports it (stripped). */
  check: string;
  literals: CheckLiteral[];
}

/**
 * The parser, given the checks' source on stdin. For each top-level assert whose test is one
 * comparison (`==`, `!=`, `in`, `not in`, `is`), or an `and` of such, each side that
 * `ast.literal_eval` reads (a constant, or a container of constants: it evaluates nothing else) is
 * a literal; the other side must not be one.
 */
const SCRIPT = String.raw`
import ast, json, math, sys
OPS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is)
def atoms(v, out, depth=0):
    if depth > 20 or len(out) > 500:
        out.append({"k": "other"}); return
    if isinstance(v, bool) or v is None:
        out.append({"k": "flag"})
    elif isinstance(v, (int, float)):
        out.append({"k": "num", "v": float(v)} if math.isfinite(v) else {"k": "other"})
    elif isinstance(v, str):
        out.append({"k": "str", "v": v[:2000]})
    elif isinstance(v, (list, tuple, set, frozenset)):
        for x in v: atoms(x, out, depth + 1)
    elif isinstance(v, dict):
        for k, x in v.items():
            atoms(k, out, depth + 1); atoms(x, out, depth + 1)
    else:
        out.append({"k": "other"})
def literal(node):
    try:
        return True, ast.literal_eval(node)
    except Exception:
        return False, None
def is_form(node):
    text = ast.unparse(node)
    return "splitlines" in text or "\\n" in text
def compares(test):
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [c for v in test.values for c in compares(v)]
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], OPS):
        return [test]
    return []
src = sys.stdin.read()
out = []
for node in ast.parse(src).body:
    if not isinstance(node, ast.Assert):
        continue
    text = (ast.get_source_segment(src, node) or ast.unparse(node)).strip()
    found = []
    for c in compares(node.test):
        sides = [c.left, c.comparators[0]]
        read = [literal(s) for s in sides]
        if read[0][0] == read[1][0]:
            continue
        i = 0 if read[0][0] else 1
        a = []
        atoms(read[i][1], a)
        found.append({"atoms": a, "text": ast.unparse(sides[i])[:200], "form": is_form(sides[1 - i]) or (isinstance(read[i][1], str) and "\n" in read[i][1])})
    out.append({"check": text, "literals": found})
print(json.dumps(out))
`;

/**
 * The literals each assert of `source` compares with, read without executing anything.
 * @returns one entry per top-level assert, in order; undefined when the source cannot be read
 *   (not valid Python, longer than {@link MAX_SOURCE_CHARS}, no parser here, or the parse took
 *   longer than {@link PARSE_TIMEOUT_MS}): then no check is taken for a guess
 */
export function assertLiterals(source: string, python: string = PARSER_PYTHON): Promise<AssertLiterals[] | undefined> {
  if (source.trim() === '' || source.length > MAX_SOURCE_CHARS) return Promise.resolve(source.trim() === '' ? [] : undefined);
  return new Promise((resolve) => {
    const child = execFile(python, ['-I', '-c', SCRIPT], { timeout: PARSE_TIMEOUT_MS, maxBuffer: 4 << 20, env: {} }, (err, stdout) => {
      if (err) return resolve(undefined);
      try {
        const parsed = JSON.parse(stdout) as AssertLiterals[];
        resolve(Array.isArray(parsed) ? parsed : undefined);
      } catch {
        resolve(undefined);
      }
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(source);
  });
}
