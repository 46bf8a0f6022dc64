/**
 * Files attached to a thread reply become input files in the sandbox work dir. They are downloaded
 * from `url_private` with the bot token (https://docs.slack.dev/messaging/working-with-files#authenticating),
 * only from Slack's file hosts (or the configured API host), and capped in size and number.
 */
import type { InputFile } from '../../src/sandbox/types.js';
import type { SlackSettings } from './settings.js';

/** The part of a Slack file object we use (https://docs.slack.dev/reference/objects/file-object). */
export interface SlackFile {
  id?: string;
  name?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
}

/** Result of {@link downloadInputs}. */
export interface Downloaded {
  files: InputFile[];
  /** One line per file not taken, saying why. */
  skipped: string[];
}

/** Hosts the bot token may be sent to. */
function trustedOrigins(apiUrl: string): Set<string> {
  const origins = new Set(['https://files.slack.com', 'https://slack.com']);
  origins.add(new URL(apiUrl).origin);
  return origins;
}

/**
 * Downloads attached files (at most `maxInputFiles`, each at most `maxInputFileBytes`).
 * Never throws: a file that cannot be fetched is listed in `skipped`.
 */
export async function downloadInputs(
  files: SlackFile[] | undefined,
  settings: Pick<SlackSettings, 'botToken' | 'apiUrl' | 'maxInputFileBytes' | 'maxInputFiles'>,
): Promise<Downloaded> {
  const result: Downloaded = { files: [], skipped: [] };
  const origins = trustedOrigins(settings.apiUrl);
  for (const [i, file] of (files ?? []).entries()) {
    const name = file.name || file.id || `file-${i + 1}`;
    if (i >= settings.maxInputFiles) {
      result.skipped.push(`${name}: more than ${settings.maxInputFiles} files attached`);
      continue;
    }
    const url = file.url_private_download ?? file.url_private;
    if (!url) {
      result.skipped.push(`${name}: Slack gave no download link`);
      continue;
    }
    if (file.size !== undefined && file.size > settings.maxInputFileBytes) {
      result.skipped.push(`${name}: ${file.size} bytes; the limit is ${settings.maxInputFileBytes} (slack.max_input_file_mb)`);
      continue;
    }
    if (!origins.has(new URL(url).origin)) {
      result.skipped.push(`${name}: not hosted by Slack`);
      continue;
    }
    try {
      result.files.push({ name, content: await fetchCapped(url, settings.botToken, settings.maxInputFileBytes) });
    } catch (err) {
      result.skipped.push(`${name}: ${(err as Error).message}`);
    }
  }
  return result;
}

/** GETs a URL with the bot token; stops reading past `maxBytes`. */
async function fetchCapped(url: string, token: string, maxBytes: number): Promise<Buffer> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  if (!res.ok || !res.body) throw new Error(`download failed (HTTP ${res.status})`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new Error(`larger than ${maxBytes} bytes (slack.max_input_file_mb)`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** A sentence telling the LLM which input files are in the work dir, or '' when none. */
export function describeInputs(files: InputFile[]): string {
  if (files.length === 0) return '';
  return `\n\n(Input files available in the current working directory: ${files.map((f) => f.name).join(', ')})`;
}
