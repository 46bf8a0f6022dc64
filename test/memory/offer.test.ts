/**
 * The sentence the offer after a correction would remember: the reply on one line, without the
 * words that only said the answer was wrong, within the length a definition may have.
 */
import { describe, expect, it } from 'vitest';
import { correctionSentence } from '../../src/memory/offer.js';

describe('the sentence offered after a correction', () => {
  it.each([
    ['wrong: revenue = units × unit_price', 'revenue = units × unit_price'],
    ['No, sales means units times unit_price here', 'sales means units times unit_price here'],
    ["no — wrong. That's not right: our fiscal year starts in April", 'our fiscal year starts in April'],
    ['Actually, active customers ordered in the last 90 days', 'active customers ordered in the last 90 days'],
    ['This is incorrect!  count distinct\ncustomers', 'count distinct customers'],
  ])('%j → %j', (reply, sentence) => {
    expect(correctionSentence(reply, 300)).toBe(sentence);
  });

  it('keeps words that only begin like an opener, and a sentence that is all content', () => {
    expect(correctionSentence('Northern region means NO and SE', 300)).toBe('Northern region means NO and SE');
    expect(correctionSentence('nowhere counts as a region', 300)).toBe('nowhere counts as a region');
    expect(correctionSentence('wrongly booked orders are excluded', 300)).toBe('wrongly booked orders are excluded');
  });

  it('offers nothing when only the opener was said, or the sentence is too long for a definition', () => {
    expect(correctionSentence('No, wrong!', 300)).toBeUndefined();
    expect(correctionSentence('   ', 300)).toBeUndefined();
    expect(correctionSentence(`wrong: ${'x'.repeat(40)}`, 30)).toBeUndefined();
    expect(correctionSentence(`wrong: ${'x'.repeat(30)}`, 30)).toBe('x'.repeat(30));
  });
});
