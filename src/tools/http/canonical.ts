/**
 * A text with its escapes undone, and where each of its bytes came from: the view the redaction
 * searches (redact.ts), so that a credential is found whichever of its characters a server wrote
 * escaped, and however many times. Undone, in one pass, left to right:
 * - percent-encoding of any byte, repeated (`%2F`, `%252F`, `%25252F`), and `%uXXXX`;
 * - JSON and JavaScript escapes behind any number of backslashes (`\u002F`, `\\u002F`, `\x2F`,
 *   `\u{2F}`, a UTF-16 surrogate pair, `\/` and any other punctuation after a backslash);
 * - HTML character references (`&#47;`, `&#x2F;`, `&amp;`, `&quot;`, `&lt;`, `&gt;`, `&apos;`).
 * Every other byte is kept as it is (`+` too: a space written `+` is searched for separately).
 */

/** One piece of the view: a run copied as is, or the bytes one escape stands for. */
interface Piece {
  /** Where it starts in the view. */
  at: number;
  /** Where it starts in the original, and how many original bytes it covers. */
  from: number;
  length: number;
  /** Copied as is (each view byte is one original byte), or one escape. */
  copied: boolean;
}

/** A text's escapes undone, with the map back to the original's byte offsets. */
export class Canonical {
  private constructor(readonly bytes: Buffer, private readonly pieces: Piece[]) {}

  /** Where the view's bytes [start, end) came from in the original: [from, to). */
  original(start: number, end: number): [number, number] {
    const first = this.piece(start);
    const last = this.piece(end - 1);
    const from = first.copied ? first.from + (start - first.at) : first.from;
    const to = last.copied ? last.from + (end - last.at) : last.from + last.length;
    return [from, to];
  }

  private piece(at: number): Piece {
    let lo = 0;
    let hi = this.pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.pieces[mid]!.at <= at) lo = mid;
      else hi = mid - 1;
    }
    return this.pieces[lo]!;
  }

  /** The view of `data` (the same bytes, unmapped, when it holds no escape). An escape never takes more bytes than it stands for. */
  static of(data: Buffer): Canonical {
    const out = Buffer.allocUnsafe(data.length);
    let size = 0;
    const pieces: Piece[] = [];
    let runFrom = 0;
    const flushRun = (to: number) => {
      if (to <= runFrom) return;
      pieces.push({ at: size, from: runFrom, length: to - runFrom, copied: true });
      size += data.copy(out, size, runFrom, to);
    };
    for (let p = 0; p < data.length; ) {
      const c = data[p]!;
      const escape = c === 0x25 ? percent(data, p) : c === 0x5c ? backslash(data, p) : c === 0x26 ? reference(data, p) : undefined;
      if (!escape) {
        p++;
        continue;
      }
      flushRun(p);
      pieces.push({ at: size, from: p, length: escape.end - p, copied: false });
      for (const b of escape.bytes) out[size++] = b;
      p = escape.end;
      runFrom = p;
    }
    if (pieces.length === 0) return new Canonical(data, [{ at: 0, from: 0, length: data.length, copied: true }]);
    flushRun(data.length);
    return new Canonical(out.subarray(0, size), pieces);
  }
}

/** The view of a whole text (a credential), as a string of its bytes. */
export function canonicalText(text: string): Buffer {
  return Canonical.of(Buffer.from(text)).bytes;
}

interface Escape {
  bytes: number[];
  end: number;
}

const hexValue = (b: number | undefined): number => {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const l = b | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
};

/** The value of `n` hex digits at `at`, or -1. */
function hexAt(data: Buffer, at: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = hexValue(data[at + i]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

const utf8 = (cp: number): number[] => (cp >= 0 && cp <= 0x10ffff ? [...Buffer.from(String.fromCodePoint(cp))] : []);

/** `%XX`, `%25…25XX`, `%uXXXX` at `p`. */
function percent(data: Buffer, p: number): Escape | undefined {
  if ((data[p + 1]! | 0x20) === 0x75) {
    const cp = hexAt(data, p + 2, 4);
    return cp >= 0 ? { bytes: utf8(cp), end: p + 6 } : undefined;
  }
  let q = p + 1;
  while (data[q] === 0x32 && data[q + 1] === 0x35 && hexAt(data, q + 2, 2) >= 0) q += 2; // %25 before two hex digits: a percent sign encoded again
  const b = hexAt(data, q, 2);
  return b >= 0 ? { bytes: [b], end: q + 2 } : undefined;
}

/** A JSON or JavaScript escape behind one or more backslashes at `p`. */
function backslash(data: Buffer, p: number): Escape | undefined {
  let q = p;
  while (data[q] === 0x5c) q++;
  const c = data[q];
  if (c === undefined) return undefined;
  if (c === 0x75 && data[q + 1] === 0x7b) {
    const close = data.indexOf(0x7d, q + 2);
    const cp = close > q + 2 && close - q <= 9 ? hexAt(data, q + 2, close - q - 2) : -1;
    return cp >= 0 && cp <= 0x10ffff ? { bytes: utf8(cp), end: close + 1 } : undefined;
  }
  if (c === 0x75) {
    const unit = hexAt(data, q + 1, 4);
    if (unit < 0) return undefined;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      let r = q + 5;
      while (data[r] === 0x5c) r++;
      const low = r > q + 5 && data[r] === 0x75 ? hexAt(data, r + 1, 4) : -1;
      if (low >= 0xdc00 && low <= 0xdfff) return { bytes: utf8(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)), end: r + 5 };
    }
    return { bytes: utf8(unit), end: q + 5 };
  }
  if (c === 0x78) {
    const cp = hexAt(data, q + 1, 2);
    return cp >= 0 ? { bytes: utf8(cp), end: q + 3 } : undefined;
  }
  // punctuation after backslashes stands for itself (\/ in JSON, \- or \= in JavaScript); letters mean other escapes
  const punctuation = c > 0x20 && c < 0x7f && !((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) && !(c >= 0x30 && c <= 0x39);
  return punctuation ? { bytes: [c], end: q + 1 } : undefined;
}

const NAMED: Record<string, number> = { amp: 0x26, lt: 0x3c, gt: 0x3e, quot: 0x22, apos: 0x27 };

/** An HTML character reference at `p`. */
function reference(data: Buffer, p: number): Escape | undefined {
  const semi = data.indexOf(0x3b, p + 1);
  if (semi < 0 || semi - p > 12) return undefined;
  const body = data.subarray(p + 1, semi).toString('latin1');
  let cp = -1;
  if (/^#\d{1,7}$/.test(body)) cp = Number(body.slice(1));
  else if (/^#x[0-9a-f]{1,6}$/i.test(body)) cp = parseInt(body.slice(2), 16);
  else if (Object.hasOwn(NAMED, body.toLowerCase())) cp = NAMED[body.toLowerCase()]!;
  const bytes = utf8(cp);
  return bytes.length ? { bytes, end: semi + 1 } : undefined;
}
