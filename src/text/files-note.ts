/**
 * The note the chat and the terminal add after a request or reply for the LLM, naming the input
 * files in the work dir ("(Input files available in the current working directory: a.csv; b.json)"),
 * and the text without it: memory keeps what the person wrote, not the note.
 */

/** How the note starts. */
const OPENING = '(Input files available in the current working directory:';

/** The note for these file names (as the sandbox names them), or '' when there are none. */
export function filesNote(names: readonly string[]): string {
  return names.length === 0 ? '' : `${OPENING} ${names.join('; ')})`;
}

/** `text` without the note (on a line of its own) and what follows it, trimmed. */
export function withoutFilesNote(text: string): string {
  const at = text.indexOf(`\n${OPENING}`);
  return (at >= 0 ? text.slice(0, at) : text).trim();
}
