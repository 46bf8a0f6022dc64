/**
 * The speed lines of a realistic-request report: time to the first answer and to the verdict
 * (p50/p90/max), minutes spent on runs that end ❌, requests past the 5-minute budget, tokens per
 * request and per call by kind, replies cut at the length limit, and the share of prompt tokens
 * the local model reused from its evaluated context.
 */
import type { CompletionTiming } from '../../src/llm/local.js';
import { CALL_KINDS } from '../shared/call-kind.js';
import { median, percentile, sum } from '../shared/stats.js';
import type { Outcome } from './evaluate.js';

/** The longest a request should take on the local model, in s (issue 34's budget). */
export const REQUEST_BUDGET_S = 300;

/** Figures of one setting's outcomes (seconds and tokens as numbers; see {@link speedLines}). */
export interface SpeedFigures {
  n: number;
  /** Requests that showed an answer (an execution that exited 0). */
  answered: number;
  firstAnswer: { p50: number; p90: number; max: number };
  verdict: { p50: number; p90: number; max: number };
  /** Runs that ended ❌ (neither `success` nor `unverified`), and their minutes. */
  failed: number;
  failedMinutes: number;
  /** Requests longer than {@link REQUEST_BUDGET_S}. */
  overBudget: number;
  tokensPerRequest: { p50: number; mean: number };
  /** Calls cut at the length limit. */
  cut: number;
}

const spread = (xs: number[]) => ({ p50: median(xs), p90: xs.length ? percentile(xs, 90) : 0, max: xs.length ? Math.max(...xs) : 0 });

/** The figures of one setting. */
export function speedFigures(outcomes: readonly Outcome[]): SpeedFigures {
  const answered = outcomes.filter((o) => o.firstAnswerSeconds !== undefined);
  const failed = outcomes.filter((o) => o.status !== 'success' && o.status !== 'unverified');
  const tokens = outcomes.map((o) => o.tokens);
  return {
    n: outcomes.length,
    answered: answered.length,
    firstAnswer: spread(answered.map((o) => o.firstAnswerSeconds!)),
    verdict: spread(outcomes.map((o) => o.seconds)),
    failed: failed.length,
    failedMinutes: sum(failed.map((o) => o.seconds)) / 60,
    overBudget: outcomes.filter((o) => o.seconds > REQUEST_BUDGET_S).length,
    tokensPerRequest: { p50: median(tokens), mean: sum(tokens) / Math.max(1, tokens.length) },
    cut: sum(outcomes.map((o) => (o.callRecords ?? []).filter((c) => c.stopReason === 'length').length)),
  };
}

const s1 = (x: number) => x.toFixed(1);

/** Lines for one setting: the figures, then tokens per call by kind. */
export function speedLines(label: string, outcomes: readonly Outcome[]): string[] {
  const f = speedFigures(outcomes);
  const lines = [
    `${label}: first answer p50 ${s1(f.firstAnswer.p50)} s, p90 ${s1(f.firstAnswer.p90)} s, max ${s1(f.firstAnswer.max)} s (${f.answered} of ${f.n} showed one);` +
      ` verdict p50 ${s1(f.verdict.p50)} s, p90 ${s1(f.verdict.p90)} s, max ${s1(f.verdict.max)} s; past ${REQUEST_BUDGET_S} s: ${f.overBudget}`,
    `  ❌ runs: ${f.failed}, ${s1(f.failedMinutes)} min in all (${f.failed ? s1(f.failedMinutes / f.failed) : '0.0'} min each);` +
      ` tokens per request p50 ${Math.round(f.tokensPerRequest.p50)}, mean ${Math.round(f.tokensPerRequest.mean)}; replies cut at the length limit: ${f.cut}`,
  ];
  const calls = outcomes.flatMap((o) => o.callRecords ?? []);
  for (const kind of CALL_KINDS) {
    const of = calls.filter((c) => c.kind === kind);
    if (!of.length) continue;
    const prompt = sum(of.map((c) => c.promptTokens ?? 0));
    const completion = sum(of.map((c) => c.completionTokens ?? 0));
    lines.push(
      `  ${kind.padEnd(11)} ${String(of.length).padStart(3)} calls, prompt ${Math.round(prompt / of.length)} + completion ${Math.round(completion / of.length)} tokens per call (${prompt + completion} in all)`,
    );
  }
  return lines;
}

/** The share of prompt tokens the local model found already evaluated (prefix reuse), as a line. */
export function reuseLine(timings: readonly CompletionTiming[]): string[] {
  if (!timings.length) return [];
  const prompt = sum(timings.map((t) => t.promptTokens));
  const reused = sum(timings.map((t) => t.reusedPromptTokens));
  return [`prompt tokens reused from evaluated context: ${reused} of ${prompt} (${((100 * reused) / Math.max(1, prompt)).toFixed(1)}%)`];
}

/** One row of a comparison: a figure before and after, and after ÷ before. */
function compareRow(name: string, before: number, after: number, digits = 1): string {
  const ratio = before === 0 ? (after === 0 ? '×1.00' : '—') : `×${(after / before).toFixed(2)}`;
  return `${name.padEnd(34)} ${before.toFixed(digits).padStart(10)} ${after.toFixed(digits).padStart(10)} ${ratio.padStart(8)}`;
}

/**
 * The speed figures of one setting against a baseline's (the same requests measured on another
 * build): each as before, after and the ratio after ÷ before; with the pass rate and silent failures.
 */
export function comparisonLines(label: string, before: readonly Outcome[], after: readonly Outcome[], reuse: { before: number; after: number }): string[] {
  const b = speedFigures(before);
  const a = speedFigures(after);
  const pass = (o: readonly Outcome[]) => o.filter((x) => x.pass).length;
  const silent = (o: readonly Outcome[]) => o.filter((x) => x.status === 'success' && !x.pass).length;
  return [
    `${label}: ${after.length} requests, against the baseline's ${before.length}`,
    `${'figure'.padEnd(34)} ${'before'.padStart(10)} ${'after'.padStart(10)} ${'ratio'.padStart(8)}`,
    compareRow('first answer p50 (s)', b.firstAnswer.p50, a.firstAnswer.p50),
    compareRow('first answer p90 (s)', b.firstAnswer.p90, a.firstAnswer.p90),
    compareRow('first answer max (s)', b.firstAnswer.max, a.firstAnswer.max),
    compareRow('verdict p50 (s)', b.verdict.p50, a.verdict.p50),
    compareRow('verdict p90 (s)', b.verdict.p90, a.verdict.p90),
    compareRow('verdict max (s)', b.verdict.max, a.verdict.max),
    compareRow(`requests past ${REQUEST_BUDGET_S} s`, b.overBudget, a.overBudget, 0),
    compareRow('❌ runs', b.failed, a.failed, 0),
    compareRow('minutes on ❌ runs', b.failedMinutes, a.failedMinutes),
    compareRow('tokens per request p50', b.tokensPerRequest.p50, a.tokensPerRequest.p50, 0),
    compareRow('tokens per request mean', b.tokensPerRequest.mean, a.tokensPerRequest.mean, 0),
    compareRow('prompt tokens reused (%)', reuse.before, reuse.after),
    compareRow('replies cut at the length limit', b.cut, a.cut, 0),
    compareRow('pass (checker)', pass(before), pass(after), 0),
    compareRow('silent failures (✅ but wrong)', silent(before), silent(after), 0),
    compareRow('LLM calls per request', callsPerRequest(before), callsPerRequest(after), 2),
    ...perCallRows(before, after),
  ];
}

/** LLM calls per request, mean. */
function callsPerRequest(outcomes: readonly Outcome[]): number {
  return sum(outcomes.map((o) => o.callRecords?.length ?? 0)) / Math.max(1, outcomes.length);
}

/** Prompt and completion tokens per call of each kind, before and after (the kinds either side made). */
function perCallRows(before: readonly Outcome[], after: readonly Outcome[]): string[] {
  const perCall = (outcomes: readonly Outcome[], kind: string, part: 'promptTokens' | 'completionTokens') => {
    const of = outcomes.flatMap((o) => o.callRecords ?? []).filter((c) => c.kind === kind);
    return of.length ? sum(of.map((c) => c[part] ?? 0)) / of.length : undefined;
  };
  const rows: string[] = [];
  for (const kind of CALL_KINDS) {
    for (const [part, name] of [['promptTokens', 'prompt'], ['completionTokens', 'completion']] as const) {
      const b = perCall(before, kind, part);
      const a = perCall(after, kind, part);
      if (b !== undefined && a !== undefined) rows.push(compareRow(`${kind} ${name} tokens per call`, b, a, 0));
    }
  }
  return rows;
}

/** The share of prompt tokens reused, in %. */
export function reusedShare(timings: readonly CompletionTiming[]): number {
  const prompt = sum(timings.map((t) => t.promptTokens));
  return prompt === 0 ? 0 : (100 * sum(timings.map((t) => t.reusedPromptTokens))) / prompt;
}
