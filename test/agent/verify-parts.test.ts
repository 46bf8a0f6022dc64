/** The pure parts of verification: reading checks and reviews, comparing checks, unfixable failures. */
import { describe, expect, it } from 'vitest';
import { brokenCheck, droppedAsserts, MAX_CHECKS, parseChecks, requestNamesCode } from '../../src/agent/verification/checks.js';
import { parseReview } from '../../src/agent/verification/review.js';
import { unfixableFailure } from '../../src/agent/failures/index.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';

const failed = (stderr: string): ExecutionResult => ({
  success: false, stdout: '', stderr, exitCode: 1, signal: null, timedOut: false, limitHit: null, durationMs: 5, artifacts: [],
});
const context = (request: string) => ({ request, inputFiles: [], missingBefore: [] });

describe('parseChecks', () => {
  it('keeps setup lines and at most MAX_CHECKS asserts; a reply without an assert gives no checks', () => {
    const asserts = Array.from({ length: MAX_CHECKS + 2 }, (_, i) => `assert x == ${i}, "n${i}"`);
    const parsed = parseChecks(`\`\`\`python\nx = len(OUTPUT)\n${asserts.join('\n')}\n\`\`\``);
    expect(parsed.asserts).toHaveLength(MAX_CHECKS);
    expect(parsed.code.split('\n')[0]).toBe('x = len(OUTPUT)');
    expect(parsed.code).not.toContain(`x == ${MAX_CHECKS}`);
    expect(parseChecks('```python\n# no checks\n```')).toEqual({ code: '', asserts: [] });
    expect(parseChecks('I cannot check this.')).toEqual({ code: '', asserts: [] });
  });
});

describe('droppedAsserts', () => {
  it('ignores spacing and messages, and reports a loosened assert as dropped', () => {
    const before = ['assert len(v) == 20, "twenty"', 'assert v[0] == 2'];
    expect(droppedAsserts(before, ['assert len(v)==20, "20 numbers"', 'assert v[0] == 2'])).toEqual([]);
    expect(droppedAsserts(before, ['assert len(v) >= 1', 'assert v[0] == 2'])).toEqual(['assert len(v) == 20, "twenty"']);
  });
});

describe('parseReview', () => {
  it('reads OK, a DEFECT line (also in markdown), and treats rambling as OK', () => {
    expect(parseReview('OK')).toEqual({ ok: true });
    expect(parseReview('**DEFECT:** prints 8 numbers, expected 20')).toEqual({ ok: false, defect: 'prints 8 numbers, expected 20' });
    expect(parseReview('Looks mostly fine to me, nice code.')).toEqual({ ok: true });
  });
});

describe('unfixableFailure', () => {
  const missing = failed("Traceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'");
  it('a file the request names and nobody attached', () => {
    expect(unfixableFailure(missing, context('sum sales.csv by region'))?.kind).toBe('missing_file');
    expect(unfixableFailure(missing, { ...context('sum sales.csv'), inputFiles: ['sales.csv'] })).toBeUndefined();
    expect(unfixableFailure(missing, context('sum the sales file'))).toBeUndefined(); // not named: maybe the program's own bug
    expect(unfixableFailure(missing, context('write sales.csv with 3 rows, then read it back'))).toBeUndefined();
  });

  it('network modules and network errors, but not other missing modules the first time', () => {
    expect(unfixableFailure(failed("ModuleNotFoundError: No module named 'requests'"), context('x'))?.kind).toBe('missing_module');
    expect(unfixableFailure(failed("ModuleNotFoundError: No module named 'seaborn'"), context('x'))).toBeUndefined();
    expect(unfixableFailure(failed("ModuleNotFoundError: No module named 'seaborn.x'"), { ...context('x'), missingBefore: ['seaborn'] })?.kind).toBe('missing_module');
    expect(unfixableFailure(failed('socket.gaierror: [Errno -3] Temporary failure in name resolution'), context('x'))?.kind).toBe('network');
  });
});

describe('requestNamesCode: a NameError is the program\'s only for a name the request gives as code', () => {
  it('takes a call, backticks, def/function/class, "function called", "the x function" and identifier-shaped names as code; an English word not', () => {
    for (const request of ['write factorial(n)', 'write `factorial`', 'def factorial(n): ...', 'a function called factorial', 'write a function factorial', 'write the factorial function', 'implement class Factorial']) {
      expect(requestNamesCode(/Factorial/.test(request) ? 'Factorial' : 'factorial', request), request).toBe(true);
    }
    expect(requestNamesCode('add_numbers', 'add two numbers with add_numbers')).toBe(true);
    expect(requestNamesCode('isPrime', 'print whether 7 isPrime')).toBe(true);
    expect(requestNamesCode('factorial', 'compute the factorial of 12')).toBe(false);
    expect(requestNamesCode('quicksort', 'implement quicksort and sort a sample list')).toBe(false);
    expect(requestNamesCode('primes', 'print the primes below 20')).toBe(false);
    expect(requestNamesCode('helper', 'print the primes below 20')).toBe(false);
  });

  it('makes a NameError for a word of the request a broken check, and for a named function the program\'s failure', () => {
    const result = { check: 'assert factorial(12) == 479001600, "12!"', passed: false, detail: "NameError: name 'factorial' is not defined" };
    expect(brokenCheck({ results: [result] }, 'compute the factorial of 12')).toContain('uses factorial, which neither the request nor the program defines');
    expect(brokenCheck({ results: [result] }, 'write a function factorial(n) and print factorial(12)')).toBeUndefined();
  });
});

describe('brokenCheck: a setup line that raised before any assert', () => {
  it('is broken when it parses OUTPUT, the program\'s failure when it calls the program', () => {
    const parse = { check: 'values = [int(v) for v in OUTPUT.split()]', passed: false, detail: "ValueError: invalid literal for int() with base 10: 'Mean:'" };
    expect(brokenCheck({ results: [parse] }, 'print the mean')).toBe(
      "`values = [int(v) for v in OUTPUT.split()]` raised ValueError: invalid literal for int() with base 10: 'Mean:' before any assert ran",
    );
    const call = { check: 'total = add_numbers(2, 3)', passed: false, detail: 'TypeError: add_numbers() takes 1 positional argument but 2 were given' };
    expect(brokenCheck({ results: [call] }, 'write add_numbers(a, b)')).toBeUndefined();
    // after an assert ran, a failing setup line is not "before any assert"
    expect(brokenCheck({ results: [{ check: 'assert OUTPUT, "output"', passed: true }, parse] }, 'print the mean')).toBeUndefined();
  });
});
