import { describe, expect, it } from 'vitest';
import { doctestAsserts } from '../../src/agent/verification/doctest-checks.js';
import { withoutCopiedFunctions, withRequestExamples } from '../../src/agent/verification/checks.js';

const STUB = `from typing import List


def rolling_max(numbers: List[int]) -> List[int]:
    """ From a given list of integers, generate a list of rolling maximum element.
    >>> rolling_max([1, 2, 3, 2, 3, 4, 2])
    [1, 2, 3, 3, 3, 4, 4]
    >>> rolling_max([])
    []
    """


Show it working on the docstring's examples.`;

describe("the request's doctest examples as checks", () => {
  it('turns each `>>>` call with a one-line literal result into an assert', () => {
    expect(doctestAsserts(STUB)).toEqual([
      'assert rolling_max([1, 2, 3, 2, 3, 4, 2]) == [1, 2, 3, 3, 3, 4, 4], "the request\'s example: rolling_max([1, 2, 3, 2, 3, 4, 2])"',
      'assert rolling_max([]) == [], "the request\'s example: rolling_max([])"',
    ]);
    const request = `def f(s, n=2):\n    """\n    >>> f('a"b', n=3)\n    ('x', -1.5e3, None)\n    >>> f("it's")\n    True\n    """`;
    expect(doctestAsserts(request)).toEqual([
      `assert f('a"b', n=3) == ('x', -1.5e3, None), "the request's example: f('a\\"b', n=3)"`,
      `assert f("it's") == True, "the request's example: f(\\"it's\\")"`,
    ]);
  });

  it('leaves out what it cannot read with certainty: no output, output on several lines, names, expressions, tracebacks', () => {
    const request = [
      '>>> x = setup()', // an assignment, no output
      '>>> f(1)', // output on two lines
      '[1,', ' 2]',
      '',
      '>>> f(2)', // a name as the result (not True/False/None)
      'Point(x=1)',
      '>>> f(3) + g(4)', // not a single call
      '7',
      '>>> f(5)',
      'Traceback (most recent call last):',
      '    ...',
      '>>> f(6)', // an unclosed bracket
      '[1, 2',
      '>>> __import__("os").system("id")', // a call on a call's result
      '0',
      '>>> f(7)', // a string left open
      "'abc",
    ].join('\n');
    expect(doctestAsserts(request)).toEqual([]);
    expect(doctestAsserts('sum the numbers 1 >>> 2 and print it')).toEqual([]);
  });

  it("puts the examples first, drops the model's asserts that repeat them, and fills in for \"no checks\"", () => {
    const model = { code: 'assert rolling_max([]) == [], "empty"\nassert rolling_max([5]) == [5], "one"', asserts: ['assert rolling_max([]) == [], "empty"', 'assert rolling_max([5]) == [5], "one"'] };
    const merged = withRequestExamples(model, STUB);
    expect(merged.asserts).toEqual([...doctestAsserts(STUB), 'assert rolling_max([5]) == [5], "one"']);
    expect(merged.code.split('\n')).toEqual([...doctestAsserts(STUB), 'assert rolling_max([5]) == [5], "one"']);
    expect(withRequestExamples({ code: '', asserts: [] }, STUB).asserts).toEqual(doctestAsserts(STUB));
    expect(withRequestExamples(model, 'print the squares of 1 to 5')).toBe(model);
  });

  it('drops a copy of the function under test from the checks, so that their asserts call the program', () => {
    const copied = [
      'from typing import List',
      'def rolling_max(numbers: List[int]) -> List[int]:',
      '    out = []',
      '',
      '    for n in numbers:',
      '        out.append(max(out[-1], n) if out else n)',
      '    return out',
      'def helper(x):',
      '    return x',
      'assert rolling_max([3, 1]) == [3, 3], "keeps the max"',
    ].join('\n');
    expect(withoutCopiedFunctions(copied, STUB).split('\n')).toEqual([
      'from typing import List',
      'def helper(x):',
      '    return x',
      'assert rolling_max([3, 1]) == [3, 3], "keeps the max"',
    ]);
    expect(withoutCopiedFunctions(copied, 'write rolling_max for me')).toBe(copied); // the request defines nothing
  });
});
