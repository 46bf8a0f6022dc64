/**
 * Parses what the WebClient sends: `application/x-www-form-urlencoded` (values that are JSON
 * arrays/objects decoded, as Slack does for `blocks` and `files`), JSON, or `multipart/form-data`
 * (the upload step; the first file part is returned as `file`).
 */

/** Parsed request body. */
export interface ParsedBody {
  fields: Record<string, unknown>;
  /** Bytes of the first file part of a multipart body. */
  file?: Buffer;
}

/** Parses a body by its content type; unknown types give no fields. */
export function parseBody(raw: Buffer, contentType: string | undefined): ParsedBody {
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    try {
      return { fields: JSON.parse(raw.toString('utf8')) as Record<string, unknown> };
    } catch {
      return { fields: {} };
    }
  }
  if (type.startsWith('multipart/form-data')) return parseMultipart(raw, /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? ''));
  if (type.startsWith('application/x-www-form-urlencoded') || raw.length > 0) {
    const fields: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) fields[k] = decodeJson(v);
    return { fields };
  }
  return { fields: {} };
}

function decodeJson(v: string): unknown {
  if (!/^[[{]/.test(v)) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function parseMultipart(raw: Buffer, match: RegExpExecArray | null): ParsedBody {
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) return { fields: {} };
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, unknown> = {};
  let file: Buffer | undefined;
  let start = raw.indexOf(delimiter);
  while (start !== -1) {
    const next = raw.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = raw.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after delimiter and before next
    const split = part.indexOf('\r\n\r\n');
    if (split !== -1) {
      const head = part.subarray(0, split).toString('utf8');
      const body = part.subarray(split + 4);
      const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
      if (/filename="/.test(head)) file ??= Buffer.from(body);
      else fields[name] = body.toString('utf8');
    }
    start = next;
  }
  return { fields, file };
}
