/**
 * The answer has the form asked: a count is one integer, a value one number, a list a list. A
 * printed pandas or NumPy object (`Name: x, dtype: bool`, `Length: 1000`, `[1000 rows x 3
 * columns]`, `array([...])`) where the request asks for a count, one value or a short list is not
 * the answer but the object it was computed from. Only forms the request asks for are checked
 * (a request for a table or one line per group may print a Series).
 */

/** The forms of answer a request can ask for that a printed object is not. */
export type AskedForm = 'count' | 'value' | 'list';

const PER_GROUP = /\b(?:per|each|every|by)\s+\w+|\bfor each\b|\bbreakdown\b|\btable\b|\bone (?:line|row) (?:per|for)\b|\bdataframe\b|\bshow (?:the|me the) (?:rows|data)\b/i;
const COUNT = /\bhow many\b|\bcount (?:the|of|how|all)\b|\bthe number of\b|\bone integer\b|\ba count\b/i;
const VALUE = /\b(?:one|a single|just the|only the) (?:number|value|integer|coefficient|figure)\b|\bprint (?:only )?(?:one|just the) (?:number|value)\b/i;
const LIST = /\blist (?:of |the |all )|\bwhich (?:\w+ )?(?:ids?|names?|skus?|items?|rows|values)\b|\bgive me the \w+s\b/i;

/** The form the request asks its answer in, when it asks for a count, one value or a list (and not per group or a table). */
export function askedForm(request: string): AskedForm | undefined {
  if (PER_GROUP.test(request) && !VALUE.test(request)) return undefined;
  if (COUNT.test(request)) return 'count';
  if (VALUE.test(request)) return 'value';
  if (LIST.test(request)) return 'list';
  return undefined;
}

/** A printed pandas or NumPy object: the line that shows it, else undefined. */
export function objectDump(stdout: string): string | undefined {
  const line = stdout.split('\n').find((l) => /\bdtype: \w+|^Length: \d+|^\[\d+ rows x \d+ columns\]$|\barray\(\[|^Name: .+, dtype/.test(l.trim()));
  if (line !== undefined) return line.trim().slice(0, 100);
  // a boolean Series printed in full: index and True/False, line after line
  const flags = stdout.split('\n').filter((l) => /^\s*\d+\s+(?:True|False)\s*$/.test(l));
  return flags.length >= 5 ? `${flags[0]!.trim()} … (${flags.length} lines of True/False)` : undefined;
}

const FORM_WORDS: Record<AskedForm, string> = { count: 'a count (one integer)', value: 'one value', list: 'a list of values' };

/**
 * Why the output is not in the form asked, if it is not: a count, one value or a list was asked
 * and the program printed a pandas or NumPy object. Undefined when the request asks for none of
 * these forms, or the output has none.
 */
export function formFault(stdout: string, request: string): string | undefined {
  const form = askedForm(request);
  if (form === undefined) return undefined;
  const dump = objectDump(stdout);
  return dump === undefined ? undefined : `${FORM_WORDS[form]} asked; the program printed a pandas/NumPy object (\`${dump}\`), not the answer`;
}
