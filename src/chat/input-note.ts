/**
 * What the LLM is told about a chat's attached files: exactly the names the program will find
 * in its work dir (cleaned, see src/sandbox/names.ts), never the raw names a user or a platform
 * sent (which may hold paths, control characters or text that reads like instructions).
 */
import { sandboxInputNames } from '../sandbox/names.js';
import type { InputFile } from '../sandbox/types.js';
import { boundLine } from '../text/cut.js';

/** Attached files under the names the sandbox gives them, and a note per file that cannot be used. */
export function prepareInputs(files: InputFile[]): { files: InputFile[]; skipped: string[] } {
  const { files: named, unusable } = sandboxInputNames(files);
  return { files: named, skipped: unusable.map(() => 'a file whose name has no usable characters was not used') };
}

/** Longest first line of a text file shown to the LLM, in characters. */
export const FIRST_LINE_CHARS = 200;

/** The first line of a file that reads as UTF-8 text (e.g. a CSV header), bounded; undefined for binary data. */
function firstLine(content: Buffer): string | undefined {
  const head = content.subarray(0, 4096);
  if (head.includes(0)) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if (text.includes('\uFFFD')) return undefined;
  const line = text.split(/\r?\n/)[0]!.trim();
  return line === '' ? undefined : boundLine(line, FIRST_LINE_CHARS);
}

/**
 * A sentence naming the input files in the work dir, with the first line of each text file (so a
 * program reads a CSV by its real column names), or '' when none.
 */
export function inputFilesNote(files: InputFile[]): string {
  if (files.length === 0) return '';
  const described = files.map((f) => {
    const line = firstLine(f.content);
    return line === undefined ? f.name : `${f.name} (first line: ${line})`;
  });
  return `(Input files available in the current working directory: ${described.join('; ')})`;
}

/** Feedback text with the input files note appended (on its own paragraph). */
export function withInputFilesNote(text: string, files: InputFile[]): string {
  const note = inputFilesNote(files);
  return [text.trim(), note].filter((t) => t !== '').join('\n\n');
}
