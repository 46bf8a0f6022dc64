/**
 * Code extraction: finds the Python program in an LLM's reply.
 *
 * The rules, in order:
 * 1. Line ends are normalised (CRLF, CR → LF). The reply ends at the first chat-template token
 *    that ends a turn or starts another (`<|im_end|>`, `<|im_start|>`, `<|endoftext|>`,
 *    `<|eot_id|>`, `<|end|>`, `<|user|>`, `<end_of_turn>`, `[INST]`, `</s>` at a line's end…):
 *    what follows is another turn of a server with the wrong template, never part of the program.
 *    A template header before the reply (`<|im_start|>assistant`) is dropped.
 * 2. Reasoning is removed first: every `<think>…</think>` (also `<thinking>`, `<reasoning>`);
 *    an unclosed opening tag at the start (a reply cut off while thinking) removes everything
 *    after it; a closing tag with no opening one (templates that open the section themselves)
 *    removes everything before it. Code drafted while thinking is never used.
 * 3. Fenced blocks are found (``` or ~~~, three or more, any indentation, CommonMark closing
 *    rules; a block left open at the end runs to the end). The language is the first word of the
 *    info string, case-insensitive: `python`, `py`, `python3`, `Python3`, `py3`, `ipython`, `pycon`,
 *    `{.python}`, `python title="x"` all count as Python.
 * 4. Which blocks: the non-empty Python-tagged blocks; if there are none, the untagged blocks that
 *    look like Python (see below). Blocks in other languages (`bash`, `json`, `text`, …) are never
 *    taken, so ```` ```bash pip install … ``` ```` is not run as Python.
 * 5. Several blocks: the program is chosen, not every block pasted in order.
 *    a. A block is dropped when a later block supersedes it: it is contained in a later block (a
 *       repeat, or a snippet that the full program includes), or it defines top-level
 *       functions/classes and a later block redefines all of them ("here is the fixed version").
 *    b. A block that defines no function or class of its own and calls one that another block
 *       defines is an example of use. It is dropped when a block it needs also does something at
 *       top level (prints, plots, calls): that block is the implementation, already complete.
 *       Otherwise ("definitions, then a usage block") it is kept, to run after them.
 *    c. The blocks left run in dependency order (a block after the blocks whose functions it
 *       calls), else in the reply's order, joined with a blank line.
 *    Blocks in another language (`bash`, `text`, `output`, `checks`…) are never part of the program.
 * 6. Interactive sessions (`>>> ` / `... ` prompts) keep only the prompted lines.
 * 7. No fence at all: the whole reply is taken as code only if it plausibly is Python
 *    (leading sentences such as "Here is the code:" and trailing prose lines are trimmed first):
 *    - at least one line is a statement: `def`/`class`/`import`/`from … import`/`print(`/
 *      `for … :`/`if … :`/`while`/`with`/`try`/`return`/…, an assignment, or a call such as `main()`;
 *    - no line (outside triple-quoted strings) is English prose: starts at column 0 with a letter,
 *      has four or more words, and holds only letters, digits, spaces and sentence punctuation;
 *      or puts two words side by side where Python cannot (`print the total per region first`,
 *      `for each row we sum…`: two names with only a space between them, neither a keyword);
 *    - no line is obviously another language (`$ cmd`, `pip install`, `const x`, `#include`, a lone brace…).
 *    The same test decides whether an untagged fenced block is Python.
 *
 * 8. A block (or reply) that holds only comments, or only sentences, is not a program: it is never
 *    run (it would "succeed" doing nothing, or fail with a SyntaxError that wastes a fix attempt).
 * 9. Code followed by a lone closing fence (no opening one) is the code before that fence.
 *
 * When nothing qualifies the result is `{ error }` with a reason meant for the user and for the
 * LLM's next attempt, e.g. `the reply contained no Python code` or
 * `the reply contained no Python code (only a bash block)`.
 */

/** The outcome of {@link extractCode}. */
export type ExtractResult = { code: string } | { error: string };

/** The reason given when a reply has no code at all. */
export const NO_CODE = 'the reply contained no Python code';

/** Finds the Python program in an LLM reply (rules in the module doc). */
export function extractCode(reply: string): ExtractResult {
  const normalised = endOfTurn(reply.replace(/\r\n?/g, '\n'));
  const text = stripReasoning(normalised);
  if (text.trim() === '') {
    return { error: normalised.trim() === '' ? 'the reply was empty' : `${NO_CODE} (only a reasoning section)` };
  }

  const blocks = findBlocks(text);
  const python = blocks.filter((b) => isPythonTag(b.lang));
  const pythonCode = python.map((b) => cleanBlock(b.code)).filter((c) => hasCode(c) && !isAllProse(c));
  if (pythonCode.length > 0) return { code: combine(pythonCode) };

  const untagged = blocks
    .filter((b) => b.lang === '')
    .map((b) => cleanBlock(b.code))
    .filter((c) => hasCode(c) && looksLikePython(c));
  if (untagged.length > 0) return { code: combine(untagged) };

  const lead = codeBeforeLoneFence(text);
  if (lead !== undefined) return { code: lead };

  if (blocks.length > 0) {
    if (python.some((b) => isAllProse(cleanBlock(b.code)))) {
      return { error: 'the reply\'s Python code block held sentences, not a program' };
    }
    if (python.some((b) => cleanBlock(b.code) !== '')) {
      return { error: 'the reply\'s Python code block held only comments or placeholders (pass, ..., a docstring), not a program' };
    }
    if (python.length > 0) return { error: 'the reply\'s Python code block was empty' };
    if (blocks.every((b) => b.code.trim() === '')) return { error: 'the reply\'s code block was empty' };
    return { error: `${NO_CODE} (only ${describe(blocks)})` };
  }

  const bare = trimProse(text);
  if (hasCode(bare) && looksLikePython(bare)) return { code: bare };
  if (bare !== '' && !hasCode(bare)) return { error: `${NO_CODE} (only comments)` };
  return { error: NO_CODE };
}

/** Statements that do nothing on their own: a program made only of them (and comments) is empty. */
const NO_OP = /^(?:pass|\.\.\.|Ellipsis|(?:[rbuf]{0,2})(?:"[^"\n]*"|'[^'\n]*'))\s*;?$/i;

/**
 * True when some line does something: not blank, a comment, `pass`, `...` or a lone string (a
 * docstring). An empty, comment-only or placeholder program does nothing.
 */
function hasCode(code: string): boolean {
  const withoutDocstrings = code.replace(/^\s*[rbuf]{0,2}("""|\'\'\')[\s\S]*?\1\s*$/gim, '');
  return withoutDocstrings.split('\n').some((l) => {
    const t = l.trim();
    return t !== '' && !t.startsWith('#') && !NO_OP.test(t);
  });
}

/** True when every line that is not blank or a comment is an English sentence. */
function isAllProse(code: string): boolean {
  const lines = code.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return lines.length > 0 && lines.every((l) => isProse(l.trim()));
}

/**
 * Code followed by a lone closing fence (```` ``` ```` with no opening one): the program is the
 * text before that fence, when it looks like Python.
 */
function codeBeforeLoneFence(text: string): string | undefined {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => OPEN_FENCE.test(l));
  if (first <= 0 || !/^[ \t]*(?:`{3,}|~{3,})[ \t]*$/.test(lines[first]!)) return undefined;
  const lead = trimProse(lines.slice(0, first).join('\n'));
  return hasCode(lead) && looksLikePython(lead) ? lead : undefined;
}

// ---------------------------------------------------------------------------------------------
// Chat-template tokens

/** Tokens that end the assistant's turn or start another one, in the chat templates in use. */
const TURN_TOKEN =
  /<\|(?:im_end|im_start|endoftext|end_of_text|eot_id|eom_id|end|user|system|assistant|start_header_id)\|>|<(?:end_of_turn|start_of_turn)>|\[\/?INST\]|<\/s>[ \t]*(?=\n|$)/;
/** A template header the server left before the reply. */
const LEADING_HEADER = /^\s*(?:<\|im_start\|>assistant|<\|start_header_id\|>assistant<\|end_header_id\|>|<\|assistant\|>|<start_of_turn>model)[ \t]*\n?/;

/** The reply up to the first token that ends the turn (see rule 1). */
function endOfTurn(text: string): string {
  const body = text.replace(LEADING_HEADER, '');
  const end = TURN_TOKEN.exec(body);
  return end ? body.slice(0, end.index) : body;
}

// ---------------------------------------------------------------------------------------------
// Reasoning sections

const REASONING_TAGS = 'think|thinking|reasoning';

function stripReasoning(text: string): string {
  let t = text.replace(new RegExp(`<(${REASONING_TAGS})>[\\s\\S]*?</\\1>`, 'gi'), '');
  // A closing tag without an opening one: the template opened the section; drop what precedes it.
  const orphanClose = [...t.matchAll(new RegExp(`</(?:${REASONING_TAGS})>`, 'gi'))].at(-1);
  if (orphanClose?.index !== undefined) t = t.slice(orphanClose.index + orphanClose[0].length);
  // An opening tag at the start that never closes: the reply is all reasoning (or was cut off).
  const openAtStart = new RegExp(`^\\s*<(?:${REASONING_TAGS})>`, 'i').exec(t);
  if (openAtStart) t = '';
  return t;
}

// ---------------------------------------------------------------------------------------------
// Fenced blocks

interface Block {
  /** First word of the info string, lower-cased; '' when untagged. */
  lang: string;
  code: string;
}

const OPEN_FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

function findBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN_FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    if (fence[0] === '`' && info.includes('`')) continue; // inline code, not a fence
    const close = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]!); j++) body.push(dedent(lines[j]!, indent.length));
    blocks.push({ lang: languageOf(info), code: body.join('\n') });
    i = j; // the closing fence (or the end)
  }
  return blocks;
}

function languageOf(info: string): string {
  const word = info.trim().replace(/^\{\s*\.?/, '').split(/[\s{}:,=]/)[0] ?? '';
  return word.toLowerCase();
}

function isPythonTag(lang: string): boolean {
  return /^(?:i?python|py)(?:\d+(?:\.\d+)*)?$/.test(lang) || lang === 'pycon' || lang === 'python-repl';
}

/** Removes up to `n` leading spaces/tabs (the fence's own indentation). */
function dedent(line: string, n: number): string {
  let k = 0;
  while (k < n && (line[k] === ' ' || line[k] === '\t')) k++;
  return line.slice(k);
}

/** Drops blank edges and trailing spaces; turns an interactive session into its input lines. */
function cleanBlock(code: string): string {
  let lines = code.split('\n');
  const first = lines.find((l) => l.trim() !== '');
  if (first !== undefined && /^>>>( |$)/.test(first)) {
    lines = lines.filter((l) => /^(>>>|\.\.\.)( |$)/.test(l)).map((l) => l.slice(4));
  }
  return trimBlankEdges(lines.join('\n'));
}

function trimBlankEdges(code: string): string {
  return code.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

function describe(blocks: Block[]): string {
  const langs = [...new Set(blocks.filter((b) => b.code.trim() !== '').map((b) => b.lang || 'untagged'))];
  const names = langs.map((l) => (l === 'untagged' ? 'untagged blocks that are not Python' : `${l}`));
  if (langs.length === 1 && langs[0] !== 'untagged') return `a ${names[0]} block`;
  return names.join(', ') + (langs.includes('untagged') && langs.length === 1 ? '' : ' blocks');
}

/** Chooses the blocks that make the program and joins them (rule 5). */
function combine(codes: string[]): string {
  const current = codes.filter((code, i) => {
    const later = codes.slice(i + 1);
    if (later.some((l) => l.includes(code))) return false;
    const names = topLevelNames(code);
    if (names.size === 0) return true;
    return !later.some((l) => {
      const redefined = topLevelNames(l);
      return [...names].every((n) => redefined.has(n));
    });
  });
  const blocks = current.map((code) => ({ code, defines: topLevelNames(code), acts: actsAtTopLevel(code) }));
  /** The other blocks defining a function or class this block calls without defining it. */
  const needs = (b: (typeof blocks)[number]) =>
    blocks.filter((o) => o !== b && [...o.defines].some((n) => !b.defines.has(n) && callsName(b.code, n)));
  const kept = blocks.filter((b) => !(b.defines.size === 0 && needs(b).some((o) => o.acts)));
  // dependency order: repeatedly take the first block whose needed blocks are already placed
  const ordered: typeof kept = [];
  const pending = [...kept];
  while (pending.length > 0) {
    const i = pending.findIndex((b) => needs(b).every((o) => ordered.includes(o) || !pending.includes(o)));
    ordered.push(...pending.splice(i === -1 ? 0 : i, 1));
  }
  return ordered.map((b) => b.code).join('\n\n');
}

function topLevelNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/^(?:async[ \t]+def|def|class)[ \t]+(\w+)/gm)) names.add(m[1]!);
  return names;
}

/** `name(` used as a call or `name.` as an object, outside a definition of it. */
function callsName(code: string, name: string): boolean {
  return new RegExp(`(?<![\\w.])${name}\\s*[(.]`).test(code.replace(new RegExp(`^(?:async[ \\t]+def|def|class)[ \\t]+${name}\\b`, 'gm'), ''));
}

/**
 * True when a line at column 0 does something: a call or a statement that runs code (not a
 * definition, import, decorator, constant, comment or docstring).
 */
function actsAtTopLevel(code: string): boolean {
  const lines = code.split('\n');
  const inString = stringMask(lines);
  return lines.some((line, i) => {
    if (inString[i] || !/^[A-Za-z_]/.test(line) || /^(?:(?:async[ \t]+)?def|class|import|from)\b/.test(line)) return false;
    return line.includes('(') || /^(?:if|for|while|with|try|assert|raise)\b/.test(line);
  });
}

// ---------------------------------------------------------------------------------------------
// "Does this look like Python?"

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

function isStatement(line: string): boolean {
  return (STATEMENT.test(line) || ASSIGNMENT.test(line) || CALL.test(line)) && !hasAdjacentNames(line);
}

function isProse(line: string): boolean {
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
function stringMask(lines: string[]): boolean[] {
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

function looksLikePython(code: string): boolean {
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
function trimProse(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  while (start < lines.length && !isStatement(lines[start]!) && !CODE_ISH.test(lines[start]!)) start++;
  let end = lines.length;
  while (end > start && (lines[end - 1]!.trim() === '' || isProse(lines[end - 1]!))) end--;
  return trimBlankEdges(lines.slice(start, end).join('\n'));
}
