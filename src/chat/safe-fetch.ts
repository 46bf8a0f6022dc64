/**
 * Downloads of chat attachments: only from the platform's own file hosts, checked again on every
 * redirect (a trusted host may redirect anywhere, e.g. to a local address), with a size cap that
 * does not trust the declared size and a timeout.
 */

/** Options of {@link fetchFromOrigins}. */
export interface SafeFetchOptions {
  /** Origins (`https://files.slack.com`) a request, and every redirect, may go to. */
  origins: ReadonlySet<string>;
  /** Headers sent with each request (only ever to `origins`). */
  headers?: Record<string, string>;
  /** Most bytes read, in bytes; more is an error. */
  maxBytes: number;
  /** Whole download, in ms. */
  timeoutMs: number;
  /** Redirects followed at most. Default 5. */
  maxRedirects?: number;
  /** Words for the error when the body passes `maxBytes`, e.g. `larger than 10 MB`. */
  tooLarge?: string;
}

/** A download refused or failed; `message` is one short line, safe to show (no URL). */
export class DownloadError extends Error {
  override name = 'DownloadError';
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * GETs `url` following redirects by hand, each hop's origin checked against `options.origins`.
 * @throws {DownloadError} for a host not allowed, an HTTP error, too many redirects or too many bytes
 */
export async function fetchFromOrigins(url: string, options: SafeFetchOptions): Promise<Buffer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = url;
  for (let hop = 0; ; hop++) {
    const origin = originOf(current);
    if (origin === undefined || !options.origins.has(origin)) {
      throw new DownloadError(hop === 0 ? 'not hosted by the platform' : 'redirected away from the platform\'s file hosts');
    }
    const res = await fetch(current, { headers: options.headers, redirect: 'manual', signal });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      if (hop >= (options.maxRedirects ?? 5)) throw new DownloadError('too many redirects');
      current = new URL(location, current).toString();
      continue;
    }
    if (!res.ok || !res.body) throw new DownloadError(`download failed (HTTP ${res.status})`);
    return readCapped(res.body, options.maxBytes, options.tooLarge ?? `larger than ${options.maxBytes} bytes`);
  }
}

async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new DownloadError(tooLarge);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
