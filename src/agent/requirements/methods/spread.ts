/**
 * Spread and shape conventions of the table (`table.ts`): population or sample variance and
 * standard deviation (`ddof`: NumPy's default is 0, pandas' and `statistics.stdev`'s 1), biased or
 * unbiased skewness and kurtosis (`scipy.stats.skew/kurtosis` are biased by default, pandas
 * `.skew()/.kurt()` bias-corrected), and Fisher (excess) or Pearson kurtosis.
 */
import type { CallFact, ProgramCalls } from './calls.js';
import { literal, numpyReceiver, onlyOne, quote, type Convention, type StatedMethod } from './table.js';

const SPREAD = '(?:standard deviations?|std|sd|variances?|var)';
const POPULATION = new RegExp(`\\bpopulation\\s+${SPREAD}\\b|\\bddof\\s*=\\s*0\\b|\\bdivid\\w*\\s+by\\s+n\\b(?!\\s*-)`, 'i');
const SAMPLE = new RegExp(`\\bsample\\s+${SPREAD}\\b|\\bddof\\s*=\\s*1\\b|\\bunbiased\\s+${SPREAD}\\b|(?<!not\\s)\\bn\\s*-\\s*1\\b|bessel`, 'i');

/** The ddof a variance or standard deviation call uses, with its source; undefined for a call that is none or whose ddof is not a literal. */
function ddofOf(c: CallFact): { ddof: number; default: boolean } | undefined {
  const statistics: Record<string, number> = { 'statistics.stdev': 1, 'statistics.variance': 1, 'statistics.pstdev': 0, 'statistics.pvariance': 0 };
  if (c.fn in statistics) return { ddof: statistics[c.fn]!, default: true };
  const named = /^(?:numpy\.(?:nan)?(?:std|var)|scipy\.stats\.t(?:std|var))$/.test(c.fn);
  const method = c.fn === '' && /^(?:std|var)$/.test(c.method);
  if (!named && !method) {
    // `.agg('std')`, `.agg(['mean', 'std'])`: pandas' sample standard deviation
    if (c.fn === '' && /^(?:agg|aggregate|transform)$/.test(c.method) && /['"](?:std|var)['"]/.test(c.args.join(' '))) return { ddof: 1, default: true };
    return undefined;
  }
  const given = c.kw.ddof;
  if (given !== undefined) return /^\d+$/.test(given) ? { ddof: Number(given), default: false } : undefined;
  if (c.fn.startsWith('scipy.stats.')) return { ddof: 1, default: true };
  if (c.fn.startsWith('numpy.') || numpyReceiver(c)) return { ddof: 0, default: true };
  return { ddof: 1, default: true }; // a pandas Series or DataFrame
}

const variance: Convention = {
  id: 'variance-ddof',
  recognise(request) {
    const what = /\bvar(?:iance)?\b/i.test(request) && !/\bstandard deviation|\bstd\b|\bsd\b/i.test(request) ? 'variance' : 'standard deviation';
    const found: StatedMethod[] = [];
    if (POPULATION.test(request)) {
      found.push({ convention: 'variance-ddof', variant: 'population', label: `population ${what}`, requirement: `Population ${what} (divide by n, ddof=0): pandas .std()/.var() default to ddof=1, so pass ddof=0; numpy.std/var use ddof=0 by default; statistics.pstdev/pvariance.` });
    }
    if (SAMPLE.test(request)) {
      found.push({ convention: 'variance-ddof', variant: 'sample', label: `sample ${what}`, requirement: `Sample ${what} (divide by n-1, ddof=1): numpy.std/var default to ddof=0, so pass ddof=1; pandas .std()/.var() use ddof=1 by default; statistics.stdev/variance.` });
    }
    return onlyOne(found);
  },
  unmet(stated, program) {
    const want = stated.variant === 'population' ? 0 : 1;
    for (const c of program.calls) {
      const d = ddofOf(c);
      if (d && d.ddof !== want) return `${stated.label} asked; ${quote(c)} uses ddof=${d.ddof}${d.default ? ' (its default)' : ''}`;
    }
    return undefined;
  },
};

const SKEW_WORDS = /\bskew(?:ness)?\b|\bkurtosis\b|\bkurt\b/i;
const BIASED = /(?<!un)\bbiased\b|\bbias\s*=\s*True\b|population skewness|scipy\.stats(?:\.(?:skew|kurtosis))?\s+(?:with\s+(?:its|their)\s+)?defaults?|scipy\.stats\.(?:skew|kurtosis)\s+with\s+(?:its|their)\s+defaults/i;
const UNBIASED = /\bunbiased\b|\bbias[- ]corrected\b|\bbias\s*=\s*False\b|adjusted fisher-pearson|\bsample skewness\b/i;

/** Whether a skewness or kurtosis call is biased; undefined for a call that is none (or whose `bias` is not a literal). */
function biasOf(c: CallFact): boolean | undefined {
  if (/^scipy\.stats\.(?:skew|kurtosis)$/.test(c.fn)) {
    const given = literal(c.kw.bias);
    return given === undefined ? true : given === 'True' ? true : given === 'False' ? false : undefined;
  }
  if (c.fn === '' && /^(?:skew|kurt|kurtosis)$/.test(c.method) && !numpyReceiver(c)) return false; // pandas: bias-corrected
  if (c.fn === '' && /^(?:agg|aggregate|transform)$/.test(c.method) && /['"](?:skew|kurt)['"]/.test(c.args.join(' '))) return false;
  return undefined;
}

const skewBias: Convention = {
  id: 'skew-bias',
  recognise(request) {
    if (!SKEW_WORDS.test(request)) return [];
    const what = /skew/i.test(request) ? (/kurt/i.test(request) ? 'skewness and kurtosis' : 'skewness') : 'kurtosis';
    const found: StatedMethod[] = [];
    if (BIASED.test(request)) found.push({ convention: 'skew-bias', variant: 'biased', label: `biased ${what}`, requirement: `Biased ${what} (the population estimator): scipy.stats.skew/kurtosis with bias=True, their default; pandas .skew()/.kurt() are bias-corrected, do not use them.` });
    if (UNBIASED.test(request)) found.push({ convention: 'skew-bias', variant: 'unbiased', label: `unbiased (bias-corrected) ${what}`, requirement: `Unbiased (bias-corrected) ${what}: pandas .skew()/.kurt(), or scipy.stats.skew/kurtosis with bias=False (scipy's default is biased).` });
    return onlyOne(found);
  },
  unmet(stated, program) {
    const want = stated.variant === 'biased';
    for (const c of program.calls) {
      const biased = biasOf(c);
      if (biased === undefined || biased === want) continue;
      const why = c.fn === '' ? "is pandas' bias-corrected estimator" : biased ? 'is biased (bias=True is its default)' : 'is bias-corrected (bias=False)';
      return `${stated.label} asked; ${quote(c)} ${why}`;
    }
    return undefined;
  },
};

const PEARSON_KURTOSIS = /\bpearson(?:'s)?\s+kurtosis\b|\bkurtosis\b[^.]{0,40}\bnot excess\b|\bnon-excess\b|\bfisher\s*=\s*False\b|normal distribution (?:gives|has|is) 3\b/i;
const FISHER_KURTOSIS = /\bfisher(?:'s)?\s+(?:excess\s+)?kurtosis\b|(?<!not\s)\bexcess kurtosis\b|\bfisher\s*=\s*True\b|normal distribution (?:gives|has|is) 0\b/i;

/** Whether a kurtosis call is Fisher's (excess); undefined for a call that is none. */
function fisherOf(c: CallFact): boolean | undefined {
  if (c.fn === 'scipy.stats.kurtosis') {
    const given = literal(c.kw.fisher);
    return given === undefined || given === 'True' ? true : given === 'False' ? false : undefined;
  }
  if (c.fn === '' && /^(?:kurt|kurtosis)$/.test(c.method) && !numpyReceiver(c)) return true;
  return undefined;
}

const kurtosisDefinition: Convention = {
  id: 'kurtosis-definition',
  recognise(request) {
    if (!/\bkurt(?:osis)?\b/i.test(request)) return [];
    const found: StatedMethod[] = [];
    if (PEARSON_KURTOSIS.test(request)) found.push({ convention: 'kurtosis-definition', variant: 'pearson', label: "Pearson's kurtosis (a normal distribution gives 3)", requirement: "Pearson's kurtosis (not excess; a normal distribution gives 3): scipy.stats.kurtosis(x, fisher=False); pandas .kurt() and scipy's default are excess kurtosis (normal = 0)." });
    if (FISHER_KURTOSIS.test(request)) found.push({ convention: 'kurtosis-definition', variant: 'fisher', label: "Fisher's excess kurtosis (a normal distribution gives 0)", requirement: "Fisher's excess kurtosis (a normal distribution gives 0): scipy.stats.kurtosis's default (fisher=True) and pandas .kurt(); do not add 3." });
    return onlyOne(found);
  },
  unmet(stated, program) {
    const want = stated.variant === 'fisher';
    for (const c of program.calls) {
      const fisher = fisherOf(c);
      if (fisher === undefined || fisher === want) continue;
      if (!want && program.plus3) continue; // an excess kurtosis made Pearson's by adding 3
      return `${stated.label} asked; ${quote(c)} ${fisher ? 'gives the excess kurtosis (normal = 0)' : 'gives Pearson kurtosis (normal = 3)'}`;
    }
    return undefined;
  },
};

/** The spread and shape conventions. */
export const SPREAD_CONVENTIONS: readonly Convention[] = [variance, skewBias, kurtosisDefinition];

/** Exported for tests: the ddof a call uses. */
export const _ddofOf = ddofOf;
export type { ProgramCalls };
