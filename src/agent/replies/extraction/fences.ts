/**
 * The fenced blocks of a reply (rule 3 of `../extract.ts`): ``` or ~~~ fences, three or more, any
 * indentation, CommonMark closing rules, the language read from the info string; a block cleaned
 * before it is judged (rule 6), and the blocks described when none is Python.
 */

/** A fenced block of a reply. */
export interface Block {
  /** First word of the info string, lower-cased; '' when untagged. */
  lang: string;
  /** The block's lines, without the fence's indentation. */
  code: string;
}

/** A line that opens a fence: its indentation, the fence, the info string. */
export const OPEN_FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

/** Every fenced block of the text, in order; a block left open at the end runs to the end. */
export function findBlocks(text: string): Block[] {
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

/** The language of an info string: its first word, lower-cased (`{.python}` → `python`). */
function languageOf(info: string): string {
  const word = info.trim().replace(/^\{\s*\.?/, '').split(/[\s{}:,=]/)[0] ?? '';
  return word.toLowerCase();
}

/** True for a language tag that means Python (`python`, `py3`, `ipython`, `pycon`, …). */
export function isPythonTag(lang: string): boolean {
  return /^(?:i?python|py)(?:\d+(?:\.\d+)*)?$/.test(lang) || lang === 'pycon' || lang === 'python-repl';
}

/** Removes up to `n` leading spaces/tabs (the fence's own indentation). */
function dedent(line: string, n: number): string {
  let k = 0;
  while (k < n && (line[k] === ' ' || line[k] === '\t')) k++;
  return line.slice(k);
}

/** Drops blank edges and trailing spaces; turns an interactive session into its input lines. */
export function cleanBlock(code: string): string {
  let lines = code.split('\n');
  const first = lines.find((l) => l.trim() !== '');
  if (first !== undefined && /^>>>( |$)/.test(first)) {
    lines = lines.filter((l) => /^(>>>|\.\.\.)( |$)/.test(l)).map((l) => l.slice(4));
  }
  return trimBlankEdges(lines.join('\n'));
}

/** Drops blank lines at the start and whitespace at the end. */
export function trimBlankEdges(code: string): string {
  return code.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/** The blocks' languages in words, for the error when none is Python: `a bash block`, `json, text blocks`. */
export function describe(blocks: Block[]): string {
  const langs = [...new Set(blocks.filter((b) => b.code.trim() !== '').map((b) => b.lang || 'untagged'))];
  const names = langs.map((l) => (l === 'untagged' ? 'untagged blocks that are not Python' : `${l}`));
  if (langs.length === 1 && langs[0] !== 'untagged') return `a ${names[0]} block`;
  return names.join(', ') + (langs.includes('untagged') && langs.length === 1 ? '' : ' blocks');
}

