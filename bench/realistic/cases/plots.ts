/**
 * Plot requests: the PNG must exist and its pixels must show the right thing (bars counted and
 * measured, a curve traced; see `../png.ts`), or the plotted numbers, saved to a CSV as asked, must
 * be right. Expected values computed with /usr/bin/python3 from `../inputs.ts`.
 */
import { MONTHLY_CLIMATE_CSV, SALES_CSV, SCORES_CSV, TICKETS_CSV } from '../inputs.js';
import { artifactNamed, numericColumn, numericColumns, readCsv, type Csv } from '../files.js';
import { barsShow, lookAtPlot } from '../plot-checks.js';
import { sameNumbers } from '../parse.js';
import { all, bad, file, ok, type RealisticRequest, type Verdict } from '../types.js';
import type { CheckInput } from '../types.js';

/** A CSV the request asked for, parsed, or why it cannot be read. */
function csvOf(output: CheckInput, name: string): { csv: Csv } | { verdict: Verdict } {
  const csv = artifactNamed(output.artifacts, name);
  if (!csv) return { verdict: bad(`no ${name} among the returned files`) };
  return { csv: readCsv(csv) };
}

/** The parabola's lowest point is in the middle, both ends high and level with each other. */
function isParabola(rows: (number | null)[]): Verdict {
  const ys = rows.map((y, i) => [i, y] as const).filter((p): p is readonly [number, number] => p[1] !== null);
  if (ys.length < 15) return bad('no red curve across the plot');
  const lowest = ys.reduce((a, b) => (b[1] > a[1] ? b : a)); // rows grow downwards
  const top = Math.min(...ys.map((p) => p[1]));
  const span = lowest[1] - top;
  const left = rows[0] ?? NaN;
  const right = rows[20] ?? NaN;
  if (span < 50) return bad(`the red curve is nearly flat (${span.toFixed(0)} px high)`);
  if (lowest[0] < 8 || lowest[0] > 12) return bad(`the lowest point is at ${lowest[0] * 5}% of the width, not in the middle`);
  if (!(lowest[1] - left > 0.8 * span && lowest[1] - right > 0.8 * span)) return bad('the ends of the curve are not high');
  if (Math.abs(left - right) > 0.1 * span) return bad('the curve is not symmetric');
  return ok('a red parabola with its vertex in the middle');
}

/** The plot requests, in a fixed order. */
export const PLOT_REQUESTS: RealisticRequest[] = [
  {
    id: 'revenue-bar-chart',
    kind: 'plot',
    requirement:
      'Can you make a bar chart of total revenue (units x unit_price) per region from sales.csv? Biggest bar first please, and save it as revenue.png.',
    inputFiles: [file('sales.csv', SALES_CSV)],
    // revenue East 3107.56, West 2126.26, North 1886.93, South 1183.53: four bars in that order.
    check: async (output, ctx) => {
      const look = await lookAtPlot(output, ctx, 'revenue.png');
      if ('verdict' in look) return look.verdict;
      return barsShow(look.facts, { values: [3107.56, 2126.26, 1886.93, 1183.53], ordered: true });
    },
  },
  {
    id: 'ticket-status-bars',
    kind: 'plot',
    requirement:
      'From tickets.csv, plot how many tickets there are in each status (open / closed / pending) as a bar chart, each bar in a different colour. Save it as status.png.',
    inputFiles: [file('tickets.csv', TICKETS_CSV)],
    // closed 37, open 13, pending 5 (any order); colours must differ.
    check: async (output, ctx) => {
      const look = await lookAtPlot(output, ctx, 'status.png');
      if ('verdict' in look) return look.verdict;
      return barsShow(look.facts, { values: [37, 13, 5], ordered: false, distinctColours: true });
    },
  },
  {
    id: 'parabola-red',
    kind: 'plot',
    requirement: 'plot y = x^2 for x from -5 to 5 as a red line and save it as parabola.png',
    check: async (output, ctx) => {
      const look = await lookAtPlot(output, ctx, 'parabola.png');
      if ('verdict' in look) return look.verdict;
      return isParabola(look.facts.redCurve);
    },
  },
  {
    id: 'sin-cos-with-data',
    kind: 'plot',
    requirement:
      'Plot sin(x) and cos(x) for x from 0 to 2π on one chart with a legend. Also save the numbers you plotted to waves.csv with columns x, sin, cos.',
    // every row of waves.csv: sin and cos of its x (x in radians) within 1e-3; x spans 0..2π; ≥ 20 rows.
    check: async (output, ctx) => {
      const look = await lookAtPlot(output, ctx);
      if ('verdict' in look) return look.verdict;
      const got = csvOf(output, 'waves.csv');
      if ('verdict' in got) return got.verdict;
      const col = (re: RegExp) => got.csv.header.findIndex((h) => re.test(h));
      const [xi, si, ci] = [col(/^x$/i), col(/sin/i), col(/cos/i)];
      if (xi < 0 || si < 0 || ci < 0) return bad(`waves.csv columns are ${got.csv.header.join(', ')}`);
      const [x, s, c] = [numericColumn(got.csv, xi), numericColumn(got.csv, si), numericColumn(got.csv, ci)];
      if (x.length < 20) return bad(`waves.csv has ${x.length} rows`);
      if (Math.abs(Math.min(...x)) > 0.01 || Math.abs(Math.max(...x) - 2 * Math.PI) > 0.01) {
        return bad(`x runs from ${Math.min(...x)} to ${Math.max(...x)}, not 0 to 2π`);
      }
      const off = x.findIndex((v, i) => !(Math.abs(Math.sin(v) - s[i]!) < 1e-3 && Math.abs(Math.cos(v) - c[i]!) < 1e-3));
      return off >= 0 ? bad(`row ${off + 1}: x=${x[off]} sin=${s[off]} cos=${c[off]}`) : ok(`${x.length} rows of sin and cos`);
    },
  },
  {
    id: 'score-histogram',
    kind: 'plot',
    requirement:
      'Make a histogram of the exam scores in scores.csv with bins 0-10, 10-20, ..., 90-100. Also write the count in each bin to hist.csv so I can paste it into a report.',
    inputFiles: [file('scores.csv', SCORES_CSV)],
    // floor(score/10) over the 60 scores (none on a multiple of 10): 0 0 1 0 4 15 15 12 7 6.
    // numpy's automatic 10 bins over 23..98 give 1 0 2 3 14 7 19 7 1 6 instead.
    check: async (output, ctx) => {
      const look = await lookAtPlot(output, ctx);
      if ('verdict' in look) return look.verdict;
      const got = csvOf(output, 'hist.csv');
      if ('verdict' in got) return got.verdict;
      const expected = [0, 0, 1, 0, 4, 15, 15, 12, 7, 6];
      const match = numericColumns(got.csv).some((i) => sameNumbers(numericColumn(got.csv, i), expected));
      return match ? ok('hist.csv has the 10 bin counts') : bad(`no column of hist.csv is ${expected.join(' ')}`);
    },
  },
  {
    id: 'climate-line-calendar-order',
    kind: 'plot',
    requirement:
      'climate.csv has the average temperature per month but the rows are in alphabetical order. Draw a line chart of temperature by month in normal calendar order (Jan to Dec) and also save the data you plotted, in plotted order, as plotted.csv.',
    inputFiles: [file('climate.csv', MONTHLY_CLIMATE_CSV)],
    // calendar order: Jan 1.2, Feb 2.5, Mar 6.1, Apr 10.4, May 14.8, Jun 18.3, Jul 20.9, Aug 20.1,
    // Sep 16.2, Oct 11.0, Nov 5.9, Dec 2.3 (the file's own values, reordered).
    check: async (output, ctx) => {
      const look = await lookAtPlot(output, ctx);
      if ('verdict' in look) return look.verdict;
      const got = csvOf(output, 'plotted.csv');
      if ('verdict' in got) return got.verdict;
      const expected = [1.2, 2.5, 6.1, 10.4, 14.8, 18.3, 20.9, 20.1, 16.2, 11.0, 5.9, 2.3];
      const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
      const names = got.csv.rows.map((r) => r.find((c) => /^[a-z]{3}/i.test(c))?.slice(0, 3).toLowerCase());
      const values = numericColumns(got.csv).some((i) => sameNumbers(numericColumn(got.csv, i), expected, 1e-6));
      return all(
        names.join(' ') === months.join(' ') ? ok('months Jan..Dec') : bad(`plotted.csv months: ${names.join(' ')}`),
        values ? ok('temperatures in calendar order') : bad('no column of plotted.csv has the temperatures in calendar order'),
      );
    },
  },
];
