/**
 * Checks stated by the request itself: the examples of a docstring pasted into it, in the doctest
 * form (`>>> truncate_number(3.5)` then `0.5` on the next line). Each is an exact value the
 * request gives for a call, so it becomes `assert truncate_number(3.5) == 0.5` without asking the
 * model: a small model often replies "no checks" to a function request, or copies the function
 * into its checks. Only examples read with certainty are taken: a call of a name, one line of
 * output that is a plain Python literal, nothing that needs the doctest module's text matching.
 * The doctest form: https://docs.python.org/3/library/doctest.html#how-are-docstring-examples-recognized
 */

/**
 * A doctest example: a `>>>` line, then one line of expected output, then the example's end (the
 * end of the text, or a line that is blank, another `>>>`, or the docstring's end): output on more
 * lines is not one value.
 */
const EXAMPLE = /^[ \t]*>>>[ \t]?(.+)\n[ \t]*(?!>>>|\.\.\.)(\S.*)$(?=\n[ \t]*(?:>>>.*|"""|''')?[ \t]*$|(?![\s\S]))/gm;

/** Names a literal may hold (doctest prints these for booleans and no value). */
const LITERAL_NAMES = new Set(['True', 'False', 'None']);

/**
 * The tokens of a line, or undefined when it holds anything outside a conservative subset of
 * Python: names, numbers, plain quoted strings, brackets (balanced), commas, colons, dots, unary
 * minus and `=` (keyword arguments).
 */
function tokens(text: string): string[] | undefined {
  const re = /\s*(?:([A-Za-z_]\w*)|(\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)|('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|([()[\]{},:.=-]))/y;
  const out: string[] = [];
  const open: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let at = 0;
  while (at < text.trimEnd().length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    const token = m[1] ?? m[2] ?? m[3] ?? m[4]!;
    if ('([{'.includes(token)) open.push(token);
    else if (token in pairs && open.pop() !== pairs[token]) return undefined;
    out.push(token);
    at = re.lastIndex;
  }
  return open.length === 0 && out.length > 0 ? out : undefined;
}

/** A call `name(…)` whose brackets close at its end. */
function isCall(text: string): boolean {
  const t = tokens(text);
  if (!t || !/^[A-Za-z_]\w*$/.test(t[0]!) || t[1] !== '(' || t.at(-1) !== ')') return false;
  let depth = 0;
  for (let i = 1; i < t.length; i++) {
    if ('([{'.includes(t[i]!)) depth++;
    else if (')]}'.includes(t[i]!)) depth--;
    if (depth === 0 && i < t.length - 1) return false; // `f(1)(2)` or `f(1) + g(2)`
  }
  return true;
}

/** A value doctest would print as this line: a literal with no name but True, False or None, and no `=`. */
function isLiteral(text: string): boolean {
  const t = tokens(text);
  return t !== undefined && t.every((x) => !/^[A-Za-z_]/.test(x) || LITERAL_NAMES.has(x)) && !t.includes('=');
}

/**
 * The request's doctest examples as assert lines (`assert f(x) == y, "the request's example"`), in
 * order, without repeats; examples that are not a call with a one-line literal result are left out.
 * @param request the requirement (and feedback) as the checks are derived from it
 */
export function doctestAsserts(request: string): string[] {
  const out: string[] = [];
  for (const m of request.replace(/\r\n?/g, '\n').matchAll(EXAMPLE)) {
    const call = m[1]!.trim();
    const expected = m[2]!.trim();
    if (!isCall(call) || !isLiteral(expected)) continue;
    const line = `assert ${call} == ${expected}, ${JSON.stringify(`the request's example: ${call}`)}`;
    if (!out.includes(line)) out.push(line);
  }
  return out;
}
