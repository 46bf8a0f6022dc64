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
 *
 * The parts are in `extraction/`: the reply's end and its reasoning (`turn-end.ts`), fenced blocks
 * (`fences.ts`), the choice among several blocks (`choose.ts`), whether lines look like Python
 * (`python-lines.ts`).
 */
import { endOfTurn, stripReasoning } from './extraction/turn-end.js';
import { OPEN_FENCE, cleanBlock, describe, findBlocks, isPythonTag } from './extraction/fences.js';
import { combine } from './extraction/choose.js';
import { hasCode, isAllProse, looksLikePython, trimProse } from './extraction/python-lines.js';

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
