/**
 * Lexical similarity between a new request and the approved examples of a channel: TF-IDF
 * vectors (sublinear term frequency `1 + ln tf`, smoothed inverse document frequency
 * `1 + ln((N + 1) / (df + 1))`, as scikit-learn's `TfidfVectorizer(sublinear_tf=True)`) compared by
 * cosine, over words lowercased, stop words dropped and a plural `s` taken off.
 *
 * Why our own 60 lines and not a package: the small BM25 packages on npm match terms as substrings
 * or as regular expressions built from the query (`okapibm25`: "sale" scores "wholesale", a query
 * word like `c++` throws) or pull in a language model (`wink-bm25-text-search`); a cosine in [0, 1]
 * also gives a threshold that means the same with 2 examples or 200, which raw BM25 scores do not.
 */

/** Words that say nothing about what a request is about. */
const STOP_WORDS = new Set(
  ('a an and are as at be by can could do does each for from give have how i in into is it its me my of on or our per please print ' +
    'show so tell than that the their them then there these this those to us was we what when where which who will with would you your ' +
    'all any file files csv json data attached using use list get find compute calculate column columns row rows count counts total number').split(' '),
);

/**
 * The terms of a text: lowercased words and numbers (letters of any script), quarters and halves
 * named in words as `q1`…`h2`, without stop words or one-letter words, a plural taken off words
 * longer than three letters (`categories` → `category`, `orders` → `order`; not `ss`).
 */
export function terms(text: string): string[] {
  const words = withPeriodNames(text.toLowerCase()).match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words
    .flatMap((w) => w.split('_'))
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map((w) => (w.length > 4 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

const ORDINALS: Record<string, string> = { first: '1', '1st': '1', second: '2', '2nd': '2', third: '3', '3rd': '3', fourth: '4', '4th': '4' };

/**
 * Quarters and halves named in words as data names them: "the first quarter" → `q1`, "quarter 3" →
 * `q3`, "the second half" → `h2` (a request says one, a definition or a file the other).
 */
function withPeriodNames(text: string): string {
  return text
    .replace(/\b(first|1st|second|2nd|third|3rd|fourth|4th)\s+(quarter|half)\b/g, (_, n: string, p: string) => `${p[0]}${ORDINALS[n]}`)
    .replace(/\b(quarter|half)\s+([1-4])\b/g, (_, p: string, n: string) => `${p[0]}${n}`);
}

/** Sparse vector: term → weight. */
type Vector = Map<string, number>;

function counts(words: string[]): Map<string, number> {
  const c = new Map<string, number>();
  for (const w of words) c.set(w, (c.get(w) ?? 0) + 1);
  return c;
}

function norm(v: Vector): number {
  let s = 0;
  for (const x of v.values()) s += x * x;
  return Math.sqrt(s);
}

/**
 * Cosine similarity of `query` with each document, on TF-IDF vectors whose document frequencies
 * come from `documents` (the query's own terms count as seen once more, so a term no document has
 * weighs the most but matches nothing).
 * @returns one score in [0, 1] per document, in order (0 for an empty query or document)
 */
export function cosineScores(query: string, documents: string[]): number[] {
  const docTerms = documents.map((d) => counts(terms(d)));
  const queryTerms = counts(terms(query));
  const n = documents.length + 1;
  const df = new Map<string, number>();
  for (const c of [...docTerms, queryTerms]) for (const t of c.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => 1 + Math.log((n + 1) / ((df.get(t) ?? 0) + 1));
  const vector = (c: Map<string, number>): Vector => new Map([...c].map(([t, tf]) => [t, (1 + Math.log(tf)) * idf(t)]));
  const q = vector(queryTerms);
  const qn = norm(q);
  return docTerms.map((c) => {
    const d = vector(c);
    const dn = norm(d);
    if (qn === 0 || dn === 0) return 0;
    let dot = 0;
    for (const [t, w] of q) dot += w * (d.get(t) ?? 0);
    return dot / (qn * dn);
  });
}
