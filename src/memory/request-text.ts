/**
 * A request or reply as the person wrote it: without the note the chat and terminal add for the
 * LLM after it, naming the attached files ("(Input files available in the current working
 * directory: …)", src/chat/input-note.ts). Memory keeps what the team said; the files are kept
 * apart (an example's input summary).
 */

/** The note on the attached files, from its start to the end of the text. */
const FILES_NOTE = /\n+\(Input files available in the current working directory:[\s\S]*$/;

/** `text` without the trailing note naming its input files, trimmed. */
export function withoutFilesNote(text: string): string {
  return text.replace(FILES_NOTE, '').trim();
}
