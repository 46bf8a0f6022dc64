/**
 * Packing a view's rendered pieces into the platform's bounded parts, the same way on every
 * platform: in order, each piece joins the last part while the part stays within the bound, else
 * starts a part of its own (Slack's sections of at most 3000 characters, Discord's messages of at
 * most 2000 characters and 10 files, Matrix's events of at most 24,000 bytes). A piece larger than
 * the bound alone is a part alone: the renderer bounded each piece before. Pure.
 */

/**
 * Items packed in order into groups whose sizes add up to at most `max` (see the module comment):
 * e.g. lines into sections, parts into messages.
 * @param size an item's size, in the platform's unit (characters, bytes), its separator included
 */
export function packInOrder<T>(items: readonly T[], size: (item: T) => number, max: number): T[][] {
  const groups: { items: T[]; size: number }[] = [];
  for (const item of items) {
    const n = size(item);
    const last = groups.at(-1);
    if (last && last.size + n <= max) {
      last.items.push(item);
      last.size += n;
    } else groups.push({ items: [item], size: n });
  }
  return groups.map((g) => g.items);
}

/**
 * Lines of rendered text packed into parts of at most `max` characters, the lines of a part joined
 * by `'\n'`; blank parts are left out.
 * @param max characters of a part (UTF-16 code units, as platforms count), ≥ 1
 */
export function packLines(lines: readonly string[], max: number): string[] {
  // each line counts its newline; the part's last has none, hence max + 1
  return packInOrder(lines, (line) => line.length + 1, max + 1)
    .map((part) => part.join('\n'))
    .filter((text) => text.trim() !== '');
}

/** Compile-time proof that a renderer's switch over a view's blocks has every kind. @throws always, for a block of no kind it knows */
export function unknownBlock(block: never, platform: string): never {
  throw new Error(`block without a ${platform} rendering: ${JSON.stringify(block)}`);
}
