/**
 * The table of stated methods: for each convention, a request stating it, a program that ignores
 * it (a message naming the convention and the call) and one that follows it (no message). The
 * programs' calls are read by Python's `ast` in the real sandbox.
 */
import { describe, expect, it } from 'vitest';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { readCalls } from '../../src/agent/requirements/methods/calls.js';
import { methodsSection, statedMethods, unmetMethods } from '../../src/agent/requirements/methods/stated.js';
import { functionsWithDefaults } from '../../src/agent/requirements/methods/defaults.js';

const executor = new BubblewrapExecutor({ limits: { wallTimeS: 10 } });

async function unmet(request: string, code: string): Promise<string[]> {
  const program = await readCalls(executor, code);
  if (!program) throw new Error('the calls could not be read');
  return unmetMethods(statedMethods(request), program);
}

const HEAD = "import pandas as pd\nimport numpy as np\nfrom scipy import stats\nimport statistics\ndf = pd.read_csv('m.csv')\n";

/** [convention, request, program that ignores it, what the message must say, program that follows it] */
const CASES: [string, string, string, RegExp, string][] = [
  ['population std', 'the population standard deviation of x, 4 decimals', "print(round(df['x'].std(), 4))", /^population standard deviation asked; `df\['x'\]\.std\(\)` uses ddof=1 \(its default\)$/, "print(round(df['x'].std(ddof=0), 4))"],
  ['population std (numpy)', 'population std of x', "print(df['x'].to_numpy().std(ddof=1))", /population standard deviation asked; `df\['x'\]\.to_numpy\(\)\.std\(ddof=1\)` uses ddof=1$/, "print(np.std(df['x']))"],
  ['sample variance', 'the sample variance (ddof=1) of y', "print(np.var(df['y']))", /^sample variance asked; `np\.var\(df\['y'\]\)` uses ddof=0 \(its default\)$/, "print(df['y'].var())"],
  ['sample std (statistics)', 'sample standard deviation of y', 'print(statistics.pstdev(df.y))', /`statistics\.pstdev\(df\.y\)` uses ddof=0/, 'print(statistics.stdev(df.y))'],
  ['biased skewness', 'skewness of x, the biased estimator', "print(df['x'].skew())", /^biased skewness asked; `df\['x'\]\.skew\(\)` is pandas' bias-corrected estimator$/, "print(stats.skew(df['x']))"],
  ['unbiased kurtosis', 'the unbiased (bias-corrected) excess kurtosis of price', 'print(stats.kurtosis(df.price))', /unbiased \(bias-corrected\) kurtosis asked; `stats\.kurtosis\(df\.price\)` is biased/, 'print(stats.kurtosis(df.price, bias=False))'],
  ["Pearson's kurtosis", "Pearson's kurtosis of y (not excess), biased", 'print(stats.kurtosis(df.y))', /Pearson's kurtosis .* asked; `stats\.kurtosis\(df\.y\)` gives the excess kurtosis/, 'print(stats.kurtosis(df.y, fisher=False))'],
  ['Spearman', 'Spearman correlation between x and y', "print(df['x'].corr(df['y']))", /^Spearman correlation asked; `df\['x'\]\.corr\(df\['y'\]\)` computes Pearson's$/, "print(df['x'].corr(df['y'], method='spearman'))"],
  ['Kendall', "Kendall's tau between x and score", 'print(stats.pearsonr(df.x, df.score)[0])', /Kendall correlation asked; `stats\.pearsonr\(df\.x, df\.score\)` computes Pearson's/, 'print(stats.kendalltau(df.x, df.score)[0])'],
  ['quantile interpolation', "the 0.35 quantile of x using 'lower' interpolation", 'print(df.x.quantile(0.35))', /the 'lower' quantile interpolation asked; `df\.x\.quantile\(0\.35\)` uses 'linear' \(its default\)/, "print(df.x.quantile(0.35, interpolation='lower'))"],
  ['percentile (numpy)', 'the 90th percentile of price with nearest interpolation', 'print(np.percentile(df.price, 90))', /'nearest' .* `np\.percentile\(df\.price, 90\)` uses 'linear'/, "print(np.percentile(df.price, 90, method='nearest'))"],
  ['low median', 'the low median of x (statistics.median_low)', 'print(df.x.median())', /^the low median .* asked; `df\.x\.median\(\)` averages the two middle values of an even count$/, 'print(statistics.median_low(df.x))'],
  ['half-up rounding', 'round each weight to 1 decimal rounding halves up, then sum', 'print(sum(round(w, 1) for w in df.weight))', /^rounding halves up asked; `round\(w, 1\)` rounds halves to even/, "from decimal import Decimal, ROUND_HALF_UP\nprint(sum(float(Decimal(str(w)).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)) for w in df.weight))"],
  ['half-even rounding', "round with banker's rounding", "from decimal import Decimal, ROUND_HALF_UP\nprint(Decimal('2.5').quantize(Decimal('1'), rounding=ROUND_HALF_UP))", /rounding halves to even asked; `ROUND_HALF_UP` rounds halves up/, 'print(round(2.5))'],
  ['percentage', 'what percentage of rows have a score of at least 50? 2 decimals', 'print(round((df.score >= 50).mean(), 4))', /^a percentage \(0–100\) asked; the program never multiplies by 100, so `\(df\.score >= 50\)\.mean\(\)` is printed as a fraction$/, 'print(round((df.score >= 50).mean() * 100, 2))'],
  ['fraction', 'the share of rows in group A as a fraction between 0 and 1', "print((df.group == 'A').mean() * 100)", /^a fraction \(0–1\) asked; `\(df\.group == 'A'\)\.mean\(\) \* 100` makes it a percentage$/, "print((df.group == 'A').mean())"],
  ['exclusive range', 'count the rows with score strictly between 40 and 60 (exclusive)', 'print(df.score.between(40, 60).sum())', /a range that excludes its ends \(40 and 60\) asked; `df\.score\.between\(40, 60\)` includes both ends \(inclusive='both' is its default\)/, 'print(((df.score > 40) & (df.score < 60)).sum())'],
  ['inclusive range', 'how many scores between 40 and 60 inclusive?', 'print(((df.score > 40) & (df.score <= 60)).sum())', /a range that includes its ends \(40 and 60\) asked; `df\.score > 40` leaves out the bound/, 'print(df.score.between(40, 60).sum())'],
  ['days counting both ends', 'How many days is it from 15 January 2024 to 1 March 2024, counting both the first and the last day?', 'from datetime import date\nprint((date(2024, 3, 1) - date(2024, 1, 15)).days)', /^a count of days that includes the first and the last day asked; the program takes a difference's `\.days` .* never adds 1$/, 'from datetime import date\nd = (date(2024, 3, 1) - date(2024, 1, 15)).days\nd += 1\nprint(d)'],
  ['days counting both ends (date_range)', 'number of days between 2024-01-15 and 2024-03-01 inclusive', 'import datetime as dt\nprint((dt.date(2024, 3, 1) - dt.date(2024, 1, 15)).days)', /never adds 1/, "print(len(pd.date_range('2024-01-15', '2024-03-01')))"],
  ['library defaults', 'skewness of x using scipy.stats.skew with its defaults', 'print(df.x.skew())', /^`scipy\.stats\.skew` with its defaults asked; the program does not call it \(it uses `df\.x\.skew\(\)`\)$/, 'print(stats.skew(df.x))'],
  ['library defaults (override)', 'kurtosis of x with scipy.stats defaults', 'print(stats.kurtosis(df.x, bias=False))', /`scipy\.stats\.kurtosis` with its defaults asked; `stats\.kurtosis\(df\.x, bias=False\)` changes bias/, 'print(stats.kurtosis(df.x))'],
];

describe('stated methods: each convention of the table', () => {
  it.each(CASES)('%s: a program that ignores it is named with its call; one that follows it passes', async (_name, request, ignores, message, follows) => {
    expect(statedMethods(request).length).toBeGreaterThan(0);
    const bad = await unmet(request, HEAD + ignores);
    expect(bad.some((m) => message.test(m)), bad.join(' | ')).toBe(true);
    expect(await unmet(request, HEAD + follows)).toEqual([]);
  }, 30_000);
});

describe('recognising a stated method', () => {
  it('states nothing for a plain request, and nothing for a convention stated both ways', () => {
    expect(statedMethods('the average price per group, 2 decimals')).toEqual([]);
    expect(statedMethods('compare the population standard deviation and the sample standard deviation of x').filter((s) => s.convention === 'variance-ddof')).toEqual([]);
  });
  it('reads "divide by n, not n-1" as population, and a library with a statistic as its function', () => {
    expect(statedMethods('the population variance of y (divide by n, not n-1)').map((s) => s.variant)).toEqual(['population']);
    expect(functionsWithDefaults('skewness and kurtosis with scipy.stats defaults')).toEqual(['scipy.stats.skew', 'scipy.stats.kurtosis']);
    expect(functionsWithDefaults('standard deviation of score computed with numpy.std with its defaults')).toEqual(['numpy.std']);
  });
  it("the prompt says each as a requirement, with the call that follows it", () => {
    const section = methodsSection(statedMethods('population standard deviation of x, and the Spearman correlation of x and y'));
    expect(section).toMatch(/^The request states how to compute; these are requirements, follow each exactly:\n- Population standard deviation .*pass ddof=0/);
    expect(section).toMatch(/\n- Spearman correlation: \.corr\(other, method='spearman'\)/);
  });
});
