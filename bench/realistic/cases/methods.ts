/**
 * The `methods` requests: precise statistical questions over one seeded table (measures.csv,
 * `../gen/measures.ts`), each stating its method (population or sample, biased or unbiased,
 * Pearson, Spearman or Kendall, an interpolation, a median of an even count, a rounding rule, a
 * percentage or a fraction, an inclusive or exclusive range, a library function with its defaults)
 * and the answer's form. The checker computes the stated method with pandas, NumPy and SciPy in the
 * sandbox and rejects the value of the usual default (`../method-check.ts`).
 */
import { methodRequest, type MethodRequest } from '../method-check.js';

/** The methods requests, in a fixed order. */
export const METHOD_REQUESTS: MethodRequest[] = [
  methodRequest("pop-std-x", "measures.csv: what is the population standard deviation (ddof=0) of column x? Print one number, 4 decimal places.", 4, "[df.x.std(ddof=0)]", "[df.x.std()]"),
  methodRequest("sample-std-x", "measures.csv: the sample standard deviation (n-1 in the denominator) of column x. One number, 4 decimals.", 4, "[df.x.std(ddof=1)]", "[df.x.std(ddof=0)]"),
  methodRequest("pop-var-y", "From measures.csv, give the population variance of y (divide by n, not n-1). Print just the number with 3 decimals.", 3, "[df.y.var(ddof=0)]", "[df.y.var()]"),
  methodRequest("sample-var-price", "measures.csv: sample variance of price (ddof=1). One number rounded to 3 decimals.", 3, "[df.price.var(ddof=1)]", "[df.price.var(ddof=0)]"),
  methodRequest("pop-std-per-group", "measures.csv: population standard deviation (ddof=0) of price for each group. One line per group (A, B, C) with the group and the value, 3 decimals.", 3, "list(df.groupby('group').price.std(ddof=0).sort_index())", "list(df.groupby('group').price.std().sort_index())"),
  methodRequest("numpy-std-score", "measures.csv: standard deviation of score computed with numpy.std with its defaults. Print one number, 4 decimals.", 4, "[np.std(df.score.to_numpy())]", "[df.score.std()]"),
  methodRequest("scipy-skew-x", "measures.csv: skewness of x using scipy.stats.skew with its defaults (the biased estimator). One number, 4 decimals.", 4, "[stats.skew(df.x)]", "[df.x.skew()]"),
  methodRequest("scipy-kurtosis-x", "measures.csv: kurtosis of x with scipy.stats.kurtosis defaults (Fisher's excess kurtosis, biased). One number, 4 decimals.", 4, "[stats.kurtosis(df.x)]", "[df.x.kurt()]"),
  methodRequest("unbiased-skew-y", "measures.csv: the unbiased (bias-corrected) sample skewness of y. Print one number with 4 decimals.", 4, "[df.y.skew()]", "[stats.skew(df.y)]"),
  methodRequest("pearson-kurtosis-y", "measures.csv: Pearson's kurtosis of y (not excess: a normal distribution gives 3), biased estimator. One number, 4 decimals.", 4, "[stats.kurtosis(df.y, fisher=False)]", "[stats.kurtosis(df.y), df.y.kurt()]"),
  methodRequest("unbiased-kurt-price", "measures.csv: the unbiased (bias-corrected) excess kurtosis of price. One number, 4 decimals.", 4, "[df.price.kurt()]", "[stats.kurtosis(df.price)]"),
  methodRequest("biased-skew-per-group", "measures.csv: for each group (A, B, C), the biased skewness of price (scipy.stats.skew with its defaults). One line per group: group and value, 4 decimals.", 4, "list(df.groupby('group').price.apply(lambda s: stats.skew(s)).sort_index())", "list(df.groupby('group').price.skew().sort_index())"),
  methodRequest("spearman-x-y", "measures.csv: Spearman rank correlation between x and y. One number, 4 decimals.", 4, "[df.x.corr(df.y, method='spearman')]", "[df.x.corr(df.y)]"),
  methodRequest("kendall-x-score", "measures.csv: Kendall's tau correlation between x and score. One number, 4 decimals.", 4, "[df.x.corr(df.score, method='kendall')]", "[df.x.corr(df.score)]"),
  methodRequest("pearson-price-y", "measures.csv: Pearson correlation coefficient between price and y. One number, 4 decimals.", 4, "[df.price.corr(df.y)]", "[df.price.corr(df.y, method='spearman')]"),
  methodRequest("spearman-y-score", "measures.csv: Spearman correlation of y with score. Print only the coefficient, 4 decimals.", 4, "[df.y.corr(df.score, method='spearman')]", "[df.y.corr(df.score)]"),
  methodRequest("p90-linear-price", "measures.csv: the 90th percentile of price with linear interpolation. One number, 2 decimals.", 2, "[np.percentile(df.price, 90)]", "[np.percentile(df.price, 90, method='nearest'), np.percentile(df.price, 90, method='lower')]"),
  methodRequest("q35-lower-x", "measures.csv: the 0.35 quantile of x using 'lower' interpolation (take the lower data point, no averaging). One number, 2 decimals.", 2, "[df.x.quantile(0.35, interpolation='lower')]", "[df.x.quantile(0.35)]"),
  methodRequest("q75-higher-x", "measures.csv: 75th percentile of x with 'higher' interpolation. One number, 2 decimals.", 2, "[df.x.quantile(0.75, interpolation='higher')]", "[df.x.quantile(0.75)]"),
  methodRequest("q30-midpoint-y", "measures.csv: the 0.3 quantile of y with midpoint interpolation. One number, 3 decimals.", 3, "[df.y.quantile(0.3, interpolation='midpoint')]", "[df.y.quantile(0.3)]"),
  methodRequest("q10-nearest-price", "measures.csv: the 10th percentile of price using nearest interpolation. One number, 2 decimals.", 2, "[df.price.quantile(0.1, interpolation='nearest')]", "[df.price.quantile(0.1)]"),
  methodRequest("median-low-x", "measures.csv has an even number of rows. Give the low median of x (statistics.median_low: the lower of the two middle values, no averaging). One number.", 2, "[statistics.median_low(df.x)]", "[df.x.median()]"),
  methodRequest("median-high-y", "measures.csv: the high median of y (the higher of the two middle values, like statistics.median_high). One number.", 2, "[statistics.median_high(df.y)]", "[df.y.median()]"),
  methodRequest("median-even-price", "measures.csv: the median of price (an even count: the mean of the two middle values). One number, 3 decimals.", 3, "[df.price.median()]", "[statistics.median_low(df.price), statistics.median_high(df.price)]"),
  methodRequest("round-half-up-sum", "measures.csv: round every weight to 1 decimal place rounding halves up (12.25 -> 12.3, ROUND_HALF_UP), then print the sum of the rounded weights with 1 decimal.", 1, "[float(sum(Decimal(str(w)).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP) for w in df.weight))]", "[sum(round(w, 1) for w in df.weight)]"),
  methodRequest("round-half-even-sum", "measures.csv: round each weight to 1 decimal with banker's rounding (round half to even: 12.25 -> 12.2), then print the sum of the rounded weights, 1 decimal.", 1, "[sum(round(w, 1) for w in df.weight)]", "[float(sum(Decimal(str(w)).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP) for w in df.weight))]"),
  methodRequest("pct-score-50", "measures.csv: what percentage of rows have a score of at least 50? Answer as a percentage (0-100), 2 decimals.", 2, "[(df.score >= 50).mean() * 100]", "[(df.score >= 50).mean()]"),
  methodRequest("fraction-group-a", "measures.csv: the share of rows in group A as a fraction between 0 and 1 (not a percentage). 4 decimals.", 4, "[(df.group == 'A').mean()]", "[(df.group == 'A').mean() * 100]"),
  methodRequest("pct-price-above-20-b", "measures.csv: in group B, what percentage of rows have a price above 20? Print the percentage (0-100) with 2 decimals.", 2, "[(df[df.group=='B'].price > 20).mean() * 100]", "[(df[df.group=='B'].price > 20).mean()]"),
  methodRequest("count-inclusive-40-60", "measures.csv: how many rows have a score between 40 and 60 inclusive (both ends count)? One integer.", 0, "[int(df.score.between(40, 60).sum())]", "[int(((df.score > 40) & (df.score < 60)).sum())]"),
  methodRequest("count-exclusive-40-60", "measures.csv: count the rows with score strictly between 40 and 60 (exclusive: 40 and 60 themselves do not count). One integer.", 0, "[int(((df.score > 40) & (df.score < 60)).sum())]", "[int(df.score.between(40, 60).sum())]"),
  methodRequest("count-within-1-pop-std", "measures.csv: count the values of x within one population standard deviation (ddof=0) of the mean, bounds inclusive. Print one integer.", 0, "[int(((df.x - df.x.mean()).abs() <= df.x.std(ddof=0)).sum())]", "[int(((df.x - df.x.mean()).abs() <= df.x.std()).sum())]"),
  methodRequest("pct-beyond-2-sample-std", "measures.csv: the percentage of rows whose x is more than 1.5 sample standard deviations (ddof=1) away from the mean of x. Percentage 0-100, 2 decimals.", 2, "[((df.x - df.x.mean()).abs() > 1.5 * df.x.std(ddof=1)).mean() * 100]", "[((df.x - df.x.mean()).abs() > 1.5 * df.x.std(ddof=0)).mean() * 100]"),
  methodRequest("max-abs-z-pop", "measures.csv: compute z-scores of price using the population standard deviation (ddof=0); print the largest absolute z-score, 4 decimals.", 4, "[((df.price - df.price.mean()) / df.price.std(ddof=0)).abs().max()]", "[((df.price - df.price.mean()) / df.price.std()).abs().max()]"),
  methodRequest("cv-sample-pct", "measures.csv: the coefficient of variation of price (sample standard deviation with ddof=1, divided by the mean) as a percentage, 2 decimals.", 2, "[df.price.std(ddof=1) / df.price.mean() * 100]", "[df.price.std(ddof=0) / df.price.mean() * 100, df.price.std(ddof=1) / df.price.mean()]"),
];
