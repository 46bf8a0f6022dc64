import { describe, expect, it } from 'vitest';
import { SeedSequence } from '../../src/llm/seed.js';

describe('SeedSequence (llm.seed)', () => {
  it('gives the base, then one more for each call, wrapping at 2^31; nothing without a base', () => {
    const seeds = new SeedSequence(2 ** 31 - 2);
    expect([seeds.next(), seeds.next(), seeds.next()]).toEqual([2 ** 31 - 2, 2 ** 31 - 1, 0]);
    expect(new SeedSequence(undefined).next()).toBeUndefined();
  });
});
