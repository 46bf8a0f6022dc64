/**
 * Packing a view's rendered pieces into the platform's bounded parts, the same way on every
 * platform: in order, each piece joins the last part while the part stays within the bound, else
 * starts a part of its own (Slack's sections of at most 3000 characters, Discord's messages of at
 * most 2000 characters and 10 files, Matrix's events of at most 24,000 bytes). A piece larger than
 * the bound alone is a part alone: the renderer bounded each piece before. Pure.
 */

/**
 * Pieces packed greedily into parts (see the module comment).
 * @param fits whether `piece` may join `part` (which is never empty) within the platform's bound
 */
export function packGreedy<T>(pieces: readonly T[], fits: (part: readonly T[], piece: T) => boolean): T[][] {
  const parts: T[][] = [];
  for (const piece of pieces) {
    const last = parts.at(-1);
    if (last && fits(last, piece)) last.push(piece);
    else parts.push([piece]);
  }
  return parts;
}

/**
 * Lines of rendered text packed into parts of at most `max` characters, the lines of a part joined
 * by `'\n'`; blank parts are left out.
 * @param max characters of a part (UTF-16 code units, as platforms count), ≥ 1
 */
export function packLines(lines: readonly string[], max: number): string[] {
  const joined = (part: readonly string[]) => part.reduce((n, line) => n + line.length, part.length - 1);
  return packGreedy(lines, (part, line) => joined(part) + 1 + line.length <= max)
    .map((part) => part.join('\n'))
    .filter((text) => text.trim() !== '');
}

/** Compile-time proof that a renderer's switch over a view's blocks has every kind. @throws always, for a block of no kind it knows */
export function unknownBlock(block: never, platform: string): never {
  throw new Error(`block without a ${platform} rendering: ${JSON.stringify(block)}`);
}
