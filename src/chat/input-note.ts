/**
 * What the LLM is told about a chat's attached files: exactly the names the program will find
 * in its work dir (cleaned, see src/text/file-names.ts), never the raw names a user or a platform
 * sent (which may hold paths, control characters or text that reads like instructions).
 */
import { sandboxInputNames } from '../text/file-names.js';
import { filesNote } from '../text/files-note.js';
import type { InputFile } from '../history/execution.js';

/** Attached files under the names the sandbox gives them, and a note per file that cannot be used. */
export function prepareInputs(files: InputFile[]): { files: InputFile[]; skipped: string[] } {
  const { files: named, unusable } = sandboxInputNames(files);
  return { files: named, skipped: unusable.map(() => 'a file whose name has no usable characters was not used') };
}

/**
 * A sentence naming the input files in the work dir, or '' when none. What each file holds is not
 * said here: the agent profiles the files in the sandbox and shows the model their structure.
 */
export function inputFilesNote(files: InputFile[]): string {
  return filesNote(files.map((f) => f.name));
}

/** Feedback text with the input files note appended (on its own paragraph). */
export function withInputFilesNote(text: string, files: InputFile[]): string {
  const note = inputFilesNote(files);
  return [text.trim(), note].filter((t) => t !== '').join('\n\n');
}
