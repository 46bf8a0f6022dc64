/**
 * Splits files over as many Discord messages as their limits require:
 * - at most {@link FILES_PER_REQUEST} files per message;
 * - at most {@link REQUEST_FILE_BYTES} of files per request (the whole request may not exceed
 *   25 MiB; the rest is left for the JSON payload and multipart framing);
 * - a file over {@link FILE_BYTES} (the upload limit of a server without boosts) can never be
 *   sent: it is returned in `unsendable` with the reason, never dropped silently.
 * Sources: https://discord.com/developers/docs/reference#uploading-files (request size 25 MiB),
 * https://discord.com/developers/docs/resources/message#create-message (files[n]: up to 10),
 * https://support.discord.com/hc/en-us/articles/25444343291031 (10 MiB per file without Nitro/boosts).
 */

const MIB = 1024 * 1024;
/** Files attached to one message. */
export const FILES_PER_REQUEST = 10;
/** Largest request Discord accepts, in bytes (25 MiB). */
export const REQUEST_BYTES = 25 * MIB;
/** File bytes put in one request, in bytes: 24 MiB, leaving 1 MiB for the payload and framing. */
export const REQUEST_FILE_BYTES = REQUEST_BYTES - MIB;
/** Largest single file uploaded, in bytes (10 MiB). */
export const FILE_BYTES = 10 * MIB;

/** A file to send: its name and size in bytes. */
export interface SizedFile {
  name: string;
  bytes: number;
}

/** A file that cannot be uploaded, and why (one short clause). */
export interface Unsendable extends SizedFile {
  reason: string;
}

/**
 * Packs files in order into batches that each fit one message (first fit, order kept within a batch).
 * @returns the batches (each non-empty) and the files no message can carry
 */
export function packFiles<T extends SizedFile>(files: T[], maxFileBytes = FILE_BYTES): { batches: T[][]; unsendable: Unsendable[] } {
  const batches: Array<{ files: T[]; bytes: number }> = [];
  const unsendable: Unsendable[] = [];
  for (const file of files) {
    if (file.bytes > maxFileBytes) {
      unsendable.push({ name: file.name, bytes: file.bytes, reason: `larger than Discord's ${maxFileBytes / MIB} MiB upload limit` });
      continue;
    }
    const batch = batches.find((b) => b.files.length < FILES_PER_REQUEST && b.bytes + file.bytes <= REQUEST_FILE_BYTES);
    if (batch) {
      batch.files.push(file);
      batch.bytes += file.bytes;
    } else batches.push({ files: [file], bytes: file.bytes });
  }
  return { batches: batches.map((b) => b.files), unsendable };
}
