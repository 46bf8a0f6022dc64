/**
 * Watches a reply while it streams in and says when it has degenerated: a small model at greedy
 * sampling can fall into a loop (the same lines again and again, or blocks nested ever deeper)
 * and would otherwise write until its token limit, minutes on a CPU, for a reply no one can use.
 *
 * A reply has run away when, in its complete lines:
 * - a block is nested {@link MAX_NESTING} levels deep or more (CPython refuses more than 20
 *   statically nested blocks: such a program cannot even compile). Levels are counted as Python's
 *   tokenizer does: a line indented more than the one before opens a level, a line indented less
 *   closes the levels deeper than it, whatever the width of one step; a fence line starts afresh;
 * - the same one to {@link MAX_CYCLE_LINES} lines repeat back to back to make
 *   {@link MAX_REPEATED_LINES} lines or more (with a letter in them: a table of numbers may repeat);
 * - or it is longer than {@link MAX_REPLY_CHARS} characters, far more than any answer needs.
 */

/** Nesting depth (in indentation levels) that no program can have. */
export const MAX_NESTING = 20;
/** Longest repeating cycle looked for, in lines. */
export const MAX_CYCLE_LINES = 8;
/** Lines made of one repeating cycle that mean the reply is looping. */
export const MAX_REPEATED_LINES = 30;
/** Longest reply, in characters. */
export const MAX_REPLY_CHARS = 40_000;

/** Lines kept for the repetition test (the newest). */
const KEPT_LINES = MAX_CYCLE_LINES * MAX_REPEATED_LINES;

/** Feeds the streamed pieces of one reply; says once why it has run away. */
export class RunawayWatch {
  private chars = 0;
  private partial = '';
  private readonly lines: string[] = [];
  /** Indentations (in columns) of the levels open at the last line, outermost first. */
  private indents: number[] = [0];
  /** Why the reply ran away, once it has; undefined while it is fine. */
  reason: string | undefined;

  /**
   * Adds a piece of the reply.
   * @returns the reason the first time the reply is found to have run away, else undefined.
   */
  push(piece: string): string | undefined {
    if (this.reason !== undefined) return undefined;
    this.chars += piece.length;
    if (this.chars > MAX_REPLY_CHARS) return (this.reason = `it grew past ${MAX_REPLY_CHARS} characters, far longer than any answer needs`);
    const parts = (this.partial + piece).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      const found = this.addLine(line.replace(/\r$/, ''));
      if (found !== undefined) return (this.reason = found);
    }
    return undefined;
  }

  private addLine(line: string): string | undefined {
    this.lines.push(line);
    if (this.lines.length > KEPT_LINES) this.lines.shift();
    if (/^\s*(?:`{3,}|~{3,})/.test(line)) this.indents = [0];
    else if (line.trim() !== '') {
      const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
      while (indent < this.indents.at(-1)!) this.indents.pop();
      if (indent > this.indents.at(-1)!) this.indents.push(indent);
      const depth = this.indents.length - 1;
      if (depth >= MAX_NESTING) return `its code was nested ${depth} blocks deep (Python allows at most 20)`;
    }
    return this.repetition();
  }

  /** The cycle of 1–{@link MAX_CYCLE_LINES} lines that ends the reply, when it repeats too often. */
  private repetition(): string | undefined {
    const lines = this.lines;
    for (let k = 1; k <= MAX_CYCLE_LINES; k++) {
      const cycle = lines.slice(-k);
      if (cycle.length < k || !cycle.some((l) => /[A-Za-z]/.test(l))) continue;
      let repeated = k;
      while (repeated + k <= lines.length) {
        const start = lines.length - repeated - k;
        if (!cycle.every((l, i) => lines[start + i] === l)) break;
        repeated += k;
      }
      if (repeated >= MAX_REPEATED_LINES) {
        return `the same ${k === 1 ? 'line' : `${k} lines`} repeated ${repeated / k} times in a row`;
      }
    }
    return undefined;
  }
}
