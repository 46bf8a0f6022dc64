/**
 * Chat attachments → sandbox input files: downloaded with a size cap per file and a cap on their
 * number. A file over the cap is skipped (said to the user), never truncated.
 */
import type { InputFile } from '../../src/history/execution.js';
import { formatBytes } from '../../src/text/bytes.js';
import { prepareInputs } from '../../src/chat/input-note.js';
import { fetchFromOrigins } from '../../src/chat/safe-fetch.js';
import type { Surface } from './surface.js';
import { discordRenderer } from './renderer.js';
import { skippedInputsView } from '../../src/chat/view/notices-view.js';
import type { IncomingFile } from '../../src/chat/incoming-port.js';

/** An attachment as the request names it (`bytes` as Discord declared it). */
export type RemoteFile = IncomingFile;

/**
 * Where Discord serves attachments (https://discord.com/developers/docs/reference#image-formatting-image-base-url).
 * Downloads go nowhere else (plus the configured `discord.api_url` origin, for tests and proxies).
 */
export const DISCORD_FILE_ORIGINS = ['https://cdn.discordapp.com', 'https://media.discordapp.net'] as const;

/** Caps of {@link downloadAttachments}. */
export interface DownloadLimits {
  /** Origins downloads (and their redirects) may go to. Default {@link DISCORD_FILE_ORIGINS}. */
  origins?: readonly string[];
  maxFiles: number;
  /** Per file, in bytes. */
  maxBytes: number;
  /** Per download, in ms. Default 30 000. */
  timeoutMs?: number;
}

/**
 * Downloads attachments from Discord's file hosts, named as the sandbox will name them
 * (src/chat/input-note.ts). Never throws.
 * @returns the files, and one line per attachment that was skipped (too many, too large, not
 *   hosted by Discord, failed).
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
    if (file.bytes !== undefined && file.bytes > limits.maxBytes) {
      skipped.push(`${file.name}: ${formatBytes(file.bytes)} is over the ${formatBytes(limits.maxBytes)} limit`);
      continue;
    }
    try {
      const content = await fetchFromOrigins(file.url, {
        origins: new Set(limits.origins ?? DISCORD_FILE_ORIGINS),
        maxBytes: limits.maxBytes,
        timeoutMs: limits.timeoutMs ?? 30_000,
        tooLarge: `larger than the ${formatBytes(limits.maxBytes)} limit`,
      });
      out.push({ name: file.name, content });
    } catch (err) {
      skipped.push(`${file.name}: ${(err as Error).message}`);
    }
  }
  const prepared = prepareInputs(out);
  return { files: prepared.files, skipped: [...skipped, ...prepared.skipped] };
}

/**
 * Downloads a message's or a command's attachments within the settings' limits; says on `surface`
 * which were not used. Never throws.
 */
export async function inputFiles(limits: DownloadLimits, surface: Pick<Surface, 'post'>, attachments: RemoteFile[]): Promise<InputFile[]> {
  if (attachments.length === 0) return [];
  const { files, skipped } = await downloadAttachments(attachments, limits);
  if (skipped.length) for (const msg of discordRenderer.render(skippedInputsView(skipped))) await surface.post(msg);
  return files;
}
