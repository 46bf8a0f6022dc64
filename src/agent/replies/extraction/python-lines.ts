/**
 * "Does this look like Python?" (rule 7 of `../extract.ts`), line by line: a statement, an English
 * sentence, another language; the prose around a reply without fences trimmed; and a program that
 * does nothing (only comments, placeholders or sentences: rule 8).
 */
import { trimBlankEdges } from './fences.js';

/** A line that is a Python statement. */
const STATEMENT =
  /^\s*(?:(?:async\s+)?def\s+\w+\s*\(|class\s+\w+\s*[(:]|import\s+[\w.]+|from\s+[\w.]+\s+import\s|print\s*\(|for\s+.+\s+in\s+.+:|while\s+.+:|if\s+.+:|elif\s+.+:|else\s*:|try\s*:|except\b.*:|finally\s*:|with\s+.+:|return\b|raise\b|yield\b|assert\s|pass\s*$|break\s*$|continue\s*$|global\s|nonlocal\s|del\s|@[\w.]+)/;
/** `x = …`, `a, b = …`, `d["k"] += …`, `self.x: int = …` (not `==`). */
const ASSIGNMENT =
  /^\s*[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\s*:\s*[\w.[\], ]+)?(?:\s*,\s*[A-Za-z_][\w.]*)*\s*(?:\*\*|\/\/|>>|<<|[-+*/%&|^@])?=(?!=)/;
/** `main()`, `plt.show()`, `df.to_csv("x.csv", index=False)`. */
const CALL = /^\s*[A-Za-z_][\w.]*\(.*\)\s*$/;
/** Lines that belong to a program without proving it is one (for trimming the edges). */
const CODE_ISH = /^\s*(?:#|"""|'''|[rRbBfFuU]{0,2}(?:"""|'''))/;
/** Obviously another language or a shell. */
const OTHER_LANGUAGE =
  /^\s*(?:\$\s|#include\b|(?:function|const|let|var|fn|func|public|private|package|using|echo|sudo|pip3?|npm|npx|yarn|apt(?:-get)?|brew|conda|cd|export|curl|wget)\s|[{}]\s*$|<\/?[A-Za-z][^>]*>\s*$)/;
/** An English sentence: column 0, a letter first, four or more words, sentence characters only. */
const PROSE = /^[A-Za-z][A-Za-z0-9'’",;:.!?()-]*(?:[ \t]+[A-Za-z0-9'’",;:.!?()-]+){3,}\s*$/;

/** True when the line is a Python statement (a definition, an assignment, a call, …) and no sentence. */
export function isStatement(line: string): boolean {
  return (STATEMENT.test(line) || ASSIGNMENT.test(line) || CALL.test(line)) && !hasAdjacentNames(line);
}

/** True when the line is an English sentence, or puts two names side by side where Python cannot. */
export function isProse(line: string): boolean {
  return (PROSE.test(line) && !isStatement(line)) || hasAdjacentNames(line);
}

/** Python keywords (and soft keywords) that may stand next to a name with only a space between. */
const KEYWORDS = new Set(
  ('and as assert async await break case class continue def del elif else except finally for from global if import in is ' +
    'lambda match nonlocal not or pass raise return try type while with yield print None True False').split(' '),
);

/**
 * True when, outside strings and comments, two names stand side by side with only spaces between
 * them and neither is a keyword: `print the total`, `for each row` — a sentence, never Python.
 * (`print` counts as a keyword here so that `print x` is not taken for a sentence on its own.)
 */
function hasAdjacentNames(line: string): boolean {
  const code = line
    .replace(/("""|''')[\s\S]*?(?:\1|$)/g, '""')
    .replace(/("|')(?:\\.|(?!\1).)*(?:\1|$)/g, '""')
    .replace(/#.*$/, '');
  for (const m of code.matchAll(/(?<![\w.])([A-Za-z_]\w*)[ \t]+(?=([A-Za-z_]\w*))/g)) {
    const [a, b] = [m[1]!, m[2]!];
    if (!KEYWORDS.has(a) && !KEYWORDS.has(b)) return true;
  }
  return false;
}

/** Per line: is it inside a triple-quoted string (its text is data, not code)? */
export function stringMask(lines: string[]): boolean[] {
  const mask: boolean[] = [];
  let open: '"""' | "'''" | null = null;
  for (const line of lines) {
    const startsInside = open !== null;
    for (const m of line.matchAll(/"""|'''/g)) {
      const q = m[0] as '"""' | "'''";
      if (open === null) open = q;
      else if (open === q) open = null;
    }
    mask.push(startsInside);
  }
  return mask;
}

/**
 * True when the code plausibly is Python: some line is a statement, and no line outside
 * triple-quoted strings is a sentence or obviously another language.
 */
export function looksLikePython(code: string): boolean {
  const lines = code.split('\n');
  const inString = stringMask(lines);
  let statements = 0;
  for (let i = 0; i < lines.length; i++) {
    if (inString[i]) continue;
    const line = lines[i]!;
    if (OTHER_LANGUAGE.test(line) || isProse(line)) return false;
    if (isStatement(line)) statements++;
  }
  return statements > 0;
}

/** For a reply without fences: drops sentences before the first code line and prose after the last. */
export function trimProse(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  while (start < lines.length && !isStatement(lines[start]!) && !CODE_ISH.test(lines[start]!)) start++;
  let end = lines.length;
  while (end > start && (lines[end - 1]!.trim() === '' || isProse(lines[end - 1]!))) end--;
  return trimBlankEdges(lines.slice(start, end).join('\n'));
}

// A program, or nothing (rule 8)

/** Statements that do nothing on their own: a program made only of them (and comments) is empty. */
const NO_OP = /^(?:pass|\.\.\.|Ellipsis|(?:[rbuf]{0,2})(?:"[^"\n]*"|'[^'\n]*'))\s*;?$/i;

/**
 * True when some line does something: not blank, a comment, `pass`, `...` or a lone string (a
 * docstring). An empty, comment-only or placeholder program does nothing.
 */
export function hasCode(code: string): boolean {
  const withoutDocstrings = code.replace(/^\s*[rbuf]{0,2}("""|\'\'\')[\s\S]*?\1\s*$/gim, '');
  return withoutDocstrings.split('\n').some((l) => {
    const t = l.trim();
    return t !== '' && !t.startsWith('#') && !NO_OP.test(t);
  });
}

/** True when every line that is not blank or a comment is an English sentence. */
export function isAllProse(code: string): boolean {
  const lines = code.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return lines.length > 0 && lines.every((l) => isProse(l.trim()));
}
