/**
 * What every renderer decides the same way about a view's blocks, whatever its markup: which lines
 * a block shows (a heading and a label on one line, a text's lines, a field as `label: value`),
 * what code shows (the tail of code still being written, with how many earlier lines are left
 * out; whole code when it fits; else a note and the code attached whole as a file), what an output
 * shows (cut for room, the whole text then attached as a file), and the files a block carries (by
 * their base names); pack.ts packs the shown pieces, in order, into bounded messages. The
 * platform gives its renderings of a line and of a code block, and its sizes
 * (adapters/matrix/renderer.ts uses it; Slack's and Discord's renderers decide the same).
 * Platform-neutral and pure.
 */
import type { Block, Line, ViewFile } from './blocks.js';
import { attachedNote, codeTailShown, flatLine, splitLines, wholeFile } from './fit.js';
import { unknownBlock } from './pack.js';

/** A platform's renderings of the pieces of a block, `T` being one rendered piece (a line, a code block). */
export interface PartRendering<T> {
  /** One line of inline pieces (the platform bounds and escapes it). */
  line(line: Line): T;
  /** Untrusted text as a code block, cut to `maxChars` characters and `maxLines` lines (a marker says so), and whether it was cut. */
  block(text: string, maxChars: number, maxLines: number, language: string): { shown: T; truncated: boolean };
  /** Whether whole code (its label, then its block) fits in one message; when not, it is attached as a file. */
  fits(shown: T[]): boolean;
  /** Characters of the tail shown of code still being written. */
  tailChars: number;
}

/** What a block shows, kept together in one message, and the files it brings. */
export interface BlockPart<T> {
  shown: T[];
  files: ViewFile[];
}

/** Lines an output shows when its block does not say (`maxLines`). */
const OUTPUT_LINES = 40;

/**
 * The parts of one block (see the module comment); actions are the platform's own (buttons,
 * reaction keys), so they have none.
 * @param outputChars characters of untrusted text an output's code block gets
 */
export function blockParts<T>(b: Block, r: PartRendering<T>, outputChars: number): BlockPart<T>[] {
  const one = (shown: T[], files: ViewFile[] = []): BlockPart<T>[] => [{ shown, files }];
  switch (b.kind) {
    case 'heading':
      return one([r.line(flatLine(b.text))]);
    case 'text':
      return splitLines(b.text).map((line) => ({ shown: [r.line(line)], files: [] }));
    case 'fields':
      return b.fields.map((f) => ({ shown: [r.line([{ strong: `${f.label}:` }, ' ', ...flatLine(f.value)])], files: [] }));
    case 'code': {
      const label = b.label ? flatLine(b.label) : [];
      const language = b.language ?? '';
      if (b.tail) {
        const tail = codeTailShown(b.code, r.tailChars);
        return one([r.line([...label, tail.note]), r.block(tail.text, r.tailChars + 1, OUTPUT_LINES, language).shown]);
      }
      const whole = [...(b.label ? [r.line(label)] : []), r.block(b.code, b.code.length + 1, Infinity, language).shown];
      return r.fits(whole) ? one(whole) : one([r.line([...label, attachedNote(b.code, Boolean(b.label))])], [wholeFile(b)]);
    }
    case 'output': {
      const cut = r.block(b.text, outputChars, b.maxLines ?? OUTPUT_LINES, '');
      return one([...(b.label ? [r.line(flatLine(b.label))] : []), cut.shown], cut.truncated ? [wholeFile(b)] : []);
    }
    case 'files':
      return one([], b.files.map((f) => ({ name: f.name.split('/').pop() || 'file', data: f.data })));
    case 'actions':
      return [];
    default:
      return unknownBlock(b, 'any');
  }
}
