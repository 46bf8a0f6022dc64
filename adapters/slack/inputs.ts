/**
 * Files attached to a message that starts or improves a run become input files in the sandbox work dir. They are downloaded
 * from `url_private` with the bot token (https://docs.slack.dev/messaging/working-with-files#authenticating),
 * only from Slack's file hosts (or the configured API host), every redirect checked the same way
 * (src/chat/safe-fetch.ts), and capped in size and number.
 */
import type { InputFile } from '../../src/history/execution.js';
import type { IncomingFile } from '../../src/chat/incoming-port.js';
import type { SlackSettings } from './settings.js';
import { prepareInputs } from '../../src/chat/input-note.js';
import { fetchFromOrigins } from '../../src/chat/safe-fetch.js';

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
 * Downloads attached files (at most `maxInputFiles`, each at most `maxInputFileBytes`), named as
 * the sandbox will name them (src/chat/input-note.ts).
 * Never throws: a file that cannot be fetched is listed in `skipped`.
 */
export async function downloadInputs(
  files: IncomingFile[],
  settings: Pick<SlackSettings, 'botToken' | 'apiUrl' | 'maxInputFileBytes' | 'maxInputFiles'>,
): Promise<Downloaded> {
  const result: Downloaded = { files: [], skipped: [] };
  const origins = trustedOrigins(settings.apiUrl);
  for (const [i, file] of files.entries()) {
    const name = file.name;
    if (i >= settings.maxInputFiles) {
      result.skipped.push(`${name}: more than ${settings.maxInputFiles} files attached`);
      continue;
    }
    const url = file.url;
    if (!url) {
      result.skipped.push(`${name}: Slack gave no download link`);
      continue;
    }
    if (file.bytes !== undefined && file.bytes > settings.maxInputFileBytes) {
      result.skipped.push(`${name}: ${file.bytes} bytes; the limit is ${settings.maxInputFileBytes} (slack.max_input_file_mb)`);
      continue;
    }
    try {
      const content = await fetchFromOrigins(url, {
        origins,
        headers: { authorization: `Bearer ${settings.botToken}` },
        maxBytes: settings.maxInputFileBytes,
        timeoutMs: 30_000,
        tooLarge: `larger than ${settings.maxInputFileBytes} bytes (slack.max_input_file_mb)`,
      });
      result.files.push({ name, content });
    } catch (err) {
      result.skipped.push(`${name}: ${(err as Error).message}`);
    }
  }
  const prepared = prepareInputs(result.files);
  return { files: prepared.files, skipped: [...result.skipped, ...prepared.skipped] };
}
