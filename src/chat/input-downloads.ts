/**
 * A request's files → sandbox input files, once for every platform: at most `maxFiles`, each at
 * most `maxBytes` (a declared size over it is not even fetched; a body over it is cut off while
 * read), named as the sandbox will name them (input-note.ts), and the files not used said in the
 * thread in one wording. A file over a cap is skipped and said, never truncated. The platform
 * gives only how one file is fetched with its credentials ({@link FetchFile}; most platforms:
 * {@link fetchFromHosts}, its file hosts and token).
 */
import type { InputFile } from '../history/execution.js';
import { formatBytes } from '../text/bytes.js';
import { cutChars } from '../text/cut.js';
import type { IncomingFile } from './incoming-port.js';
import { prepareInputs } from './input-note.js';
import { fetchFromOrigins } from './safe-fetch.js';

/** How many files one request takes, and how large each may be. */
export interface InputLimits {
  maxFiles: number;
  /** Per file, in bytes. */
  maxBytes: number;
}

/** The cap a fetch applies while it reads (a size not declared, or declared wrongly). */
export interface FetchCap {
  /** Most bytes read, in bytes. */
  maxBytes: number;
  /** The reason given when the body is larger (one line, safe to show). */
  tooLarge: string;
}

/**
 * How a platform fetches one file: from its own file hosts only, with its credentials.
 * @throws an Error whose message (one line, safe to show, no URL) says why not
 */
export type FetchFile = (file: IncomingFile, cap: FetchCap) => Promise<Buffer>;

/** The caps, and how one file is fetched. */
export interface InputDownloads extends InputLimits {
  fetch: FetchFile;
}

/** Where a platform serves its files (src/chat/safe-fetch.ts checks every hop). */
export interface FileHosts {
  /** Origins (`https://files.slack.com`) a download, and each of its redirects, may go to. */
  origins: Iterable<string>;
  /** Headers sent with each request, e.g. the bot token (only ever to `origins`). */
  headers?: Record<string, string>;
  /** Per download, in ms. Default 30 000. */
  timeoutMs?: number;
}

/** A {@link FetchFile} that GETs a file's URL from `hosts` only, redirects included. */
export function fetchFromHosts(hosts: FileHosts): FetchFile {
  const origins = new Set(hosts.origins);
  return (file, cap) => fetchFromOrigins(file.url, { origins, ...(hosts.headers ? { headers: hosts.headers } : {}), timeoutMs: hosts.timeoutMs ?? 30_000, ...cap });
}

/** How a platform's files are downloaded: within `limits`, from `hosts` only ({@link fetchFromHosts}). */
export function hostDownloads(limits: InputLimits, hosts: FileHosts): InputDownloads {
  return { ...limits, fetch: fetchFromHosts(hosts) };
}

/**
 * Downloads the files within the caps. Never throws.
 * @returns the files, and one line per file that was skipped (too many, too large, failed)
 */
export async function downloadInputs(files: IncomingFile[], d: InputDownloads): Promise<{ files: InputFile[]; skipped: string[] }> {
  const out: InputFile[] = [];
  const skipped: string[] = [];
  const cap: FetchCap = { maxBytes: d.maxBytes, tooLarge: `larger than the ${formatBytes(d.maxBytes)} limit` };
  for (const [i, file] of files.entries()) {
    if (i >= d.maxFiles) skipped.push(`${file.name}: more than ${d.maxFiles} files`);
    else if (!file.url) skipped.push(`${file.name}: the platform gave no download link`);
    else if (file.bytes !== undefined && file.bytes > d.maxBytes) skipped.push(`${file.name}: ${formatBytes(file.bytes)} is over the ${formatBytes(d.maxBytes)} limit`);
    else {
      try {
        out.push({ name: file.name, content: await d.fetch(file, cap) });
      } catch (err) {
        skipped.push(`${file.name}: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
      }
    }
  }
  const prepared = prepareInputs(out);
  return { files: prepared.files, skipped: [...skipped, ...prepared.skipped] };
}

/** The longest "not used" line, in characters (every platform's message holds it). */
const NOT_USED_MAX_CHARS = 1500;

/** The line saying which files were not used and why (plain text, at most 1,500 characters). */
export function notUsedText(skipped: readonly string[]): string {
  return cutChars(`Not used: ${skipped.join('; ')}`, NOT_USED_MAX_CHARS);
}

/** Where the thread is told which files were not used: its post, and its markup's note. */
export interface NotUsedTarget<M> {
  post(msg: M): Promise<unknown>;
  /** The platform's note (ThreadMarkup.note: a warning line, escaped and cut for it). */
  note(text: string): M;
}

/**
 * A thread's `inputs()` (src/chat/port.ts): downloads the request's files and says in the thread
 * which were not used. Never throws (a failed post is ignored: the run goes on with what came).
 */
export async function threadInputs<M>(files: IncomingFile[], d: InputDownloads, thread: NotUsedTarget<M>): Promise<InputFile[]> {
  if (files.length === 0) return [];
  const got = await downloadInputs(files, d);
  if (got.skipped.length > 0) {
    try {
      await thread.post(thread.note(notUsedText(got.skipped)));
    } catch {
      // best effort, as every post of a thread
    }
  }
  return got.files;
}
