/** What the profile knows about the names in an error (the profile as the real profiler shapes it). */
import { describe, expect, it } from 'vitest';
import { nameFacts, nearestName, pyName } from '../../src/data/name-facts.js';
import type { InputProfile } from '../../src/data/profile.js';

const profile: InputProfile = {
  files: [
    {
      name: 'sales.csv',
      summary: 'CSV',
      text: '…',
      fields: [
        { name: 'Date', type: 'date', example: '2024-03-01' },
        { name: 'region', type: 'str', example: 'North' },
        { name: 'units', type: 'int', example: '3' },
        { name: 'signup', type: 'str', example: '2024-03-01T09:00:00+01:00', note: "date-times with different UTC offsets: pandas.to_datetime(df['signup'], utc=True) gives each as a UTC time" },
      ],
    },
    { name: 'book.xlsx', summary: 'Excel', text: '…', sheets: ['Sales 2024', 'Notes'] },
    { name: 'raw.csv', summary: 'CSV', text: '…', headerless: true, fields: [{ name: 0, type: 'int' }, { name: 1, type: 'float' }] },
  ],
};
const CODE = "pd.read_csv('sales.csv')";

describe('nameFacts', () => {
  it('a .dt on dates written as text: the call that parses them; a note with its own call wins', () => {
    expect(nameFacts(profile, { names: ['Date'], accessor: 'dt' }, CODE)).toContain(
      "column 'Date' of sales.csv holds dates written as text (e.g. '2024-03-01'): pandas reads it as text, so .dt fails until you parse it first: df['Date'] = pandas.to_datetime(df['Date'])",
    );
    expect(nameFacts(profile, { names: ['signup'], accessor: 'dt' }, CODE)).toContain("pandas.to_datetime(df['signup'], utc=True)");
    expect(nameFacts(profile, { names: ['units'], accessor: 'dt' }, CODE)).toContain("holds numbers (e.g. '3'), not dates");
    expect(nameFacts(profile, { names: ['units'], accessor: 'str' }, CODE)).toContain(".str does not apply; use df['units'].astype(str)");
  });

  it('a name that is no column: the columns there are and the nearest', () => {
    const facts = nameFacts(profile, { names: ['date'] }, CODE)!;
    expect(facts).toContain("'date' is not a column of the input files; sales.csv has the columns 'Date' (date, e.g. '2024-03-01'), 'region' (str, e.g. 'North')");
    expect(facts).toContain("the nearest to 'date' is 'Date'");
    expect(nameFacts(profile, { names: [19] }, CODE)).toContain('19 is no column name');
  });

  it('a column that exists: it was lost on the way (index, merge suffix)', () => {
    expect(nameFacts(profile, { names: ['region'] }, CODE)).toContain("'region' is a column of sales.csv");
  });

  it('a headerless table is looked up by position', () => {
    expect(nameFacts(profile, { names: [1] }, "pd.read_csv('raw.csv', header=None)")).toContain('1 is a column of raw.csv, 1 (float)');
  });

  it('a sheet not found: the sheet names and the nearest', () => {
    expect(nameFacts(profile, { names: [], sheet: 'sales 2024' }, "pd.read_excel('book.xlsx', sheet_name='sales 2024')")).toBe(
      "What the input files hold under the names in this error:\n- book.xlsx has the sheets 'Sales 2024', 'Notes'; the nearest to 'sales 2024' is 'Sales 2024'",
    );
  });

  it('nothing to say: no profile, no names, or names of nothing profiled', () => {
    expect(nameFacts(undefined, { names: ['x'] }, '')).toBeUndefined();
    expect(nameFacts(profile, { names: [] }, CODE)).toBeUndefined();
    expect(nameFacts({ files: [{ name: 'a.txt', summary: '', text: '' }] }, { names: ['x'] }, '')).toBeUndefined();
  });
});

describe('nearestName and pyName', () => {
  it('case and punctuation first, then a small edit distance', () => {
    expect(nearestName('order_date', ['Order Date', 'order_id'])).toBe('Order Date');
    expect(nearestName('regoin', ['region', 'units'])).toBe('region');
    expect(nearestName('price', ['units', 'region'])).toBeUndefined();
  });
  it('quotes like Python', () => {
    expect(pyName("it's")).toBe("'it\\'s'");
    expect(pyName(3)).toBe('3');
  });
});
