/**
 * A YAML syntax error said the way a person fixes it: the problem in plain words (not the `yaml`
 * package's terms such as "compact mappings" or "implicit keys") and the line and column where the
 * fix goes. For a quote, bracket or brace that is never closed, the parser notices only where the
 * text ends or the next key starts; the position given is then the one of the opening character.
 * For a line indented under a key that already has a value, the parser points at the value; the
 * position given is the start of the line indented too far.
 */
import type { YAMLError } from 'yaml';

/** What was wrong and where (1-based line and column). */
export interface YamlProblem {
  message: string;
  line: number;
  col: number;
}

/** The opening character of an unclosed construct, from the parser's message. */
function openerOf(message: string): string | undefined {
  if (/Missing closing "quote/.test(message)) return '"';
  if (/Missing closing 'quote/.test(message)) return "'";
  if (/end with a \]/.test(message)) return '[';
  if (/end with a \}/.test(message)) return '{';
  return undefined;
}

const CLOSER: Record<string, string> = { '"': '"', "'": "'", '[': ']', '{': '}' };

/** 1-based line and column of offset `pos` in `text`. */
function lineCol(text: string, pos: number): { line: number; col: number } {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return { line, col: pos - before.lastIndexOf('\n') };
}

/** The text of 1-based line `line`, without its indentation (bounded). */
function lineText(text: string, line: number): string {
  return (text.split('\n')[line - 1] ?? '').trim().slice(0, 60);
}

const NOT_ALIGNED = 'this key is not indented like the keys before it: the keys of one section start at the same column';

/** Plain words for the parser's messages that name its grammar, by the message's start. */
const PLAIN: { pattern: RegExp; say: (text: string, line: number) => string }[] = [
  { pattern: /^Tabs are not allowed as indentation/, say: () => 'this line is indented with a tab: indent with spaces only' },
  { pattern: /^All mapping items must start at the same column/, say: () => NOT_ALIGNED },
  { pattern: /^Implicit keys need to be on a single line|^Implicit map keys need to be followed by map values/, say: (t, l) => `«${lineText(t, l)}» is not «key: value» (a colon followed by a space is missing)` },
  { pattern: /^Map keys must be unique/, say: () => 'this key appears twice in the same section: keep one' },
  { pattern: /^A block sequence may not be used as an implicit map key|^Sequence items are not allowed on the same line/, say: () => 'a list item («- …») stands among keys: put it under a key that takes a list, indented further than that key' },
];

/**
 * Describes the first syntax error of a YAML text.
 * @param text the YAML text that was parsed
 * @param error the first entry of `Document.errors`
 */
export function describeYamlError(text: string, error: YAMLError): YamlProblem {
  const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?\s*$/, '').replace(/:\s*$/, '');
  const reported = error.linePos?.[0] ?? lineCol(text, error.pos[0]);
  const opener = openerOf(message);
  if (opener) {
    // the last opener before the reported position that is not inside a comment
    const upTo = text.slice(0, error.pos[0]);
    for (let i = upTo.length - 1; i >= 0; i--) {
      if (upTo[i] !== opener) continue;
      const lineStart = upTo.lastIndexOf('\n', i) + 1;
      if (upTo.slice(lineStart, i).includes('#')) continue;
      const at = lineCol(text, i);
      return { message: `the ${opener} opened here is never closed by a ${CLOSER[opener]}`, line: at.line, col: at.col };
    }
  }
  const lines = text.split('\n');
  if (/^Nested mappings are not allowed in compact mappings/.test(message)) {
    // reported at the value of the key above; the fix goes on the next line of YAML
    const next = nextYamlLine(lines, reported.line);
    if (next !== undefined) return furtherThan(text, lines, reported.line, next);
  }
  if (/^All mapping items must start at the same column/.test(message) && !isYamlLine(lines[reported.line - 1])) {
    // reported at a comment or blank line between keys: the fix goes on the key after it
    const next = nextYamlLine(lines, reported.line - 1);
    const above = previousYamlLine(lines, reported.line - 1);
    if (next !== undefined && above !== undefined && indentOf(lines[next]!) > indentOf(lines[above]!)) return furtherThan(text, lines, above + 1, next);
    if (next !== undefined) return { message: NOT_ALIGNED, line: next + 1, col: indentOf(lines[next]!) + 1 };
  }
  const plain = PLAIN.find((p) => p.pattern.test(message));
  return { message: plain ? plain.say(text, reported.line) : message, line: reported.line, col: reported.col };
}

/** Whether a line holds YAML (it is neither blank nor only a comment). */
const isYamlLine = (line: string | undefined) => line !== undefined && line.trim() !== '' && !line.trimStart().startsWith('#');
const indentOf = (line: string) => line.length - line.trimStart().length;

/** The 0-based index of the first line of YAML at or after 0-based `from`, or undefined. */
function nextYamlLine(lines: string[], from: number): number | undefined {
  for (let i = from; i < lines.length; i++) if (isYamlLine(lines[i])) return i;
  return undefined;
}

/** The 0-based index of the last line of YAML before 0-based `before`, or undefined. */
function previousYamlLine(lines: string[], before: number): number | undefined {
  for (let i = before - 1; i >= 0; i--) if (isYamlLine(lines[i])) return i;
  return undefined;
}

/** A key (0-based line `next`) indented further than the key with a value above it (1-based line `keyLine`). */
function furtherThan(text: string, lines: string[], keyLine: number, next: number): YamlProblem {
  return {
    message: `this line is indented further than «${lineText(text, keyLine)}» above it, which already has a value: indent it like that key`,
    line: next + 1,
    col: indentOf(lines[next]!) + 1,
  };
}
