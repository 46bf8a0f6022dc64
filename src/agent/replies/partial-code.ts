/**
 * The code of a reply that is still streaming in: what a user can be shown while the LLM writes
 * (see `CodeDeltaEvent`). Only a shape for display: the code that runs is extracted from the whole
 * reply by `extract.ts`.
 */

/** An opening fence of a Python (or untagged) block, at the start of a line. */
const OPENING = /^[ \t]*(`{3,}|~{3,})[ \t]*(python3?|py3?|ipython)?[ \t]*\n/im;

/**
 * The code so far in a partial reply: the inside of its first Python or untagged fenced block, up to
 * its closing fence if it came; '' before an opening fence arrived. A trailing run of fence
 * characters that may become the closing fence is left out until the next piece decides.
 */
export function partialCode(reply: string): string {
  const text = reply.replace(/\r\n?/g, '\n');
  const open = OPENING.exec(text);
  if (!open) return '';
  const fence = open[1]!;
  const body = text.slice(open.index + open[0].length);
  const lines = body.split('\n');
  const kept: string[] = [];
  for (const [i, line] of lines.entries()) {
    const last = i === lines.length - 1;
    const trimmed = line.trim();
    if (trimmed.length >= fence.length && trimmed === fence[0]!.repeat(trimmed.length) && !last) break; // closed
    if (last && trimmed.length > 0 && trimmed === fence[0]!.repeat(trimmed.length)) break; // maybe closing
    kept.push(line);
  }
  return kept.join('\n');
}

/** An opening fence of a block tagged as Python, at the start of a line. */
const PYTHON_OPENING = /^[ \t]*(`{3,}|~{3,})[ \t]*(?:python3?|py3?)[ \t]*\n/im;

/**
 * Whether a partial reply holds a whole program already: its first block tagged as Python has
 * closed (a line of at least as many fence characters, ended by a newline). What a model writes
 * after it (an explanation, an example run) is read by no one, so the reply may end there
 * (`CompleteOptions.endWhen`). A reply whose code is in an untagged block is never ended early.
 */
export function programClosed(reply: string): boolean {
  const text = reply.replace(/\r\n?/g, '\n');
  const open = PYTHON_OPENING.exec(text);
  if (!open) return false;
  const fence = open[1]!;
  const lines = text.slice(open.index + open[0].length).split('\n');
  lines.pop(); // the line still being written
  return lines.some((line) => {
    const trimmed = line.trim();
    return trimmed.length >= fence.length && trimmed === fence[0]!.repeat(trimmed.length);
  });
}

/**
 * Feeds streamed pieces of a reply and calls `onCode(code, delta)` each time the code so far grew.
 * @returns the `onToken` callback to give the provider
 */
export function codeStreamer(onCode: (code: string, delta: string) => void): (piece: string) => void {
  let reply = '';
  let shown = '';
  return (piece) => {
    reply += piece;
    const code = partialCode(reply);
    if (code.length <= shown.length || !code.startsWith(shown)) return;
    const delta = code.slice(shown.length);
    shown = code;
    onCode(code, delta);
  };
}
