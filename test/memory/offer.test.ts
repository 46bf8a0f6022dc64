/**
 * The sentence the offer after a correction would remember: the reply on one line, without the
 * words that only said the answer was wrong, within the length a definition may have.
 */
import { describe, expect, it } from 'vitest';
import { correctionSentence, keepsAnswer, offerAfter, printedAnswer, runBefore } from '../../src/memory/offer.js';
import type { Run } from '../../src/history/types.js';

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

/** A finished run whose one attempt, made from `feedback`, printed `stdout` (what the offer reads of it). */
function ranWith(stdout: string, status: Run['status'] = 'success', feedback = 'x'): Run {
  const result = { success: true, stdout, stderr: '', exitCode: 0, timedOut: false, durationMs: 5, artifacts: [] } as unknown as NonNullable<Run['attempts'][number]['result']>;
  return {
    id: 'r1', conversationId: 'c', requirement: 'print the primes below 20', status, createdAt: '', updatedAt: '',
    attempts: [{ index: 1, trigger: 'feedback', feedback, code: 'print(1)', usage: { promptTokens: 0, completionTokens: 0 }, createdAt: '', result }],
  };
}

describe('the offer comes only after a reply that changed how the run read its request (B4)', () => {
  const primes = '[2, 3, 5, 7, 11, 13, 17, 19]';

  it('an extra request whose answer keeps every earlier value is no correction: no offer', () => {
    const before = { status: 'success' as const, answer: primes };
    expect(offerAfter(before, ranWith(`${primes}\n8`), 'also print how many primes there are', 300)).toBeUndefined();
    // the same addition in other words, and without an opener: the kept values decide
    expect(offerAfter(before, ranWith(`${primes}\ncount: 8`), 'print how many there are too', 300)).toBeUndefined();
    expect(offerAfter(before, ranWith(`${primes}\n8`), 'And also the count', 300)).toBeUndefined();
  });

  it('a reply opening with "also" is no correction even when the values changed', () => {
    expect(offerAfter({ status: 'success', answer: 'sales 10' }, ranWith('sales 7'), 'Also count refunds as negative sales', 300)).toBeUndefined();
  });

  it('a correction that changes the answer is offered, with the sentence it states', () => {
    const offer = offerAfter({ status: 'success', answer: 'sales 10' }, ranWith('revenue 7', 'success', 'No, wrong: sales means units times unit_price here'), 'No, wrong: sales means units times unit_price here', 300);
    expect(offer?.sentence).toBe('sales means units times unit_price here');
  });

  it('an earlier answer that printed nothing, or an unknown one, does not hide a correction', () => {
    expect(keepsAnswer('', '7')).toBe(false);
    expect(offerAfter({ status: 'unverified' }, ranWith('7', 'success', 'revenue means net of refunds'), 'revenue means net of refunds', 300)?.sentence).toBe('revenue means net of refunds');
  });

  it('values are kept as a multiset: a value printed twice before must be printed twice after', () => {
    expect(keepsAnswer('3 3', '3 4')).toBe(false);
    expect(keepsAnswer('3 3', '3 3 4')).toBe(true);
    expect(keepsAnswer('north south', 'north south east')).toBe(true);
    expect(keepsAnswer('north south', 'north east')).toBe(false);
  });

  it('runBefore reads the status and the newest executed answer before the turn changes the run', () => {
    expect(runBefore(ranWith(primes, 'unverified'))).toEqual({ status: 'unverified', answer: primes });
    expect(printedAnswer({ attempts: [] })).toBe('');
  });
});
