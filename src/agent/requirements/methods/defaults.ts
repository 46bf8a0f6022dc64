/**
 * "A library function with its defaults" (`table.ts`): the request names a function
 * (`scipy.stats.skew with its defaults`, `numpy.std with its defaults`) or a library and a
 * statistic (`with scipy.stats defaults` beside "skewness"); the program must call that function
 * and pass nothing that changes its defaults (arguments that only say which data, such as `axis`
 * or `nan_policy`, may be given).
 */
import type { CallFact, ProgramCalls } from './calls.js';
import { numpyReceiver, quote, type Convention } from './table.js';

/** Module spellings as a request writes them, by their import name. */
const MODULES: Record<string, string> = { np: 'numpy', numpy: 'numpy', pd: 'pandas', pandas: 'pandas', stats: 'scipy.stats', 'scipy.stats': 'scipy.stats', statistics: 'statistics' };

/** The statistic words of a request, and the function each module computes them with. */
const STATISTICS: [RegExp, Record<string, string>][] = [
  [/\bskew(?:ness)?\b/i, { 'scipy.stats': 'skew', pandas: 'skew' }],
  [/\bkurtosis\b/i, { 'scipy.stats': 'kurtosis', pandas: 'kurt' }],
  [/\bstandard deviation\b|\bstd\b/i, { numpy: 'std', pandas: 'std', statistics: 'stdev', 'scipy.stats': 'tstd' }],
  [/\bvariance\b/i, { numpy: 'var', pandas: 'var', statistics: 'variance', 'scipy.stats': 'tvar' }],
  [/\bpercentiles?\b/i, { numpy: 'percentile', pandas: 'quantile', 'scipy.stats': 'scoreatpercentile' }],
  [/\bquantiles?\b/i, { numpy: 'quantile', pandas: 'quantile', statistics: 'quantiles' }],
  [/\bz-?scores?\b/i, { 'scipy.stats': 'zscore' }],
];

/** Arguments that choose the data, not the method: never an override. */
const DATA_ARGUMENTS = new Set(['axis', 'nan_policy', 'skipna', 'numeric_only', 'out', 'dtype', 'keepdims', 'a', 'x', 'y', 'q', 'other']);

const DEFAULTS = /`?([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)(?:\(\))?`?\s+(?:with|using)\s+(?:its|their|the)\s+defaults?\b(?:\s+(?:settings|parameters|arguments))?|\b(?:with|using)\s+(?:the\s+)?`?([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)`?\s+defaults?\b/g;

/** The functions a request names with their defaults, fully named (`scipy.stats.skew`, `pandas.std`). */
export function functionsWithDefaults(request: string): string[] {
  const out = new Set<string>();
  for (const m of request.matchAll(DEFAULTS)) {
    const name = (m[1] ?? m[2])!;
    const module = MODULES[name];
    if (module !== undefined) {
      // a library's defaults: the function of each statistic the request names
      for (const [words, byModule] of STATISTICS) if (words.test(request) && byModule[module]) out.add(`${module}.${byModule[module]}`);
      continue;
    }
    const dot = name.lastIndexOf('.');
    if (dot < 0) continue; // a bare word ("with its defaults" after a noun) names no function
    const owner = MODULES[name.slice(0, dot)] ?? name.slice(0, dot);
    out.add(`${owner}.${name.slice(dot + 1)}`);
  }
  return [...out];
}

/** Whether a call is the named function: by its full name, or a method of a value of that library (pandas' methods, NumPy arrays'). */
function callsFunction(c: CallFact, full: string): boolean {
  const dot = full.lastIndexOf('.');
  const [owner, name] = [full.slice(0, dot), full.slice(dot + 1)];
  if (c.fn === full) return true;
  if (c.fn !== '' || c.method !== name) return false;
  if (owner === 'pandas') return !numpyReceiver(c);
  if (owner === 'numpy') return numpyReceiver(c);
  return false;
}

const libraryDefaults: Convention = {
  id: 'library-defaults',
  recognise(request) {
    const functions = functionsWithDefaults(request);
    if (functions.length === 0) return [];
    const named = functions.map((f) => `\`${f.startsWith('pandas.') ? `pandas .${f.slice(7)}()` : f}\``).join(', ');
    return [{ convention: 'library-defaults', variant: 'defaults', label: `${named} with its defaults`, requirement: `Use ${named} with its defaults: call it, and pass no argument that changes how it computes (only the data and axis).`, functions }];
  },
  unmet(stated, program: ProgramCalls) {
    for (const full of stated.functions ?? []) {
      const name = full.slice(full.lastIndexOf('.') + 1);
      const calls = program.calls.filter((c) => callsFunction(c, full));
      if (calls.length === 0) {
        const instead = program.calls.find((c) => c.method === name || c.fn.endsWith(`.${name}`));
        return `\`${full}\` with its defaults asked; the program does not call it${instead ? ` (it uses ${quote(instead)})` : ''}`;
      }
      for (const c of calls) {
        const changed = Object.keys(c.kw).filter((k) => !DATA_ARGUMENTS.has(k));
        if (changed.length > 0) return `\`${full}\` with its defaults asked; ${quote(c)} changes ${changed.join(', ')}`;
      }
    }
    return undefined;
  },
};

/** The library-defaults convention. */
export const DEFAULTS_CONVENTIONS: readonly Convention[] = [libraryDefaults];
