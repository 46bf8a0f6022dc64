/**
 * `code-agent run --file PATH`: files from the host given to the program as input files (it finds
 * each by its name in its work dir).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { InputError } from '../../src/config/errors.js';
import type { InputFile } from '../../src/sandbox/types.js';

/**
 * Reads the files named by `--file`.
 * @param maxBytes largest accepted file, in bytes (`sandbox.max_file_mb`)
 * @param label how the files were given, for the messages (`--file`, `/attach`)
 * @throws {InputError} naming the path when a file is missing, not a regular file, or too large
 */
export async function readInputFiles(paths: readonly string[], maxBytes: number, label = '--file'): Promise<InputFile[]> {
  const files: InputFile[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new InputError(`${label} ${path}: no such file`);
    if (!info.isFile()) throw new InputError(`${label} ${path}: not a regular file`);
    if (info.size > maxBytes) {
      throw new InputError(`${label} ${path}: ${info.size} bytes; the limit is ${maxBytes} bytes (sandbox.max_file_mb)`);
    }
    files.push({ name: basename(path), content: await readFile(path) });
  }
  return files;
}
