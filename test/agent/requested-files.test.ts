/** Which files a request asks the program to write, and which of them an attempt did not write. */
import { describe, expect, it } from 'vitest';
import { missingChart, missingOutputs, requestedOutputs } from '../../src/agent/requirements/requested-files.js';
import type { Attempt } from '../../src/history/types.js';

describe('requestedOutputs', () => {
  it('finds the files a request asks to write, in the words people use', () => {
    expect(requestedOutputs('Can you turn orders.json into a flat CSV called order_lines.csv? One row per order line.', ['orders.json'])).toEqual(['order_lines.csv']);
    expect(requestedOutputs('From umsatz.csv (German format) please write monthly_totals.csv with the month name', ['umsatz.csv'])).toEqual(['monthly_totals.csv']);
    expect(requestedOutputs('plot the sales and save it as chart.png, then export the table to summary.xlsx', [])).toEqual(['chart.png', 'summary.xlsx']);
  });

  it('leaves out files the request only reads, input files, and names in another sentence', () => {
    expect(requestedOutputs('What is the total of amount in sales.csv?', ['sales.csv'])).toEqual([]);
    expect(requestedOutputs('Read data.csv and plot the second column', [])).toEqual([]);
    // an input file named after a writing word is still an input
    expect(requestedOutputs('create a chart from report.csv', ['report.csv'])).toEqual([]);
    expect(requestedOutputs('We saved it yesterday. Count the rows of old.csv', [])).toEqual([]);
  });
});

describe('missingOutputs', () => {
  const attempt = (names: string[], success = true): Attempt =>
    ({
      index: 1,
      trigger: 'initial',
      code: 'x',
      result: { success, stdout: 'done\n', stderr: '', exitCode: success ? 0 : 1, signal: null, timedOut: false, limitHit: null, durationMs: 1, artifacts: names.map((name) => ({ name, path: `/tmp/${name}`, bytes: 1 })) },
    }) as Attempt;
  const run = { inputProfile: { files: [{ name: 'orders.json', summary: '', text: '' }] } };
  const request = 'turn orders.json into a flat CSV called order_lines.csv';

  it('names the requested files an attempt that ran did not write (by base name, any case)', () => {
    expect(missingOutputs(attempt(['figure-1.png']), run, request)).toEqual(['order_lines.csv']);
    expect(missingOutputs(attempt(['out/Order_Lines.csv']), run, request)).toEqual([]);
    expect(missingOutputs(attempt([], false), run, request)).toEqual([]); // a crash is judged as a crash
  });

  it('a chart the request asks for and the program did not draw is missing; a request that asks for none needs none', () => {
    const plot = 'plot the monthly totals of sales.csv as a bar chart';
    expect(missingChart(attempt([]), plot)).toBe(true);
    expect(missingChart(attempt(['data.csv']), plot)).toBe(true);
    expect(missingChart(attempt(['figure_1.png']), plot)).toBe(false);
    expect(missingChart(attempt(['chart.html']), 'visualize the signups per week')).toBe(false); // plotly writes HTML
    expect(missingChart(attempt([]), 'show a histogram of the ages')).toBe(true);
    expect(missingChart(attempt([], false), plot)).toBe(false); // a crash is judged as a crash
    for (const words of ['figure out the total of amount', 'the shortest path in this graph', 'draw 5 random cards', 'an image count per folder']) {
      expect(missingChart(attempt([]), words)).toBe(false);
    }
  });
});
