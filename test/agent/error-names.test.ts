/** The names a failed program's error is about, read from real pandas/openpyxl/xlrd messages. */
import { describe, expect, it } from 'vitest';
import { accessorColumns, errorNames, failingLine } from '../../src/data/error-names.js';

const tb = (line: string, source = 'x = 1') => `Traceback (most recent call last):\n  File "main.py", line 3, in <module>\n    ${source}\n  File "/usr/lib/python3/dist-packages/pandas/core/frame.py", line 9, in f\n    raise E\n${line}\n`;

describe('errorNames', () => {
  it.each([
    ["KeyError: 'regoin'", ['regoin']],
    ['KeyError: 19', [19]],
    [`KeyError: "['regoin', 'units'] not in index"`, ['regoin', 'units']],
    [`KeyError: "None of [Index(['Region'], dtype='object')] are in the [columns]"`, ['Region']],
    ["ValueError: Missing column provided to 'parse_dates': 'date'", ['date']],
    ["ValueError: Missing column provided to 'parse_dates': 'date, time'", ['date', 'time']],
    ["ValueError: Usecols do not match columns, columns expected but not found: ['amount']", ['amount']],
    ["AttributeError: 'DataFrame' object has no attribute 'Region'", ['Region']],
    ['ZeroDivisionError: division by zero', []],
  ])('%s → %j', (line, names) => {
    expect(errorNames(tb(line), '').names).toEqual(names);
  });

  it('a .dt accessor error names the columns of the failing line, else of the code', () => {
    const line = 'AttributeError: Can only use .dt accessor with datetimelike values';
    expect(errorNames(tb(line, "w = df['date'].dt.isocalendar().week"), "df['other'].dt.year")).toEqual({ names: ['date'], accessor: 'dt' });
    expect(errorNames(tb(line, 'print(f(df))'), 'def f(d):\n    return d["day"].dt.month\n')).toEqual({ names: ['day'], accessor: 'dt' });
    expect(errorNames(tb('AttributeError: Can only use .str accessor with string values!', 'df.code.str.upper()'), '')).toEqual({ names: ['code'], accessor: 'str' });
  });

  it.each([
    ["ValueError: Worksheet named 'sales' not found", 'sales'],
    ["KeyError: 'Worksheet Sales2 does not exist.'", 'Sales2'],
    ["xlrd.biffh.XLRDError: No sheet named <'Q1'>", 'Q1'],
  ])('%s names the sheet', (line, sheet) => {
    expect(errorNames(tb(line), '').sheet).toBe(sheet);
  });
});

describe('failingLine and accessorColumns', () => {
  it("the program's own last frame, not the library's", () => {
    expect(failingLine(tb('KeyError: 1', "print(df['a'])"))).toBe("print(df['a'])");
    expect(failingLine('ValueError: no traceback')).toBeUndefined();
  });
  it('finds subscripted and attribute columns, not a Series held in a variable', () => {
    expect(accessorColumns(`a = df['x'].dt.day + df["y y"].dt.day + df.z.dt.day + s.dt.day`, 'dt')).toEqual(['x', 'y y', 'z']);
  });
});
