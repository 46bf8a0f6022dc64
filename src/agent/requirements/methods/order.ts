/**
 * Conventions of order statistics and association (`table.ts`): quantile interpolation (pandas'
 * and NumPy's default is `linear`; `statistics.quantiles`' is `exclusive`), the median of an even
 * count (the mean of the two middle values, or `median_low`/`median_high`), and Pearson, Spearman
 * or Kendall correlation (`.corr()` and `numpy.corrcoef` are Pearson's).
 */
import type { CallFact } from './calls.js';
import { literal, onlyOne, quote, type Convention, type StatedMethod } from './table.js';

const INTERPOLATIONS = ['linear', 'lower', 'higher', 'midpoint', 'nearest'] as const;

/** The interpolation a quantile call uses; undefined for a call that is none (or whose interpolation is not a literal). */
function interpolationOf(c: CallFact): string | undefined {
  if (c.fn === 'statistics.quantiles') {
    const m = literal(c.kw.method) ?? 'exclusive';
    return m === 'inclusive' ? 'linear' : m;
  }
  const numpy = /^numpy\.(?:nan)?(?:percentile|quantile)$/.test(c.fn);
  const method = c.fn === '' && /^(?:quantile|percentile)$/.test(c.method);
  if (!numpy && !method) return undefined;
  const given = literal(c.kw.interpolation ?? c.kw.method);
  if (given === undefined || !/^[a-z_]+$/.test(given)) return given === undefined ? 'linear' : undefined;
  return given === 'single' || given === 'table' ? literal(c.kw.interpolation) ?? 'linear' : given;
}

const quantile: Convention = {
  id: 'quantile-interpolation',
  recognise(request) {
    if (!/\b(?:quantiles?|percentiles?|quartiles?|deciles?)\b/i.test(request)) return [];
    const found = new Set<string>();
    for (const m of request.matchAll(/['"]?\b(linear|lower|higher|midpoint|nearest)\b['"]?\s+interpolation|\binterpolation\s*[=:]?\s*['"]?(linear|lower|higher|midpoint|nearest)\b|\bmethod\s*=\s*['"](linear|lower|higher|midpoint|nearest)['"]/gi)) {
      found.add((m[1] ?? m[2] ?? m[3])!.toLowerCase());
    }
    return onlyOne([...found]).map((v) => ({
      convention: 'quantile-interpolation',
      variant: v,
      label: `the '${v}' quantile interpolation`,
      requirement: `Quantiles with '${v}' interpolation: pandas .quantile(q, interpolation='${v}'), numpy.percentile(x, p, method='${v}')${v === 'linear' ? ' (the default of both)' : "; both default to 'linear'"}.`,
    }));
  },
  unmet(stated, program) {
    for (const c of program.calls) {
      const used = interpolationOf(c);
      if (used !== undefined && used !== stated.variant) return `${stated.label} asked; ${quote(c)} uses '${used}'${c.kw.interpolation || c.kw.method ? '' : ' (its default)'}`;
    }
    return undefined;
  },
};

const LOW_MEDIAN = /\bmedian_low\b|\blow(?:er)?\s+median\b|\blower of the (?:two )?middle/i;
const HIGH_MEDIAN = /\bmedian_high\b|\b(?:high(?:er)?|upper)\s+median\b|\bhigher of the (?:two )?middle/i;
const MEAN_MEDIAN = /\b(?:mean|average) of the (?:two )?middle (?:values|numbers|two)\b/i;

const evenMedian: Convention = {
  id: 'even-median',
  recognise(request) {
    const found: StatedMethod[] = [];
    if (LOW_MEDIAN.test(request)) found.push({ convention: 'even-median', variant: 'low', label: 'the low median (the lower middle value)', requirement: 'The low median (of an even count, the lower of the two middle values, no averaging): statistics.median_low; .median() and numpy.median average the two.' });
    if (HIGH_MEDIAN.test(request)) found.push({ convention: 'even-median', variant: 'high', label: 'the high median (the higher middle value)', requirement: 'The high median (of an even count, the higher of the two middle values, no averaging): statistics.median_high; .median() and numpy.median average the two.' });
    if (MEAN_MEDIAN.test(request)) found.push({ convention: 'even-median', variant: 'mean', label: 'the median as the mean of the two middle values', requirement: 'The median of an even count is the mean of the two middle values: .median(), numpy.median or statistics.median; not median_low/median_high.' });
    return onlyOne(found);
  },
  unmet(stated, program) {
    if (stated.variant === 'mean') {
      const one = program.calls.find((c) => /^statistics\.median_(?:low|high)$/.test(c.fn));
      return one ? `${stated.label} asked; ${quote(one)} takes one of the two middle values` : undefined;
    }
    const right = stated.variant === 'low' ? 'statistics.median_low' : 'statistics.median_high';
    for (const c of program.calls) {
      const averages = c.fn === 'statistics.median' || /^numpy\.(?:nan)?median$/.test(c.fn) || (c.fn === '' && c.method === 'median');
      const other = /^statistics\.median_(?:low|high)$/.test(c.fn) && c.fn !== right;
      if (averages) return `${stated.label} asked; ${quote(c)} averages the two middle values of an even count`;
      if (other) return `${stated.label} asked; ${quote(c)} takes the other middle value`;
    }
    return undefined;
  },
};

/** The correlation a call computes; undefined for a call that is none (or whose method is not a literal). */
function correlationOf(c: CallFact): string | undefined {
  const scipy: Record<string, string> = { 'scipy.stats.pearsonr': 'pearson', 'scipy.stats.spearmanr': 'spearman', 'scipy.stats.kendalltau': 'kendall', 'numpy.corrcoef': 'pearson' };
  if (c.fn in scipy) return scipy[c.fn];
  if (c.fn !== '' || !/^(?:corr|corrwith)$/.test(c.method)) return undefined;
  const positional = c.args.find((a) => /^['"]\w+['"]$/.test(a));
  const m = literal(c.kw.method ?? positional) ?? 'pearson';
  return /^(?:pearson|spearman|kendall)$/.test(m) ? m : undefined;
}

const NAMES: Record<string, string> = { pearson: 'Pearson', spearman: 'Spearman', kendall: 'Kendall' };

const correlation: Convention = {
  id: 'correlation',
  recognise(request) {
    const found: string[] = [];
    if (/\bspearman/i.test(request)) found.push('spearman');
    if (/\bkendall/i.test(request)) found.push('kendall');
    if (/\bpearson(?:'s)?\s+(?:r\b|corr|product|coefficient|correlation)|\bpearson\b(?![^.]{0,20}kurtosis)[^.]{0,30}\bcorrelation/i.test(request)) found.push('pearson');
    return onlyOne(found).map((v) => ({
      convention: 'correlation',
      variant: v,
      label: `${NAMES[v]} correlation`,
      requirement: `${NAMES[v]} correlation: .corr(other, method='${v}') or scipy.stats.${v === 'pearson' ? 'pearsonr' : v === 'spearman' ? 'spearmanr' : 'kendalltau'}${v === 'pearson' ? " (.corr()'s default)" : "; .corr() without method= and numpy.corrcoef are Pearson's"}.`,
    }));
  },
  unmet(stated, program) {
    const ranked = program.names.includes('rank') || program.names.includes('rankdata');
    for (const c of program.calls) {
      const used = correlationOf(c);
      if (used === undefined || used === stated.variant) continue;
      if (stated.variant === 'spearman' && used === 'pearson' && ranked) continue; // Pearson's of the ranks is Spearman's
      return `${stated.label} asked; ${quote(c)} computes ${NAMES[used]}'s`;
    }
    return undefined;
  },
};

/** The order and association conventions. */
export const ORDER_CONVENTIONS: readonly Convention[] = [quantile, evenMedian, correlation];
export { INTERPOLATIONS };
