/**
 * A request's files → sandbox input files, the same on every platform: at most `maxFiles`, each at
 * most `maxBytes` (a declared size over it is not even fetched), fetched by the platform's own
 * download (its file hosts and credentials: src/chat/safe-fetch.ts), and named as the sandbox will
 * name them (input-note.ts). A file over a cap is skipped and said, never truncated.
 */
import type { InputFile } from '../history/execution.js';
import { formatBytes } from '../text/bytes.js';
import type { IncomingFile } from './incoming-port.js';
import { prepareInputs } from './input-note.js';

/** The caps, and how one file is fetched. */
export interface InputDownloads {
  maxFiles: number;
  /** Per file, in bytes. */
  maxBytes: number;
  /** Downloads one file. @throws an Error whose message (one line, safe to show) says why not */
  fetch(file: IncomingFile): Promise<Buffer>;
}

/**
 * Downloads the files within the caps. Never throws.
 * @returns the files, and one line per file that was skipped (too many, too large, failed)
 */
export async function downloadInputs(files: IncomingFile[], d: InputDownloads): Promise<{ files: InputFile[]; skipped: string[] }> {
  const out: InputFile[] = [];
  const skipped: string[] = [];
  for (const [i, file] of files.entries()) {
    if (i >= d.maxFiles) skipped.push(`${file.name}: more than ${d.maxFiles} files`);
    else if (file.bytes !== undefined && file.bytes > d.maxBytes) skipped.push(`${file.name}: ${formatBytes(file.bytes)} is over the ${formatBytes(d.maxBytes)} limit`);
    else {
      try {
        out.push({ name: file.name, content: await d.fetch(file) });
      } catch (err) {
        skipped.push(`${file.name}: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
      }
    }
  }
  const prepared = prepareInputs(out);
  return { files: prepared.files, skipped: [...skipped, ...prepared.skipped] };
}
