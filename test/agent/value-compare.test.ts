/**
 * Comparisons by value, shared by the checks and agreement: numbers and numeric strings compare as
 * numbers; whitespace, labels and wrappers around the same values make no disagreement; different
 * values still disagree.
 */
import { describe, expect, it } from 'vitest';
import { sameByValue, withValueComparisons } from '../../src/agent/verification/value-compare.js';
import { agreeEitherWay, answerAgrees, sameAnswer } from '../../src/agent/verification/agreement.js';

const eq = (got: string, expected: string, text: [boolean, boolean]) => ({ op: '==' as const, sides: [got, expected] as [string, string], text });
const CONVERT = 'convert ff (hex) and 777 (octal) to decimal and print them';

describe('sameByValue (a check)', () => {
  it("takes '21' and 21 for the same value, and '21' and 22 for different ones", () => {
    expect(sameByValue(eq('21', '21', [true, false]), 'multiply 3 by 7')).toBe(true);
    expect(sameByValue(eq('21', '22', [true, false]), 'multiply 3 by 7')).toBe(false);
    expect(sameByValue(eq('21.0', '21', [true, false]), 'x')).toBe(true);
  });

  it('takes a labelled and a bare list of the same values for the same, but not other values', () => {
    expect(sameByValue(eq('ff: 255\n777: 511', '[255, 511]', [true, false]), CONVERT)).toBe(true);
    expect(sameByValue(eq('ff: 255\n777: 512', '[255, 511]', [true, false]), CONVERT)).toBe(false);
    expect(sameByValue(eq("['255', '511']", '[255, 511]', [false, false]), CONVERT)).toBe(true);
  });

  it("reads a check's number exactly and printed text at its printed precision", () => {
    expect(sameByValue(eq('3.14', '3.14159', [true, false]), 'print pi to 2 places')).toBe(true);
    expect(sameByValue(eq('0.49', '0.5', [true, false]), 'x')).toBe(false);
    expect(sameByValue(eq('48.73', '48.74', [true, false]), 'split the bill')).toBe(false);
  });

  it('keeps a form the request asks for: two strings in another form still differ', () => {
    expect(sameByValue(eq('1 2 3', '1, 2, 3', [true, true]), 'print 1, 2 and 3')).toBe(true);
    expect(sameByValue(eq('1 2 3', '1, 2, 3', [true, true]), 'print 1, 2 and 3 separated by commas')).toBe(false);
  });

  it('an `in` check holds when the printed text carries the values', () => {
    expect(sameByValue({ op: 'in', sides: ['21', 'The product is 21.0'], text: [false, true] }, 'multiply 3 by 7')).toBe(true);
    expect(sameByValue({ op: 'in', sides: ['21', 'The product is 22'], text: [false, true] }, 'multiply 3 by 7')).toBe(false);
  });

  it('counts the same values as passed in a report, and leaves other failures as they are', () => {
    const report = withValueComparisons(
      {
        results: [
          { check: 'assert OUTPUT == 21', passed: false, detail: "got '21', expected == 21", compared: eq('21', '21', [true, false]) },
          { check: 'assert OUTPUT == 22', passed: false, detail: "got '21', expected == 22", compared: eq('21', '22', [true, false]) },
          { check: 'assert len(v) == 5', passed: false, detail: 'got 4, expected == 5' },
        ],
      },
      'multiply 3 by 7',
    );
    expect(report.results.map((r) => [r.passed, r.byValue])).toEqual([[true, true], [false, undefined], [false, undefined]]);
  });
});

describe('agreement by value', () => {
  it('agrees on the same values in two forms, either way round', () => {
    expect(answerAgrees('[255, 511]', 'ff: 255 777: 511', CONVERT)).toBe(true);
    expect(answerAgrees('ff: 255 777: 511', '[255, 511]', CONVERT)).toBe(true);
    expect(agreeEitherWay('@outliers[[]]', '[]', 'find the outliers')).toBe(true);
    expect(sameAnswer('No outliers: none', '[]', 'find the outliers')).toBe(true);
  });

  it('still disagrees on different values, and a key that is no request number stays a value', () => {
    expect(answerAgrees('[255, 512]', 'ff: 255 777: 511', CONVERT)).toBe(false);
    expect(agreeEitherWay('@outliers[[3]]', '[]', 'find the outliers')).toBe(false);
    expect(sameAnswer('2', '8: 2', 'errors per hour')).toBe(false);
    expect(sameAnswer('NO', '[]', 'Which country ordered the most items?')).toBe(false);
  });

  it.each([
    ['a list of one', '[12.5]', '12.5', 'the mean of x'],
    ['a dict and a label', "{'mean': 3.21}", 'mean: 3.21', 'the mean of x'],
    ['a NumPy scalar', 'np.float64(3.21)', '3.21', 'the mean of x'],
    ['a NumPy integer', 'np.int64(24)', '24', 'how many rows'],
    ['a Decimal', "Decimal('753.2')", '753.2', 'the sum of the rounded weights'],
    ['a NumPy array and its print', 'array([1, 2, 3])', '[1 2 3]', 'the values of x'],
    ['a printed array and a comma list', '[1 2 3]', '1, 2, 3', 'the values of x'],
    ['a list of names and one per line', "['A', 'B']", 'A\nB', 'which groups'],
    ['an empty Series and an empty list', 'Series([], Name: x, dtype: float64)', '[]', 'the outliers of x'],
    ['an empty array and none', 'array([], dtype=float64)', 'none', 'the outliers of x'],
    ['a one-value tuple', '(0.8199,)', '0.8199', 'the Spearman correlation'],
    ['a JSON object and rows', '{"A": 17.45, "B": 15.6}', 'A 17.45\nB 15.60', 'price per group'],
  ])('wrappers agree: %s', (_what, a, b, request) => {
    expect(agreeEitherWay(a, b, request)).toBe(true);
  });

  it.each([
    ['a list of one', '[12.5]', '12.4', 'the mean of x'],
    ['a NumPy scalar', 'np.float64(3.21)', '3.12', 'the mean of x'],
    ['an empty Series and a value', 'Series([], Name: x, dtype: float64)', '[4.5]', 'the outliers of x'],
    ['an array and another list', 'array([1, 2, 3])', '[1 2 4]', 'the values of x'],
  ])('different values in wrappers disagree: %s', (_what, a, b, request) => {
    expect(agreeEitherWay(a, b, request)).toBe(false);
  });
});
