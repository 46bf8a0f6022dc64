/**
 * Keeps the host's configured credentials out of what a server sends back to the program, in every
 * form a server may echo them: as written, in any letter case; with any of its characters
 * percent-encoded (once or repeatedly), JSON-, JavaScript- or HTML-escaped (canonical.ts: the text
 * is searched with its escapes undone), `+` for spaces; hex; and base64 (standard and URL-safe) at
 * any alignment inside a longer base64 text, itself escaped or not. Each configured value counts, and so do its parts: the
 * credential after a scheme word (`Bearer abc…` → `abc…`), a Basic credential's decoded
 * `user:password` and password, and each cookie (`name=value` and the value) of a `Cookie` header.
 */

import { Canonical, canonicalText } from './canonical.js';

/** The replacement for a credential. */
export const REDACTED = '[redacted]';

/** Parts shorter than this are not redacted on their own (they would hit ordinary text). */
const MIN_PART_CHARS = 6;
/** Encoded forms shorter than this are not searched (a short hex or base64 run is common text). */
const MIN_ENCODED_CHARS = 8;
/** Characters of a base64 text: one next to a match may carry bits of the credential too. */
const BASE64_CHAR = /[A-Za-z0-9+/=_-]/;
/** A base64 match is widened by up to this many base64 characters on each side (a partial group). */
const BASE64_EDGE = 4;

/** One form to search for, in the text's canonical view (canonical.ts). */
interface Needle {
  bytes: Buffer;
  /** Matched in any ASCII letter case (every form but base64, whose case is its content). */
  anyCase: boolean;
  /** Base64 characters next to a match that are removed with it. */
  edge: number;
}

/** The values a configured header value stands for (see the module comment). */
export function credentialParts(value: string): string[] {
  const v = value.trim();
  const parts = [v];
  const scheme = /^\S+\s+(\S+)$/.exec(v)?.[1];
  if (scheme) parts.push(scheme);
  const basic = /^basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(v)?.[1];
  if (basic) {
    const pair = Buffer.from(basic, 'base64').toString('utf8');
    parts.push(pair, pair.slice(pair.indexOf(':') + 1));
  }
  for (const cookie of v.split(';').map((c) => c.trim())) {
    const eq = cookie.indexOf('=');
    if (eq > 0) parts.push(cookie, cookie.slice(eq + 1));
  }
  return [...new Set(parts.filter((p) => p.length >= MIN_PART_CHARS || p === v))];
}

/** The base64 characters that encode `secret` wherever it starts in a longer text (3 alignments), standard and URL-safe. */
function base64Cores(secret: Buffer): string[] {
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), secret]).toString('base64');
    const first = Math.ceil(shift / 3); // the first group made of the secret's bytes only
    const end = Math.floor((shift + secret.length) / 3); // groups after this hold bytes that follow it
    const core = text.slice(4 * first, 4 * end);
    if (core.length >= MIN_ENCODED_CHARS) cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/**
 * Every form of `part` to search for in a canonical view: the part itself (its escapes undone the
 * same way, so a percent-, JSON-, JavaScript- or HTML-escaped character anywhere in it matches),
 * with its spaces as `+` too, its hex, and its base64 cores.
 */
function formsOf(part: string): Needle[] {
  const bytes = Buffer.from(part);
  const plain = canonicalText(part);
  const text = [plain, Buffer.from(plain.toString('latin1').replaceAll(' ', '+'), 'latin1')];
  const needles: Needle[] = text.map((t) => ({ bytes: t, anyCase: true, edge: 0 }));
  if (bytes.length * 2 >= MIN_ENCODED_CHARS) needles.push({ bytes: Buffer.from(bytes.toString('hex')), anyCase: true, edge: 0 });
  for (const core of new Set(base64Cores(bytes))) needles.push({ bytes: Buffer.from(core), anyCase: false, edge: BASE64_EDGE });
  const seen = new Set<string>();
  return needles.filter((n) => {
    const key = `${n.anyCase}:${n.bytes.toString('latin1')}`;
    return !seen.has(key) && seen.add(key);
  });
}

/** A copy of `data` with ASCII letters in lower case (same length, so offsets carry over). */
function lowerAscii(data: Buffer): Buffer {
  const out = Buffer.from(data);
  for (let i = 0; i < out.length; i++) if (out[i]! >= 0x41 && out[i]! <= 0x5a) out[i] = out[i]! + 0x20;
  return out;
}

/** Finds and replaces every form of a set of credentials. */
export class Redactor {
  readonly #needles: Needle[];

  /** @param values the configured header values (each is split into its parts, see {@link credentialParts}) */
  constructor(values: readonly string[]) {
    const parts = [...new Set(values.flatMap(credentialParts))].filter((p) => p.length >= 4);
    this.#needles = parts.flatMap(formsOf).map((n) => (n.anyCase ? { ...n, bytes: lowerAscii(n.bytes) } : n));
  }

  /** Whether there is anything to redact. */
  get empty(): boolean {
    return this.#needles.length === 0;
  }

  /** `data` with every form of every credential replaced by `[redacted]` (the same buffer when none is found). */
  redact(data: Buffer): Buffer {
    if (this.#needles.length === 0 || data.length === 0) return data;
    const view = Canonical.of(data);
    const ranges: [number, number][] = [];
    // the canonical view, and the text as it is (an escape's introducer may sit before a plain form: %616263…)
    const haystacks = view.bytes === data ? [{ text: data, map: undefined }] : [{ text: view.bytes, map: view }, { text: data, map: undefined }];
    for (const { text, map } of haystacks) {
      const lower = lowerAscii(text);
      for (const n of this.#needles) {
        const haystack = n.anyCase ? lower : text;
        for (let at = haystack.indexOf(n.bytes); at >= 0; at = haystack.indexOf(n.bytes, at + 1)) {
          let start = at;
          let end = at + n.bytes.length;
          for (let k = 0; k < n.edge && start > 0 && BASE64_CHAR.test(String.fromCharCode(text[start - 1]!)); k++) start--;
          for (let k = 0; k < n.edge && end < text.length && BASE64_CHAR.test(String.fromCharCode(text[end]!)); k++) end++;
          ranges.push(map ? map.original(start, end) : [start, end]);
        }
      }
    }
    if (ranges.length === 0) return data;
    ranges.sort((a, b) => a[0] - b[0]);
    const parts: Buffer[] = [];
    let from = 0;
    for (const [start, end] of ranges) {
      if (end <= from) continue;
      if (start >= from) parts.push(data.subarray(from, start), Buffer.from(REDACTED));
      from = Math.max(from, end);
    }
    parts.push(data.subarray(from));
    return Buffer.concat(parts);
  }

  /** {@link redact} for text. */
  redactText(text: string): string {
    const data = Buffer.from(text);
    const out = this.redact(data);
    return out === data ? text : out.toString();
  }
}
