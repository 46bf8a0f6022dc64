/**
 * Undoes a response's `Content-Encoding` on the host side. The broker asks every host for an
 * uncompressed answer (`Accept-Encoding: identity`) because it reads the body for secrets, but a
 * server may compress anyway: a gzip'd echo of a credential would pass the redaction untouched and
 * the program would only have to decompress it. So a compressed body is decoded here, within the
 * same byte cap, before it is redacted (and so is one sent with a transfer-coding such as
 * `Transfer-Encoding: gzip, chunked`); an encoding the broker cannot read is refused.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

type Decoder = (data: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>;

const DECODERS: Record<string, Decoder> = {
  gzip: promisify(zlib.gunzip) as Decoder,
  'x-gzip': promisify(zlib.gunzip) as Decoder,
  deflate: promisify(zlib.inflate) as Decoder,
  br: promisify(zlib.brotliDecompress) as Decoder,
};

/**
 * The codings of a `Transfer-Encoding` header other than `chunked` (which Node's parser undoes)
 * and `identity`: `gzip, chunked` → `gzip`. A server may compress with them instead of
 * `Content-Encoding`, and the body would pass still compressed.
 */
export function transferCodings(header: string | undefined): string {
  return (header ?? '').split(',').map((c) => c.trim()).filter((c) => c !== '' && !/^(chunked|identity)$/i.test(c)).join(', ');
}

/**
 * Decodes `data` sent with the `Content-Encoding` (or transfer-coding) header `encoding` (a list,
 * applied in order, so undone from the last), into at most `maxBytes` bytes.
 * @returns the decoded body, or a sentence saying why it cannot be read (an unknown encoding, a
 *   corrupt stream, or more than `maxBytes` once decoded)
 */
export async function decodeBody(data: Buffer, encoding: string | undefined, maxBytes: number): Promise<Buffer | string> {
  const codings = (encoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  let out = data;
  for (const coding of codings.reverse()) {
    const decode = Object.hasOwn(DECODERS, coding) ? DECODERS[coding] : undefined;
    // the coding's name is the server's text (an echo of a credential, say): it is not repeated
    if (!decode) return 'it is encoded in a way the broker cannot read (it reads every answer for secrets, and decodes only gzip, deflate and br)';
    try {
      out = await decode(out, { maxOutputLength: Math.max(1, maxBytes) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code === 'ERR_BUFFER_TOO_LARGE' ? `it is larger than ${maxBytes} bytes once decoded (${coding})` : `its ${coding} encoding is corrupt`;
    }
  }
  return out;
}
