/**
 * The notice that a file could not be uploaded (a plot too large for the platform, an upload the
 * platform refused after the message went out), composed once for every platform: Slack and Matrix
 * post it after the message the file belonged to, Discord names a file in its place when it is too
 * large to attach, or appends it to a message whose attachments were refused. The file's name and
 * the platform's reason are untrusted: they are bounded here and escaped by each renderer.
 */
import { formatBytes } from '../../text/bytes.js';
import { boundLine } from '../../text/cut.js';
import type { Inline, Line, View } from './blocks.js';

/** A file that could not be uploaded: its name, and its size in bytes when known. */
export interface UnsentFile {
  name: string;
  bytes?: number;
}

/** Characters of a file's name, and of the reason, as shown (before a platform escapes them). */
export const UPLOAD_NOTICE_MAX = { name: 100, reason: 300 } as const;
/** Files named in one notice; the others are counted (`and N more`). */
export const UPLOAD_NOTICE_FILES = 5;

/**
 * The line of the notice, e.g. 📎 Could not upload `plot.png` (12.0 MB): larger than Discord's 10 MiB
 * upload limit. One line whatever the name and reason hold (at most about 1,000 characters).
 * @param files the files (at least one), named in order
 * @param reason why, in the platform's or our words
 */
export function uploadNoticeLine(files: UnsentFile[], reason: string): Line {
  const shown = files.slice(0, UPLOAD_NOTICE_FILES);
  const names: Inline[] = shown.flatMap((f, i) => [
    ...(i > 0 ? [', '] : []),
    { code: boundLine(f.name, UPLOAD_NOTICE_MAX.name) || 'file' },
    ...(f.bytes !== undefined ? [` (${formatBytes(f.bytes)})`] : []),
  ]);
  const more = files.length - shown.length;
  return ['📎 Could not upload ', ...names, ...(more > 0 ? [` and ${more} more`] : []), `: ${boundLine(reason, UPLOAD_NOTICE_MAX.reason) || 'no reason given'}`];
}

/** The notice as a view of one text block (see {@link uploadNoticeLine}). */
export function uploadNoticeView(files: UnsentFile[], reason: string): View {
  return { blocks: [{ kind: 'text', text: uploadNoticeLine(files, reason) }] };
}
