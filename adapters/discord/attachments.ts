/**
 * Chat attachments → sandbox input files: downloaded with a size cap per file and a cap on their
 * number. A file over the cap is skipped (said to the user), never truncated.
 */
import type { InputFile } from '../../src/sandbox/types.js';
import { formatBytes } from './render.js';

/** An attachment as Discord describes it (`size` in bytes, as declared). */
export interface RemoteFile {
  name: string;
  url: string;
  size: number;
}

/** Caps of {@link downloadAttachments}. */
export interface DownloadLimits {
  maxFiles: number;
  /** Per file, in bytes. */
  maxBytes: number;
  /** Per download, in ms. Default 30 000. */
  timeoutMs?: number;
}

/**
 * Downloads attachments. Never throws.
 * @returns the files, and one line per attachment that was skipped (too many, too large, failed).
 */
export async function downloadAttachments(
  files: RemoteFile[],
  limits: DownloadLimits,
): Promise<{ files: InputFile[]; skipped: string[] }> {
  const out: InputFile[] = [];
  const skipped: string[] = [];
  for (const [i, file] of files.entries()) {
    if (i >= limits.maxFiles) {
      skipped.push(`${file.name}: more than ${limits.maxFiles} files`);
      continue;
    }
    if (file.size > limits.maxBytes) {
      skipped.push(`${file.name}: ${formatBytes(file.size)} is over the ${formatBytes(limits.maxBytes)} limit`);
      continue;
    }
    try {
      out.push({ name: file.name, content: await fetchCapped(file.url, limits.maxBytes, limits.timeoutMs ?? 30_000) });
    } catch (err) {
      skipped.push(`${file.name}: ${(err as Error).message}`);
    }
  }
  return { files: out, skipped };
}

/** GETs a URL, stopping once more than `maxBytes` arrived (the declared size may lie). */
async function fetchCapped(url: string, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok || !response.body) throw new Error(`download failed (HTTP ${response.status})`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new Error(`larger than the ${formatBytes(maxBytes)} limit`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
