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

/** Pieces of the view, each a run copied as is or the bytes of one escape, in growable typed arrays. */
class Pieces {
  /** Where each piece starts in the view, where it starts in the original, how many original bytes it covers. */
  at = new Int32Array(256);
  from = new Int32Array(256);
  length = new Int32Array(256);
  /** 1: copied as is (each view byte is one original byte); 0: one escape. */
  copied = new Uint8Array(256);
  count = 0;

  add(at: number, from: number, length: number, copied: boolean): void {
    if (this.count === this.at.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.at = grow(this.at);
      this.from = grow(this.from);
      this.length = grow(this.length);
      this.copied = grow(this.copied);
    }
    this.at[this.count] = at;
    this.from[this.count] = from;
    this.length[this.count] = length;
    this.copied[this.count] = copied ? 1 : 0;
    this.count++;
  }

  /** The index of the piece holding view byte `at`. */
  find(at: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.at[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** A text's escapes undone, with the map back to the original's byte offsets. */
export class Canonical {
  private constructor(readonly bytes: Buffer, private readonly pieces: Pieces) {}

  /** Where the view's bytes [start, end) came from in the original: [from, to). */
  original(start: number, end: number): [number, number] {
    const p = this.pieces;
    const first = p.find(start);
    const last = p.find(end - 1);
    const from = p.copied[first] ? p.from[first]! + (start - p.at[first]!) : p.from[first]!;
    const to = p.copied[last] ? p.from[last]! + (end - p.at[last]!) : p.from[last]! + p.length[last]!;
    return [from, to];
  }

  /** The view of `data` (the same bytes when it holds no escape). An escape never takes more bytes than it stands for. */
  static of(data: Buffer): Canonical {
    const out = Buffer.allocUnsafe(data.length);
    const pieces = new Pieces();
    const next = new Introducers(data);
    let size = 0;
    let runFrom = 0;
    for (let p = next.from(0); p >= 0; ) {
      const c = data[p]!;
      // decoded past the run still to copy: an escape never takes more bytes than it stands for, so nothing overlaps
      const at = size + (p - runFrom);
      const end = c === 0x25 ? percent(data, p, out, at) : c === 0x5c ? backslash(data, p, out, at) : reference(data, p, out, at);
      if (end < 0) {
        p = next.from(p + 1);
        continue;
      }
      if (p > runFrom) {
        pieces.add(size, runFrom, p - runFrom, true);
        if (p - runFrom > 64) data.copy(out, size, runFrom, p);
        else for (let i = runFrom, o = size; i < p; i++, o++) out[o] = data[i]!; // a short run: cheaper than a native call
      }
      pieces.add(at, p, end - p, false);
      size = at + WRITTEN.n;
      runFrom = end;
      p = next.from(end);
    }
    if (pieces.count === 0) {
      pieces.add(0, 0, data.length, true);
      return new Canonical(data, pieces);
    }
    if (data.length > runFrom) {
      pieces.add(size, runFrom, data.length - runFrom, true);
      data.copy(out, size, runFrom);
      size += data.length - runFrom;
    }
    return new Canonical(out.subarray(0, size), pieces);
  }
}

/** Where the next `%`, `\\` or `&` is: each found once and kept until passed (no rescan of a text without one). */
class Introducers {
  private readonly at = [-2, -2, -2];
  private static readonly BYTES = [0x25, 0x5c, 0x26];

  constructor(private readonly data: Buffer) {}

  /** The first introducer at or after `from`, or -1. */
  from(from: number): number {
    let best = -1;
    for (let i = 0; i < 3; i++) {
      if (this.at[i]! !== -1 && this.at[i]! < from) this.at[i] = this.data.indexOf(Introducers.BYTES[i]!, from);
      const at = this.at[i]!;
      if (at >= 0 && (best < 0 || at < best)) best = at;
    }
    return best;
  }
}

/** The view of a whole text (a credential), as a string of its bytes. */
export function canonicalText(text: string): Buffer {
  return Canonical.of(Buffer.from(text)).bytes;
}

/** How many bytes the last escape wrote (the escape functions return where the escape ends, or -1). */
const WRITTEN = { n: 0 };

/** Writes code point `cp` as UTF-8 at `out[at]`; returns the end of the escape, or -1 for no code point. */
function writeCodePoint(cp: number, out: Buffer, at: number, end: number): number {
  if (cp < 0 || cp > 0x10ffff) return -1;
  if (cp < 0x80) {
    out[at] = cp;
    WRITTEN.n = 1;
  } else WRITTEN.n = out.write(String.fromCodePoint(cp), at);
  return end;
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

/** `%XX`, `%25…25XX`, `%uXXXX` at `p`. */
function percent(data: Buffer, p: number, out: Buffer, at: number): number {
  if ((data[p + 1]! | 0x20) === 0x75) return writeCodePoint(hexAt(data, p + 2, 4), out, at, p + 6);
  let q = p + 1;
  while (data[q] === 0x32 && data[q + 1] === 0x35 && hexAt(data, q + 2, 2) >= 0) q += 2; // %25 before two hex digits: a percent sign encoded again
  const b = hexAt(data, q, 2);
  if (b < 0) return -1;
  out[at] = b;
  WRITTEN.n = 1;
  return q + 2;
}

/** A JSON or JavaScript escape behind one or more backslashes at `p`. */
function backslash(data: Buffer, p: number, out: Buffer, at: number): number {
  let q = p;
  while (data[q] === 0x5c) q++;
  const c = data[q];
  if (c === undefined) return -1;
  if (c === 0x75 && data[q + 1] === 0x7b) {
    const close = data.indexOf(0x7d, q + 2);
    return close > q + 2 && close - q <= 9 ? writeCodePoint(hexAt(data, q + 2, close - q - 2), out, at, close + 1) : -1;
  }
  if (c === 0x75) {
    const unit = hexAt(data, q + 1, 4);
    if (unit < 0) return -1;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      let r = q + 5;
      while (data[r] === 0x5c) r++;
      const low = r > q + 5 && data[r] === 0x75 ? hexAt(data, r + 1, 4) : -1;
      if (low >= 0xdc00 && low <= 0xdfff) return writeCodePoint(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00), out, at, r + 5);
    }
    return writeCodePoint(unit, out, at, q + 5);
  }
  if (c === 0x78) return writeCodePoint(hexAt(data, q + 1, 2), out, at, q + 3);
  // punctuation after backslashes stands for itself (\/ in JSON, \- or \= in JavaScript); letters mean other escapes
  const punctuation = c > 0x20 && c < 0x7f && !((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) && !(c >= 0x30 && c <= 0x39);
  if (!punctuation) return -1;
  out[at] = c;
  WRITTEN.n = 1;
  return q + 1;
}

/** The named references undone (lower case, as HTML writes them). */
const NAMED_BYTES: [Buffer, number][] = Object.entries({ amp: 0x26, lt: 0x3c, gt: 0x3e, quot: 0x22, apos: 0x27 }).map(([n, v]) => [Buffer.from(n), v]);

/** An HTML character reference at `p`: `&#47;`, `&#x2F;`, or a named one of {@link NAMED_BYTES}. */
function reference(data: Buffer, p: number, out: Buffer, at: number): number {
  let i = p + 1;
  let cp = 0;
  if (data[i] === 0x23) {
    const hex = (data[i + 1]! | 0x20) === 0x78;
    i += hex ? 2 : 1;
    const start = i;
    for (; i < data.length && i - start < 7; i++) {
      const d = hex ? hexValue(data[i]) : data[i]! >= 0x30 && data[i]! <= 0x39 ? data[i]! - 0x30 : -1;
      if (d < 0) break;
      cp = cp * (hex ? 16 : 10) + d;
    }
    return i > start && data[i] === 0x3b ? writeCodePoint(cp, out, at, i + 1) : -1;
  }
  for (const [name, value] of NAMED_BYTES) {
    if (data.length - i > name.length && data[i + name.length] === 0x3b && data.compare(name, 0, name.length, i, i + name.length) === 0) {
      return writeCodePoint(value, out, at, i + name.length + 1);
    }
  }
  return -1;
}
