/** What counts as the same answer between two programs, and which failures are about the data. */
import { describe, expect, it } from 'vitest';
import { agreeEitherWay, answerAgrees, asksForOrder, partialAnswer, sameAnswer } from '../../src/agent/verification/agreement.js';
import { onlyMissingValues } from '../../src/text/answer-values.js';
import { dataFeedback, failedOnData } from '../../src/data/feedback.js';
import { checksBlock, trailingChecks } from '../../src/agent/verification/reply-checks.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';

describe('sameAnswer', () => {
  it('compares numbers at the precision of the less precise, with thousands separators and labels around them', () => {
    expect(sameAnswer('The mean is 3.14159', '3.14', 'mean')).toBe(true);
    expect(sameAnswer('Total: 1,204 orders', '1204', 'count the orders')).toBe(true);
    expect(sameAnswer('5', '5.0', 'x')).toBe(true);
    expect(sameAnswer('3.2', '3.14', 'x')).toBe(false);
    expect(sameAnswer('4xx requests: 512', '150', 'how many 4xx')).toBe(false);
    expect(sameAnswer('4xx requests: 150', '150', 'how many 4xx')).toBe(true);
  });

  it('compares words without case, the request\'s own words and filler', () => {
    expect(sameAnswer('The country that ordered the most items is NO', 'no', 'Which country ordered the most items?')).toBe(true);
    expect(sameAnswer('Country: SE', 'NO', 'Which country ordered the most items?')).toBe(false);
  });

  it('ignores order unless the request asks for one', () => {
    expect(sameAnswer('a: 1\nb: 2', '2\n1', 'print the counts per group')).toBe(true);
    expect(asksForOrder('print the top 3 products')).toBe(true);
    expect(asksForOrder('List the regions with their revenue, biggest first.')).toBe(true);
    expect(asksForOrder('List the regions with their revenue')).toBe(false);
    expect(sameAnswer('1\n2', '2\n1', 'print the counts sorted descending')).toBe(false);
    expect(sameAnswer('2\n1', '2\n1', 'print the counts sorted descending')).toBe(true);
  });

  it('B2: the same text is the same answer, even with no value to read in it; blank text proves nothing', () => {
    const ticks = '`'.repeat(1800);
    expect(sameAnswer(ticks, `${ticks}\n`, 'print backticks')).toBe(true);
    expect(sameAnswer(ticks, `${ticks}\``, 'print backticks')).toBe(false);
    expect(sameAnswer('  \n', '\n', 'x')).toBe(false);
  });

  it('takes every value of the reference, each once; an empty reference proves nothing', () => {
    expect(sameAnswer('7', '7\n7', 'x')).toBe(false);
    expect(sameAnswer('7', '', 'x')).toBe(false);
    expect(agreeEitherWay('150', '4xx: 150', 'how many 4xx')).toBe(true);
  });
});

const failed = (stderr: string): ExecutionResult => ({
  success: false, stdout: '', stderr, exitCode: 1, signal: null, timedOut: false, limitHit: null, durationMs: 1, artifacts: [],
});

describe('answerAgrees', () => {
  it('confirms an attempt only when it carries the independent values, not a part of them', () => {
    const first20 = '2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59 61 67 71';
    // the attempt printed the primes up to 20 (8 of them) where the first 20 were asked
    expect(answerAgrees('2\n3\n5\n7\n11\n13\n17\n19', first20, 'print the first 20 primes')).toBe(false);
    expect(answerAgrees(`The first 20 primes: ${first20}`, first20.split(' ').join('\n'), 'print the first 20 primes')).toBe(true);
    // one country's count where the independent program printed every country's
    expect(answerAgrees('DE 14', 'DE 14\nFR 9\nIT 1', 'items ordered per country')).toBe(false);
    expect(answerAgrees('DE: 14\nFR: 9\nIT: 1\nTotal: 24', 'DE 14\nFR 9\nIT 1', 'items ordered per country')).toBe(true);
    // a partial answer is a disagreement whichever side printed it
    expect(answerAgrees('DE 14\nFR 9\nIT 1', 'DE 14', 'items ordered per country')).toBe(false);
    expect(agreeEitherWay('DE 14', 'DE 14\nFR 9\nIT 1', 'items ordered per country')).toBe(false);
  });
  it('rejects a partial answer and says what it leaves out (its kind: partial)', () => {
    const first20 = '2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59 61 67 71';
    const below20 = '2\n3\n5\n7\n11\n13\n17\n19';
    // one line, as the issue writes it
    expect(sameAnswer('DE 14 FR 9 IT 1', 'DE 14', 'items ordered per country')).toBe(false);
    expect(partialAnswer('DE 14', 'DE 14 FR 9 IT 1', 'items ordered per country')).toEqual({ partial: 'a', leftOut: ['9', '1'] });
    expect(partialAnswer('DE: 14\nFR: 9\nIT: 1', 'DE: 14', 'items ordered per country')).toEqual({ partial: 'b', leftOut: ['9', '1'] });
    // the primes below 20 where the first 20 were asked, and the other way round
    expect(answerAgrees(first20, below20, 'print the first 20 primes')).toBe(false);
    expect(answerAgrees(first20, below20, 'print the primes below 20')).toBe(false);
    expect(agreeEitherWay(below20, `[${first20.split(' ').join(', ')}]`, 'print the primes below 20')).toBe(false);
    expect(partialAnswer(below20, first20, 'print the primes below 20')?.partial).toBe('a');
    // a list of names that leaves one out
    expect(agreeEitherWay('alice\nbob', 'alice\nbob\ncarol', 'who ordered twice')).toBe(false);
    // two values that differ are not a partial answer
    expect(partialAnswer('DE 14', 'DE 15', 'items ordered per country')).toBeUndefined();
  });
  it('still agrees when the extra values are labels, totals, counts or the request\'s numbers', () => {
    expect(sameAnswer('DE: 14\nFR: 9\nIT: 1\nTotal: 24', 'DE 14\nFR 9\nIT 1', 'items ordered per country')).toBe(true);
    expect(sameAnswer('3 countries\nDE: 14\nFR: 9\nIT: 1', 'DE 14\nFR 9\nIT 1', 'items ordered per country')).toBe(true);
    expect(sameAnswer('Average: 3.2 (from 500 rows)', '3.2', 'the average price')).toBe(true);
    expect(sameAnswer('Loaded 1000 rows\nMean: 3.2', '3.2', 'the mean price')).toBe(true);
    expect(sameAnswer('Top 3: 40, 30, 20', '40\n30\n20', 'the top 3 amounts')).toBe(true);
    expect(sameAnswer('The most common status is OK', 'OK', 'which status is most common')).toBe(true);
  });
  it('lets an attempt that printed no number be carried by an independent program that adds its figure', () => {
    expect(answerAgrees('NO', 'NO\n99', 'Which country ordered the most items?')).toBe(true);
    expect(answerAgrees('SE', 'NO\n99', 'Which country ordered the most items?')).toBe(false);
  });
});

describe('failedOnData', () => {
  it('knows the failures of a program that assumed the wrong structure', () => {
    for (const line of [
      "KeyError: 'country'",
      'TypeError: string indices must be integers, not \'str\'',
      'TypeError: list indices must be integers or slices, not str',
      'json.decoder.JSONDecodeError: Extra data: line 2 column 1 (char 10)',
      'pandas.errors.ParserError: Error tokenizing data. C error: Expected 3 fields in line 4, saw 5',
      "ValueError: could not convert string to float: 'price'",
      "ValueError: invalid literal for int() with base 10: 'qty'",
    ]) expect(failedOnData(failed(`Traceback (most recent call last):\n  File "main.py", line 1\n${line}\n`)), line).toBe(true);
    expect(failedOnData(failed('Traceback (most recent call last):\n  File "main.py", line 1\nZeroDivisionError: division by zero\n'))).toBe(false);
    expect(failedOnData({ ...failed(''), success: true, exitCode: 0, stdout: 'Empty DataFrame\nColumns: []\n' })).toBe(true);
    expect(failedOnData({ ...failed(''), success: true, exitCode: 0, stdout: '42\n' })).toBe(false);
  });
});

describe('checksBlock', () => {
  it('finds the ```checks block, closed or cut off, and nothing in python blocks', () => {
    expect(checksBlock('```python\nprint(1)\n```\n```checks\nassert OUTPUT == "1", "one"\n```\n')).toBe('assert OUTPUT == "1", "one"');
    expect(checksBlock('```python\nprint(1)\n```\n~~~checks\nassert True\n')).toBe('assert True');
    expect(checksBlock('```python\nassert x\n```')).toBeUndefined();
  });
});

describe('dataFeedback', () => {
  const profile = {
    files: [
      { name: 'sales.csv', summary: 'CSV', text: "CSV, delimiter ',', 3 data rows\ncolumns: 'Region' (str), 'Revenue' (int)\nread it with: df = pandas.read_csv('sales.csv')" },
      { name: 'other.json', summary: 'JSON', text: 'JSON, 10 bytes' },
    ],
  };
  it('says how to read the file the program read (not its whole profile, which the chat has), and that a missing key is not in it', () => {
    const text = dataFeedback(profile, failed("Traceback (most recent call last):\n  File \"main.py\", line 2\nKeyError: 'region'\n"), 'pd.read_csv("sales.csv")["region"]')!;
    expect(text).toContain("--- sales.csv: read it with: df = pandas.read_csv('sales.csv')");
    expect(text).not.toContain("columns: 'Region'");
    expect(text).not.toContain('other.json');
    expect(text).toContain('The key "region" does not appear in the profile');
    const found = dataFeedback(profile, failed("Traceback (most recent call last):\nKeyError: 'Region'\n"), 'pd.read_csv("sales.csv")')!;
    expect(found).not.toContain('does not appear');
  });
  it('says nothing for a failure that is not about the data, or without a profile', () => {
    expect(dataFeedback(profile, failed('Traceback (most recent call last):\nZeroDivisionError: division by zero\n'), 'x')).toBeUndefined();
    expect(dataFeedback(undefined, failed("Traceback (most recent call last):\nKeyError: 'a'\n"), 'x')).toBeUndefined();
  });
});

describe('trailingChecks', () => {
  it('takes asserts on OUTPUT written at the end of the program out of it', () => {
    const code = 'n = 3\nprint(n)\n\n# Checks\nimport re\nvalues = re.findall(r"\\d+", OUTPUT)\nassert len(values) == 1, "one number"';
    expect(trailingChecks(code)).toEqual({ code: 'n = 3\nprint(n)', checks: 'import re\nvalues = re.findall(r"\\d+", OUTPUT)\nassert len(values) == 1, "one number"' });
  });
  it('leaves a program that uses a name OUTPUT of its own alone', () => {
    const code = 'OUTPUT = "out.txt"\nwith open(OUTPUT, "w") as f:\n    f.write("x")';
    expect(trailingChecks(code)).toEqual({ code });
    expect(trailingChecks('print(1)')).toEqual({ code: 'print(1)' });
  });
});

describe('answers whose every value is missing (NaN)', () => {
  const perGroup = 'category\nGarden     NaN\nKitchen    NaN\n0          NaN\nName: revenue, dtype: float64';

  it.each([
    ['a pandas Series of NaN with its header and dtype line', perGroup],
    ['a labelled NaN', 'Total revenue: nan'],
    ['NaT and <NA>', 'first order: NaT\nlast order: <NA>'],
    ['a money sign before nan', 'Garden: $nan\nKitchen: $nan'],
  ])('%s prints no value', (_what, output) => {
    expect(onlyMissingValues(output)).toBe(true);
  });

  it.each([
    ['a value beside a NaN', 'mean: 3.2\nstd: nan'],
    ['a table row whose last value is a number', '   units  price\n0    NaN    3.0'],
    ['no NaN at all', 'Garden 21.0'],
    ['a word that holds "nan" (finance, Nancy)', 'finance team: Nancy'],
    ['nothing', ''],
  ])('%s is not all missing', (_what, output) => {
    expect(onlyMissingValues(output)).toBe(false);
  });

  it('two programs that printed the same NaNs do not agree, whichever is the reference; one that printed values still compares', () => {
    expect(sameAnswer(perGroup, perGroup, 'total revenue per category')).toBe(false);
    expect(answerAgrees(perGroup, perGroup, 'total revenue per category')).toBe(false);
    expect(agreeEitherWay('Total revenue: nan', 'nan', 'total revenue')).toBe(false);
    expect(answerAgrees('Total revenue: nan', 'Total revenue: nan', 'total revenue')).toBe(false);
    expect(sameAnswer('Garden 21.0\nKitchen 10.0', 'Garden 21\nKitchen 10', 'total revenue per category')).toBe(true);
  });
});
