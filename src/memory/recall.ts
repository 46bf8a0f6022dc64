/**
 * What a new run gets from its channel's memory ({@link cosineScores} for every similarity):
 * - the definitions most similar to its request and input files (names, columns and the values of
 *   their first rows): those that score at least {@link MIN_DEFINITION_SCORE} and, after the first,
 *   {@link DEFINITION_SHARE} of its score, at most `maxDefinitions` within their token budget, the
 *   most similar first. Not every definition: given nine, the small local model computed several
 *   of them (a revenue question crashed on the `refunds` column of "net sales"), and answered
 *   0 of 9 paraphrases taught by a definition right (docs/memory.md, "Measured"). A definition
 *   that names columns ({@link namedColumns}) none of which the run's files have is about other
 *   files and is not given (a quarter's total multiplied `amount` by the `units` of "revenue =
 *   units × unit_price").
 * - the approved examples most similar to its request and input files that fit the examples'
 *   budget: those whose request is like the new one ({@link MIN_REQUEST_SIMILARITY}), that score at
 *   least {@link MIN_EXAMPLE_SCORE} and, after the first, {@link RUNNER_UP_SHARE} of its score.
 */
import type { MemoryEntry } from '../history/memory.js';
import type { RunMemory } from '../history/types.js';
import { cosineScores, terms } from './similarity.js';

import { DEFAULT_RECALL_BUDGET, type RecallBudget } from '../history/memory.js';

export { DEFAULT_RECALL_BUDGET, type RecallBudget } from '../history/memory.js';

/**
 * Least similarity of an example's request with the new request (cosine, 0–1) for it to be given:
 * below it, the example is about something else even when it is about the same file.
 */
export const MIN_REQUEST_SIMILARITY = 0.12;

/**
 * Least similarity of a definition with the request and its files (cosine, 0–1) for it to be given,
 * unless it shares {@link MIN_SHARED_TERMS} terms with them.
 */
export const MIN_DEFINITION_SCORE = 0.1;

/**
 * Distinct terms a definition shares with the request, its files and their values that make it
 * concern the request whatever its cosine: a definition alone in its channel's memory scores low
 * against every request (its terms weigh little when it is the only document), and one long
 * sentence spreads its weight over words the request does not use ("headcount counts active FTE
 * employees only" shares "active", "FTE" and "left" with a staff file's values, at 0.09).
 */
export const MIN_SHARED_TERMS = 2;

/** A definition after the most similar is given only when it scores at least this share of its score. */
export const DEFINITION_SHARE = 0.75;

/** Weight of the request's similarity in an example's score; the files' summaries weigh the rest. */
export const REQUEST_WEIGHT = 0.75;

/** Least score (request and files together, 0–1) for an example to be given. */
export const MIN_EXAMPLE_SCORE = 0.3;

/** An example after the best is given only when it scores at least this share of the best's score. */
export const RUNNER_UP_SHARE = 0.5;

/** A rough token count (about 4 characters a token for English and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What a run is recalled for: its request and its input files. */
export interface RecallQuery {
  request: string;
  /** The run's input files, one `name: summary` line each ('' without files; `inputSummary`). */
  files: string;
  /** The text values of the files' first rows, space-separated: words a definition may name ("FTE", "DE"). */
  values?: string;
  /** The files' column names (absent or empty: no file, or none known). */
  columns?: string[];
}

/**
 * The names a definition gives as written in data, lowercased: words joined by `_` (`unit_price`,
 * `amount_eur`), and the operands of a formula after its `=` when each is one word (`net sales =
 * gross − refunds − tax` names `gross`, `refunds`, `tax`; text in parentheses is left out).
 */
export function namedColumns(text: string): string[] {
  const lower = text.toLowerCase();
  const joined = lower.match(/[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+/gu) ?? [];
  const formula = lower.replace(/\([^)]*\)/g, ' ').split('=')[1];
  const operands = formula?.split(/[-+*/×·÷−]/).map((x) => x.trim()) ?? [];
  const words = operands.length > 1 && operands.every((x) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(x)) ? operands : [];
  return [...new Set([...joined, ...words])];
}

/** Whether a definition may apply to files with these columns: it names none, or one of them. */
function fitsColumns(text: string, columns: string[] | undefined): boolean {
  if (!columns?.length) return true;
  const named = namedColumns(text);
  if (named.length === 0) return true;
  const have = new Set(columns.map((c) => c.toLowerCase()));
  return named.some((n) => have.has(n));
}

/** One definition with its score, for the bench and the log. */
export interface ScoredDefinition {
  entry: MemoryEntry;
  score: number;
}

/**
 * Scores the live definitions against a run's request, files and their values, best first (ties:
 * the newest first), those under {@link MIN_DEFINITION_SCORE} (unless they share {@link MIN_SHARED_TERMS}
 * terms with the request) or naming only columns the files do
 * not have left out.
 */
export function rankDefinitions(entries: MemoryEntry[], query: RecallQuery): ScoredDefinition[] {
  const definitions = entries.filter((e) => e.kind === 'definition' && e.removedAt === undefined && fitsColumns(e.text, query.columns));
  const asked = `${query.request}\n${query.files}\n${query.values ?? ''}`;
  const scores = cosineScores(asked, definitions.map((d) => d.text));
  const askedTerms = new Set(terms(asked));
  const shared = (text: string) => new Set(terms(text).filter((t) => askedTerms.has(t))).size;
  return definitions
    .map((entry, i) => ({ entry, score: scores[i]!, i }))
    .filter((s) => s.score >= MIN_DEFINITION_SCORE || shared(s.entry.text) >= MIN_SHARED_TERMS)
    .sort((a, b) => b.score - a.score || b.i - a.i)
    .map(({ entry, score }) => ({ entry, score }));
}

/** One example with its score, for the bench and the log. */
export interface ScoredExample {
  entry: MemoryEntry;
  score: number;
  requestScore: number;
}

/**
 * Scores the examples against a request and its files' summary, best first, those under
 * {@link MIN_REQUEST_SIMILARITY} left out.
 */
export function rankExamples(examples: MemoryEntry[], request: string, inputSummary: string): ScoredExample[] {
  const withExample = examples.filter((e) => e.kind === 'example' && e.example);
  if (withExample.length === 0) return [];
  const requests = cosineScores(request, withExample.map((e) => e.example!.request));
  const files = inputSummary.trim() === '' ? withExample.map(() => 0) : cosineScores(inputSummary, withExample.map((e) => e.example!.inputSummary));
  return withExample
    .map((entry, i) => ({ entry, requestScore: requests[i]!, score: REQUEST_WEIGHT * requests[i]! + (1 - REQUEST_WEIGHT) * files[i]! }))
    .filter((s) => s.requestScore >= MIN_REQUEST_SIMILARITY)
    .sort((a, b) => b.score - a.score);
}

/** The tokens an example takes in a prompt (its request, files and program). */
export function exampleTokens(e: MemoryEntry): number {
  const x = e.example!;
  return estimateTokens(`${x.request}\n${x.inputSummary}\n${x.code}`) + 20;
}

/** Chooses what a run is given from the entries of its channel (see the module comment). */
export function chooseMemory(entries: MemoryEntry[], query: RecallQuery, budget: RecallBudget = DEFAULT_RECALL_BUDGET): RunMemory {
  const live = entries.filter((e) => e.removedAt === undefined);
  const definitions: RunMemory['definitions'] = [];
  let used = 0;
  const rankedDefinitions = rankDefinitions(live, query);
  const bestDefinition = rankedDefinitions[0]?.score ?? 0;
  for (const { entry, score } of rankedDefinitions) {
    if (definitions.length >= budget.maxDefinitions || score < DEFINITION_SHARE * bestDefinition) break;
    const tokens = estimateTokens(entry.text) + 2;
    if (used + tokens > budget.definitionTokens) continue;
    used += tokens;
    definitions.push({ id: entry.id, text: entry.text, ...(entry.helper ? { helper: entry.helper } : {}) });
  }
  const examples: RunMemory['examples'] = [];
  let exampleUsed = 0;
  const ranked = rankExamples(live, query.request, query.files);
  const best = ranked[0]?.score ?? 0;
  for (const { entry, score } of ranked) {
    if (examples.length >= budget.maxExamples || score < MIN_EXAMPLE_SCORE || score < RUNNER_UP_SHARE * best) break;
    const tokens = exampleTokens(entry);
    if (exampleUsed + tokens > budget.exampleTokens) continue;
    exampleUsed += tokens;
    examples.push({ id: entry.id, ...entry.example! });
  }
  return { definitions, examples };
}
