/** UTF-8 byte boundaries, for cutting raw program output without splitting a character. */

/**
 * Length of `buf` without a trailing, incomplete UTF-8 sequence (a character cut by a byte cap).
 * Bytes that are invalid for other reasons are left alone (the decoder shows them as U+FFFD).
 * @returns a length in bytes, `buf.length - 3 … buf.length`
 */
export function completeUtf8Length(buf: Uint8Array): number {
  // look back at most 3 bytes for the lead byte of the last sequence
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const byte = buf[buf.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 && byte < 0xe0 ? 2 : 1;
    return need > back ? buf.length - back : buf.length;
  }
  return buf.length;
}
