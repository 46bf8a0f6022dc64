/**
 * Checks derived from the requirement: `assert` statements the LLM writes from the request alone
 * (it never sees the program), run in the sandbox after the program (see `runner.py`). They are
 * derived once per run and frozen: an auto-fix attempt cannot change them, so the model cannot
 * weaken a check to make its program pass. User feedback may change what the program must do;
 * the checks are then derived again and any assert that disappeared is reported as dropped.
 */
import type { ChatMessage, LlmProvider } from '../../llm/types.js';
import type { CheckReport } from '../../sandbox/types.js';
import { extractCode } from '../replies/index.js';
import { boundLine } from '../../text/cut.js';
import { doctestAsserts } from './doctest-checks.js';
import type { RunChecks } from '../../history/run-parts.js';
export type { RunChecks } from '../../history/run-parts.js';

/** Most asserts kept from one derivation (more are cut; they cost time and rarely add). */
export const MAX_CHECKS = 6;


/** Instructions for deriving checks. Few-shot, for small local models as much as large ones. */
export const CHECKS_PROMPT = `You write checks for a Python program that someone else writes from the same request; you do not see it.
Write Python ending in \`assert\` lines that test only what the request states for certain: counts, the printed format, exact values, the request's own examples, files it asks for.
Use only: OUTPUT (a str: everything the program printed), names the request itself gives, the standard library, and names your checks define. Never call a helper you did not write.
Never check values that depend on random numbers, the time, or data you do not have. At most ${MAX_CHECKS} asserts, each with a short message.
Take each expected value from the request, or compute it in code; never write a value you worked out in your head. Check the output's form (its lines, separators) only where the request asks for one.
When the request asks for several values, write one assert per value, not only for the first. Parse only what you need from OUTPUT.
If nothing can be checked for certain, reply \`# no checks\`. Reply with one \`\`\`python block only.

Example request: print the squares of 1 to 5 separated by spaces
\`\`\`python
values = [int(v) for v in OUTPUT.split()]
assert len(values) == 5, "five numbers"
assert values == [n * n for n in range(1, 6)], "the squares of 1..5"
\`\`\`

Example request: write a function is_even(n) that returns True for even numbers
\`\`\`python
assert is_even(4) == True, "4 is even"
assert is_even(7) == False, "7 is odd"
\`\`\``;

/**
 * Asks the LLM for checks of a request.
 * @param previous the run's checks so far (after feedback): asserts missing from the new ones are `dropped`
 * @returns the checks, the request's doctest examples first ({@link withRequestExamples}); `code` is
 *   empty when neither the reply nor the request gave a usable assert
 * @throws {LlmError} when the LLM call fails (the caller decides whether that ends the run)
 */
export async function deriveChecks(
  llm: LlmProvider,
  request: string,
  options: { signal?: AbortSignal; previous?: RunChecks; broken?: string } = {},
): Promise<RunChecks> {
  const messages: ChatMessage[] = [
    { role: 'system', content: CHECKS_PROMPT },
    { role: 'user', content: `Request: ${request}` },
  ];
  if (options.broken && options.previous) {
    messages.push(
      { role: 'assistant', content: `\`\`\`python\n${options.previous.code}\n\`\`\`` },
      { role: 'user', content: `These checks are broken: ${options.broken}. Write them again so that they only use names that exist.` },
    );
  }
  const completion = await llm.complete(messages, { signal: options.signal });
  const checks = withRequestExamples(parseChecks(completion.content), request);
  const result: RunChecks = { ...checks, usage: completion.usage };
  if (options.broken) {
    result.repairOf = options.broken;
    const before = options.previous?.usage ?? { promptTokens: 0, completionTokens: 0 };
    result.usage = {
      promptTokens: before.promptTokens + completion.usage.promptTokens,
      completionTokens: before.completionTokens + completion.usage.completionTokens,
    };
    return result;
  }
  const dropped = options.previous ? droppedAsserts(options.previous.asserts, checks.asserts) : [];
  if (dropped.length > 0) result.dropped = dropped;
  return result;
}

/**
 * The checks in an LLM reply: the Python block, cut after the {@link MAX_CHECKS}th assert.
 * A reply without an `assert` gives no checks.
 */
export function parseChecks(reply: string): { code: string; asserts: string[] } {
  const extracted = extractCode(reply);
  if (!('code' in extracted)) return { code: '', asserts: [] };
  const lines = extracted.code.split('\n');
  const kept: string[] = [];
  const asserts: string[] = [];
  for (const line of lines) {
    if (isAssert(line)) {
      if (asserts.length === MAX_CHECKS) break;
      asserts.push(line.trim());
    }
    kept.push(line);
  }
  if (asserts.length === 0) return { code: '', asserts: [] };
  return { code: kept.join('\n').trimEnd(), asserts };
}

/**
 * Checks with the request's own doctest examples first (see `doctest-checks.ts`, at most
 * {@link MAX_CHECKS} of them, besides the model's): first, so that they run before any setup line
 * of the model's and call the program's function. An assert of the model's that repeats an example
 * is dropped (the example stands for it), and so is a function of the checks that the request asks
 * the program to define ({@link withoutCopiedFunctions}).
 */
export function withRequestExamples(checks: { code: string; asserts: string[] }, request: string): { code: string; asserts: string[] } {
  const examples = doctestAsserts(request).slice(0, MAX_CHECKS);
  const own = withoutCopiedFunctions(checks.code, request);
  if (examples.length === 0 && own === checks.code) return checks;
  const exampleKeys = new Set(examples.map(assertKey));
  const repeats = (line: string) => isAssert(line) && exampleKeys.has(assertKey(line.trim()));
  const code = own
    .split('\n')
    .filter((line) => !repeats(line))
    .join('\n')
    .trim();
  const asserts = checks.asserts.filter((a) => !exampleKeys.has(assertKey(a)));
  return { code: [...examples, code].filter((c) => c !== '').join('\n'), asserts: [...examples, ...asserts] };
}

/**
 * The checks without a top-level `def` of a function the request asks the program to write (the
 * request holds `def name(`): a small model copies the function under test into its checks, and
 * asserts on that copy test nothing of the program (the runner ignores them).
 */
export function withoutCopiedFunctions(code: string, request: string): string {
  const asked = new Set([...request.matchAll(/^[ \t]*def[ \t]+([A-Za-z_]\w*)[ \t]*\(/gm)].map((m) => m[1]!));
  if (asked.size === 0) return code;
  const out: string[] = [];
  let skipping = false;
  for (const line of code.split('\n')) {
    const def = /^def[ \t]+([A-Za-z_]\w*)[ \t]*\(/.exec(line);
    if (def) skipping = asked.has(def[1]!);
    else if (skipping && line.trim() !== '' && !/^[ \t]/.test(line)) skipping = false;
    if (!skipping) out.push(line);
  }
  return out.join('\n');
}

function isAssert(line: string): boolean {
  return /^assert[\s(]/.test(line);
}

/** Normalised text of an assert, so that spacing or the message alone does not count as a change. */
function assertKey(line: string): string {
  const body = line.replace(/\s+/g, '');
  const comma = lastTopLevelComma(body);
  return comma === -1 ? body : body.slice(0, comma);
}

/** Index of the last comma outside brackets and quotes (the one before an assert's message), or -1. */
function lastTopLevelComma(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) last = i;
  }
  return last;
}

/** Asserts of `before` with no equal (ignoring spacing and message) in `after`. */
export function droppedAsserts(before: readonly string[], after: readonly string[]): string[] {
  const now = new Set(after.map(assertKey));
  return before.filter((a) => !now.has(assertKey(a)));
}

/**
 * Whether the request names `name` as code the program must define: `name(`, `` `name` ``, after
 * def/function/method/class (and "called"/"named"), before function/method/class, or a name no English word looks like (`_`,
 * a digit, a capital inside). "compute the factorial of 12" uses `factorial` as a word: a program
 * that prints `math.factorial(12)` was not asked for a function of that name.
 */
export function requestNamesCode(name: string, request: string): boolean {
  const n = name.replace(/[^\w]/g, '');
  if (n === '' || !new RegExp(`\\b${n}\\b`).test(request)) return false;
  if (/_|\d|[a-z][A-Z]/.test(n)) return true;
  const asCode = [`\\b${n}\\s*\\(`, `\`${n}\\b`, `\\b(?:def|function|method|class|procedure)\\s+(?:(?:called|named)\\s+)?\`?${n}\\b`, `\\b${n}\`?\\s+(?:function|method|class)\\b`];
  return asCode.some((p) => new RegExp(p, 'i').test(request));
}

/**
 * A check that cannot be right whatever the program does:
 * - it failed with a NameError for a name the request does not name as code
 *   ({@link requestNamesCode}: the checks called a helper they did not write, or took a word of the
 *   request for a function; a name the request gives as code is the program's fault, e.g. the
 *   function it was asked to write is missing);
 * - a setup line that reads OUTPUT raised before any assert ran (e.g. `values = [int(v) for v in
 *   OUTPUT.split()]` on `Mean: 5.0`): the checks misread the output, which proves nothing about the
 *   program.
 * @returns what is broken, in words, or undefined
 */
export function brokenCheck(report: CheckReport, request: string): string | undefined {
  for (const r of report.results) {
    const name = /^NameError: name '(\w+)' is not defined/.exec(r.detail ?? '')?.[1];
    if (name && !requestNamesCode(name, request)) {
      return `\`${r.check.split('\n')[0]}\` uses ${name}, which neither the request nor the program defines`;
    }
  }
  const first = report.results[0];
  // a setup line that parses OUTPUT is the checks' reading of the output; one that calls the
  // program's functions (and raised there) is the program's failure
  if (first && !first.passed && !isAssert(first.check) && /\bOUTPUT\b/.test(first.check) && !/^NameError\b/.test(first.detail ?? '')) {
    return `\`${first.check.split('\n')[0]}\` raised ${boundLine(first.detail ?? 'an error', 200)} before any assert ran`;
  }
  return undefined;
}

/** Counts of a check report: how many checks passed, and how many ran. */
export function checkCounts(report: CheckReport): { passed: number; total: number } {
  return { passed: report.results.filter((r) => r.passed).length, total: report.results.length };
}

/** Longest line about one check in a report for the LLM or a progress line, in characters. */
export const CHECK_LINE_CHARS = 300;

/** One line of at most `max` characters, cut on a character boundary (untrusted program text). */
function cut(text: string, max: number): string {
  return boundLine(text, max);
}

/** One line per check, e.g. `✗ assert len(values) == 20, "20 numbers": got 8, expected == 20`. */
export function checkLines(report: CheckReport): string[] {
  if (report.error) return [`✗ ${cut(report.error, CHECK_LINE_CHARS)}`];
  const ignored = (report.ignored ?? []).map((c) => cut(`– ignored (reads nothing of the program): ${c.split('\n')[0]}`, CHECK_LINE_CHARS));
  return [
    ...report.results.map((r) =>
      cut(`${r.passed ? '✓' : '✗'} ${r.check.split('\n')[0]}${r.detail ? `: ${r.detail}` : ''}${r.byValue ? ' (the same values: passed)' : ''}`, CHECK_LINE_CHARS),
    ),
    ...ignored,
  ];
}

/**
 * One line saying why checks do not confirm the program, e.g. `1 of 3 checks failed: assert …: got 8,
 * expected == 20`, or undefined when they all passed.
 */
export function checksShortfall(report: CheckReport): string | undefined {
  if (report.error) return cut(report.error, CHECK_LINE_CHARS);
  const failed = report.results.filter((r) => !r.passed);
  // every assert ignored (none read the program) is the same as no checks: the exit code decides
  if (failed.length === 0) return report.results.length === 0 && !report.ignored?.length ? 'no check ran' : undefined;
  const first = failed[0]!;
  return cut(
    `${failed.length} of ${report.results.length} check${report.results.length === 1 ? '' : 's'} failed: ` +
      `${first.check.split('\n')[0]}${first.detail ? ` (${first.detail})` : ''}`,
    CHECK_LINE_CHARS,
  );
}

/** `checks 3/3 passed`, or `checks ignored (none read the program)` when every assert was ignored. */
export function checksPassedText(report: CheckReport): string {
  const { passed, total } = checkCounts(report);
  return total === 0 && report.ignored?.length ? 'checks ignored (none read the program)' : `checks ${passed}/${total} passed`;
}
