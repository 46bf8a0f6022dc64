/** Packing rendered pieces into bounded parts (src/chat/view/pack.ts), as every renderer does. */
import { describe, expect, it } from 'vitest';
import { packInOrder, packLines, unknownBlock } from '../../src/chat/view/pack.js';

describe('packInOrder', () => {
  it('keeps the order and starts a group when the bound would be passed', () => {
    expect(packInOrder([3, 4, 2, 5, 1], (n) => n, 7)).toEqual([[3, 4], [2, 5], [1]]);
    expect(packInOrder([], (n: number) => n, 7)).toEqual([]);
  });

  it('puts an item larger than the bound in a group of its own', () => {
    expect(packInOrder([9, 1], (n) => n, 5)).toEqual([[9], [1]]);
  });
});

describe('packLines', () => {
  it('joins lines by newlines within the bound, counting the newlines', () => {
    expect(packLines(['aaa', 'bb', 'c'], 6)).toEqual(['aaa\nbb', 'c']);
    expect(packLines(['aaa', 'bb', 'c'], 8)).toEqual(['aaa\nbb\nc']);
  });

  it('leaves out blank parts', () => {
    expect(packLines(['  ', 'x'.repeat(5)], 5)).toEqual(['xxxxx']);
  });
});

describe('unknownBlock', () => {
  it('names the platform and the block', () => {
    expect(() => unknownBlock({ kind: 'odd' } as never, 'Slack')).toThrow('block without a Slack rendering: {"kind":"odd"}');
  });
});
