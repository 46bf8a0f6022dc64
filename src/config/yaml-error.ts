/**
 * A YAML syntax error said the way a person fixes it: the problem in one sentence (the `yaml`
 * package's message without its trailing "at line L, column C:" and code excerpt) and the line
 * and column where to look. For a quote, bracket or brace that is never closed, the parser notices
 * only where the text ends or the next key starts; the position given is then the one of the
 * opening character, which is where the fix goes.
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

/** 1-based line and column of offset `pos` in `text`. */
function lineCol(text: string, pos: number): { line: number; col: number } {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return { line, col: pos - before.lastIndexOf('\n') };
}

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
      return { message: `${message} (the ${opener} opened here is never closed)`, line: at.line, col: at.col };
    }
  }
  return { message, line: reported.line, col: reported.col };
}
