/**
 * What a check may assert as evidence: the literals its asserts compare with, read by Python's
 * parser on the host (nothing executed), and which of them the request states.
 */
import { describe, expect, it } from 'vitest';
import { assertLiterals } from '../../src/agent/verification/check-literals.js';
import { guessedChecks, onlyGuessesFailed, statedNumbers } from '../../src/agent/verification/guesses.js';

async function guesses(checks: string, request: string) {
  const literals = await assertLiterals(checks);
  expect(literals).toBeDefined();
  return guessedChecks(literals!, request).map((g) => g.constant);
}

describe('assertLiterals (Python ast, no execution)', () => {
  it('reads the literal side of each comparison and leaves computed values out', async () => {
    const checks = [
      'values = [int(v) for v in OUTPUT.split()]',
      'assert len(values) == 5, "five numbers"',
      'assert values == [n * n for n in range(1, 6)], "the squares"',
      'assert "21" in OUTPUT and count == -3.5',
      'assert is_even(4) == True',
    ].join('\n');
    const read = await assertLiterals(checks);
    expect(read).toEqual([
      { check: 'assert len(values) == 5, "five numbers"', literals: [{ atoms: [{ k: 'num', v: 5 }], text: '5', form: false }] },
      { check: 'assert values == [n * n for n in range(1, 6)], "the squares"', literals: [] },
      {
        check: 'assert "21" in OUTPUT and count == -3.5',
        literals: [
          { atoms: [{ k: 'str', v: '21' }], text: "'21'", form: false },
          { atoms: [{ k: 'num', v: -3.5 }], text: '-3.5', form: false },
        ],
      },
      { check: 'assert is_even(4) == True', literals: [{ atoms: [{ k: 'flag' }], text: 'True', form: false }] },
    ]);
  });

  it('never runs the checks: a literal that would run code is not read, and bad Python gives undefined', async () => {
    const read = await assertLiterals('assert OUTPUT == __import__("os").system("touch /tmp/pwned-by-checks")');
    expect(read).toEqual([{ check: 'assert OUTPUT == __import__("os").system("touch /tmp/pwned-by-checks")', literals: [] }]);
    expect(await assertLiterals('assert (')).toBeUndefined();
    expect(await assertLiterals('')).toEqual([]);
  });

  it('marks a count of the output lines as a form', async () => {
    const read = await assertLiterals('assert len(OUTPUT.splitlines()) == 1, "only one line of output"');
    expect(read![0]!.literals[0]).toMatchObject({ text: '1', form: true });
  });
});

describe('guessedChecks', () => {
  it('takes a constant the request never states for a guess', async () => {
    const request = 'Count the vowels in "Programming in Python is fun and rewarding" and print the count';
    expect(await guesses('assert int(OUTPUT) == 10, "ten vowels"', request)).toEqual(['10']);
    expect(await guesses('assert OUTPUT.strip() == "999", "largest"', 'find the largest palindrome made from two 2-digit numbers')).toEqual(["'999'"]);
    expect(await guesses('assert OUTPUT == "1111"', 'print 15 in binary')).toEqual(["'1111'"]);
  });

  it("keeps the request's own numbers, examples and words as evidence", async () => {
    expect(await guesses('assert len(values) == 20, "20 numbers"', 'print the first 20 primes')).toEqual([]);
    expect(await guesses('assert len(values) == 20', 'print the first twenty primes')).toEqual([]);
    expect(await guesses('assert truncate_number(3.5) == 0.5', '>>> truncate_number(3.5)\n0.5')).toEqual([]);
    expect(await guesses('assert OUTPUT == "Hello, World!"', 'print Hello, World!')).toEqual([]);
    expect(await guesses('assert "total" in OUTPUT.lower()', 'print the total revenue')).toEqual([]);
    expect(await guesses('assert rate == 0.05', 'interest of 5% a year')).toEqual([]);
    expect(await guesses('assert values == [n * n for n in range(1, 6)]', 'print the squares of 1 to 5')).toEqual([]);
    expect(await guesses('assert is_even(7) == False', 'write is_even(n)')).toEqual([]);
  });

  it('asks a form check for a form the request asks for', async () => {
    const oneLine = 'assert len(OUTPUT.splitlines()) == 1, "only one line of output"';
    expect(await guesses(oneLine, 'print a table of the squares of 1 to 10')).toEqual(['1']);
    expect(await guesses(oneLine, 'print the squares of 1 to 10 on one line')).toEqual([]);
    expect(await guesses('assert "," in OUTPUT', 'print them separated by commas')).toEqual([]);
    expect(await guesses('assert "," in OUTPUT', 'print them')).toEqual(["','"]);
  });

  it('reads numbers, number words and percentages of a request', () => {
    expect(statedNumbers('the first twenty primes, 1,204 orders, 5% off')).toEqual(expect.arrayContaining([20, 1204, 5, 0.05]));
  });
});

describe('onlyGuessesFailed', () => {
  const guessed = [{ check: 'assert int(OUTPUT) == 10', constant: '10' }];
  it('is the guesses when they are the only failures, and nothing when evidence failed or a check raised', () => {
    const fail = (check: string, detail: string) => ({ check, passed: false, detail });
    expect(onlyGuessesFailed({ results: [fail('assert int(OUTPUT) == 10', 'got 12, expected == 10'), { check: 'assert x', passed: true }] }, guessed)).toEqual(guessed);
    expect(onlyGuessesFailed({ results: [fail('assert int(OUTPUT) == 10', 'got 12, expected == 10'), fail('assert len(v) == 5', 'got 4, expected == 5')] }, guessed)).toBeUndefined();
    expect(onlyGuessesFailed({ results: [fail('assert int(OUTPUT) == 10', "ValueError: invalid literal for int() with base 10: 'x'")] }, guessed)).toBeUndefined();
    expect(onlyGuessesFailed({ results: [{ check: 'assert int(OUTPUT) == 10', passed: true }] }, guessed)).toBeUndefined();
    expect(onlyGuessesFailed({ results: [], error: 'the checks did not run' }, guessed)).toBeUndefined();
  });
});
