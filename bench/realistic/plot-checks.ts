/** Checks shared by the plot requests: a real, non-blank PNG; bars of the right number and lengths. */
import { readFileSync } from 'node:fs';
import type { Artifact } from '../../src/sandbox/types.js';
import { artifactNamed, artifactsWithExt } from './files.js';
import { inspectPng, pngSize, type Bar, type PngFacts } from './png.js';
import { bad, ok, type CheckContext, type CheckInput, type Verdict } from './types.js';

/** The PNG a plot request asked for and what its pixels show, or why there is none to look at. */
export type PlotLook = { png: Artifact; facts: PngFacts } | { verdict: Verdict };

const names = (artifacts: readonly Artifact[]) => (artifacts.length ? artifacts.map((a) => a.name).join(', ') : 'none');

/**
 * Finds the plot (`name` when the request named the file, else any PNG), checks it is a PNG of at
 * least 200×150 px with data drawn on it, and reads its pixels. Empty axes ink about 1.1 % of a
 * default figure and have no coloured pixel: a plot with fewer than 100 coloured pixels and under
 * 1.2 % ink counts as blank.
 */
export async function lookAtPlot(output: CheckInput, ctx: CheckContext, name?: string): Promise<PlotLook> {
  const png = name ? artifactNamed(output.artifacts, name) : artifactsWithExt(output.artifacts, 'png')[0];
  if (!png) return { verdict: bad(`no ${name ?? 'PNG'} among the returned files (${names(output.artifacts)})`) };
  const size = pngSize(readFileSync(png.path));
  if (!size) return { verdict: bad(`${png.name} is not a PNG`) };
  if (size.width < 200 || size.height < 150) return { verdict: bad(`${png.name} is only ${size.width}×${size.height} px`) };
  const facts = await inspectPng(ctx.executor, png);
  if (facts.pixels.saturated < 100 && facts.inked < 0.012) {
    return { verdict: bad(`${png.name} shows no data (${(facts.inked * 100).toFixed(2)} % inked, no colour)`) };
  }
  return { png, facts };
}

/** Options of {@link barsShow}. */
export interface BarsExpectation {
  /** The values the bars stand for, in the order the bars must appear (first = left, or top for horizontal bars). */
  values: readonly number[];
  /** When false, only the multiset of lengths matters, not the order. */
  ordered: boolean;
  /** Each bar a clearly different colour. */
  distinctColours?: boolean;
  /** Largest difference allowed between a bar's length / the longest bar's and value / the largest value. Default 0.04. */
  tolerance?: number;
}

function barsAgree(bars: readonly Bar[], want: BarsExpectation): Verdict {
  const tol = want.tolerance ?? 0.04;
  if (bars.length !== want.values.length) return bad(`${bars.length} bars, expected ${want.values.length}`);
  const byPosition = [...bars].sort((a, b) => a.start - b.start);
  const longest = Math.max(...bars.map((b) => b.length));
  const biggest = Math.max(...want.values);
  let got = byPosition.map((b) => b.length / longest);
  let expected = want.values.map((v) => v / biggest);
  if (!want.ordered) (got = [...got].sort()), (expected = [...expected].sort());
  const worst = Math.max(...got.map((g, i) => Math.abs(g - expected[i]!)));
  const shown = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
  if (worst > tol) return bad(`bar lengths (relative) ${shown(got)}, expected ${shown(expected)}`);
  if (want.distinctColours) {
    const far = (a: Bar, b: Bar) => Math.max(...a.rgb.map((c, i) => Math.abs(c - b.rgb[i]!))) > 0.15;
    const clash = bars.some((a, i) => bars.some((b, j) => j > i && !far(a, b)));
    if (clash) return bad('two bars have the same colour');
  }
  return ok(`${bars.length} bars, lengths as expected`);
}

/** Whether the chart's bars (vertical, or else horizontal) stand for `values` as asked. */
export function barsShow(facts: PngFacts, want: BarsExpectation): Verdict {
  const vertical = barsAgree(facts.bars.vertical, want);
  if (vertical.pass) return vertical;
  const horizontal = barsAgree(facts.bars.horizontal, want);
  return horizontal.pass ? horizontal : bad(`vertical: ${vertical.reason}; horizontal: ${horizontal.reason}`);
}
