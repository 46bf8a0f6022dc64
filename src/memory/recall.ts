/**
 * What a new run gets from its channel's memory: every definition that fits the definitions'
 * token budget (the newest first when they do not all fit; given most similar to the request first) and
 * the approved examples most similar to its request and input files ({@link cosineScores}) that
 * fit the examples' budget: those whose request is like the new one ({@link MIN_REQUEST_SIMILARITY}),
 * that score at least {@link MIN_EXAMPLE_SCORE} and, after the first, {@link RUNNER_UP_SHARE} of its score.
 */
import type { MemoryEntry } from '../history/memory.js';
import type { RunMemory } from '../history/types.js';
import { cosineScores } from './similarity.js';

import { DEFAULT_RECALL_BUDGET, type RecallBudget } from '../history/memory.js';

export { DEFAULT_RECALL_BUDGET, type RecallBudget } from '../history/memory.js';

/**
 * Least similarity of an example's request with the new request (cosine, 0–1) for it to be given:
 * below it, the example is about something else even when it is about the same file.
 */
export const MIN_REQUEST_SIMILARITY = 0.12;

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

/**
 * Chooses what a run is given from the live entries of its channel.
 * @param inputSummary the run's files, one `name: summary` line each ('' without files)
 */
export function chooseMemory(entries: MemoryEntry[], request: string, inputSummary: string, budget: RecallBudget = DEFAULT_RECALL_BUDGET): RunMemory {
  const live = entries.filter((e) => e.removedAt === undefined);
  const definitions: RunMemory['definitions'] = [];
  let used = 0;
  for (const d of live.filter((e) => e.kind === 'definition').reverse()) {
    const tokens = estimateTokens(d.text) + 2;
    if (used + tokens > budget.definitionTokens) continue;
    used += tokens;
    definitions.unshift({ id: d.id, text: d.text });
  }
  // most relevant first (a small model reads the first lines best); ties keep the order they were added
  const relevance = cosineScores(`${request}\n${inputSummary}`, definitions.map((d) => d.text));
  const byRelevance = definitions.map((d, i) => ({ d, i, r: relevance[i]! })).sort((a, b) => b.r - a.r || a.i - b.i).map((x) => x.d);
  definitions.splice(0, definitions.length, ...byRelevance);
  const examples: RunMemory['examples'] = [];
  let exampleUsed = 0;
  const ranked = rankExamples(live, request, inputSummary);
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
