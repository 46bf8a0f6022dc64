/** Packing rendered pieces into bounded parts (src/chat/view/pack.ts), as every renderer does. */
import { describe, expect, it } from 'vitest';
import { packGreedy, packLines, unknownBlock } from '../../src/chat/view/pack.js';

describe('packGreedy', () => {
  it('keeps the order and starts a part when the bound would be passed', () => {
    const sum = (part: readonly number[]) => part.reduce((a, b) => a + b, 0);
    expect(packGreedy([3, 4, 2, 5, 1], (part, n) => sum(part) + n <= 7)).toEqual([[3, 4], [2, 5], [1]]);
    expect(packGreedy([], () => true)).toEqual([]);
  });

  it('puts a piece larger than the bound in a part of its own', () => {
    expect(packGreedy([9, 1], (part, n) => part.reduce((a, b) => a + b, 0) + n <= 5)).toEqual([[9], [1]]);
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
