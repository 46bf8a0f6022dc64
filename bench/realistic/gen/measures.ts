/**
 * The seeded table of the `methods` requests (`../cases/methods.ts`): 48 rows (an even count, so
 * the low, high and mean medians differ; few enough that a sample and a population standard
 * deviation differ in the third decimal), skewed columns (skewness and kurtosis are far from 0, so
 * their biased and unbiased forms differ), whole-number scores that hit the bounds 40 and 60 (so
 * inclusive and exclusive ranges differ), and weights in quarters (12.25, 7.75: exact in binary, so
 * rounding halves up and to even differ).
 */
import { Rng } from './rng.js';

/** One row of measures.csv. */
export interface Measure {
  id: number;
  group: string;
  x: number;
  y: number;
  score: number;
  price: number;
  weight: number;
}

const rng = new Rng(4404);
const GROUPS = ['A', 'B', 'C'];

/** The rows of measures.csv. */
export const MEASURES: readonly Measure[] = Array.from({ length: 48 }, (_, i) => {
  const base = rng.next();
  const x = Math.round((2 + 30 * base * base + 3 * rng.next()) * 100) / 100; // right-skewed
  const y = Math.round((0.6 * x + 8 * rng.next() + (rng.chance(0.1) ? 25 : 0)) * 100) / 100; // heavy right tail
  const score = rng.chance(0.2) ? rng.pick([40, 60]) : rng.int(25, 85);
  return { id: i + 1, group: rng.weighted(GROUPS, [3, 2, 1]), x, y, score, price: rng.cents(4, 60), weight: rng.int(8, 120) / 4 };
});

/** measures.csv as attached: `id,group,x,y,score,price,weight`. */
export const MEASURES_CSV = ['id,group,x,y,score,price,weight', ...MEASURES.map((m) => [m.id, m.group, m.x, m.y, m.score, m.price.toFixed(2), m.weight].join(','))].join('\n') + '\n';
