/** Prints the figures of an agent evaluation. */
import type { CompletionTiming } from '../../src/llm/local.js';
import type { Outcome, ProblemResult } from './evaluate.js';
import type { VerifyMode } from '../../src/agent/loop/index.js';
import { localProviderLines } from '../shared/report.js';
import { median, pct, sum } from '../shared/stats.js';

/** Everything the report needs. */
export interface EvalSummary {
  provider: string;
  retries: number;
  separate: boolean;
  examples: 'show' | 'assert';
  /** `agent.verify` of the runs (absent in summaries written before it existed: `off`). */
  verify?: VerifyMode;
  results: ProblemResult[];
  timings: CompletionTiming[];
}

/** Width of a setting's label in the table, in characters. */
const LABEL_WIDTH = 33;

function line(label: string, outcomes: Outcome[]): string {
  const passed = outcomes.filter((o) => o.pass).length;
  const silent = outcomes.filter((o) => !o.pass && o.status === 'success').length;
  const unverified = outcomes.filter((o) => o.status === 'unverified').length;
  const tokens = sum(outcomes.map((o) => o.tokens));
  const perSolve = passed ? Math.round(tokens / passed) : NaN;
  return [
    label.padEnd(LABEL_WIDTH),
    `${passed}/${outcomes.length} (${pct(passed, outcomes.length)})`.padEnd(16),
    `${silent} (${pct(silent, outcomes.length)})`.padEnd(14),
    String(unverified).padStart(10),
    String(tokens).padStart(10),
    String(Number.isNaN(perSolve) ? '-' : perSolve).padStart(12),
    median(outcomes.map((o) => o.seconds)).toFixed(1).padStart(10),
    (sum(outcomes.map((o) => o.attempts)) / Math.max(1, outcomes.length)).toFixed(2).padStart(10),
  ].join(' ');
}

/** Per-problem token budgets at which the two settings are compared. */
export const TOKEN_BUDGETS = [500, 1000, 2000, 4000] as const;

/**
 * Pass rates at equal token budget: a problem counts as solved within budget B when its run
 * passed and used at most B tokens in all (a fix loop that needed more is cut off: a failure).
 */
function budgetLines(s: EvalSummary): string[] {
  const within = (outcomes: Outcome[], budget: number) => {
    const solved = outcomes.filter((o) => o.pass && o.tokens <= budget).length;
    return `${solved}/${outcomes.length} (${pct(solved, outcomes.length)})`;
  };
  const base = s.results.map((r) => r.base);
  const fixed = s.results.map((r) => r.fixed);
  return [
    'pass rate at equal token budget (solved with at most B tokens per problem, all LLM calls counted):',
    `${'B tokens'.padEnd(16)} ${'max_retries 0'.padEnd(16)} max_retries ${s.retries}`,
    ...TOKEN_BUDGETS.map((b) => `${`≤ ${b}`.padEnd(16)} ${within(base, b).padEnd(16)} ${within(fixed, b)}`),
  ];
}

/** The report as text. */
export function formatReport(s: EvalSummary): string {
  const base = s.results.map((r) => r.base);
  const fixed = s.results.map((r) => r.fixed);
  const verify = s.verify ?? 'off';
  const verified = s.results.flatMap((r) => (r.verified ? [r.verified] : []));
  const turned = s.results.filter((r) => !r.base.pass && r.fixed.pass).length;
  const broke = s.results.filter((r) => r.base.pass && !r.fixed.pass).length;
  const baseFailures = s.results.filter((r) => !r.base.pass).length;
  const baseTokens = sum(base.map((o) => o.tokens));
  const fixedTokens = sum(fixed.map((o) => o.tokens));
  const basePassed = base.filter((o) => o.pass).length;
  const fixedPassed = fixed.filter((o) => o.pass).length;
  const extraTokens = fixedTokens - baseTokens;
  const extraSolved = fixedPassed - basePassed;
  const out = [
    `HumanEval agent evaluation: ${s.results.length} problems, provider ${s.provider}`,
    `requirement: the prompt + "${s.examples === 'assert' ? "check it on the docstring's examples with assert statements" : "show it working on the docstring's examples"}"`,
    `max_retries 0 ${s.separate ? 'ran separately' : 'read off the first attempt of the same runs (temperature 0: identical)'}`,
    '',
    `${'setting'.padEnd(LABEL_WIDTH)} ${'pass'.padEnd(16)} ${'silent fail'.padEnd(14)} ${'⚠️ shown'.padStart(10)} ${'tokens'.padStart(10)} ${'tok/solved'.padStart(12)} ${'median s'.padStart(10)} ${'code calls'.padStart(10)}`,
    line('max_retries 0', base),
    // with retries 0 both verified rows are the first attempt: judged by its asserts alone, and as the whole run showed it (agreement included)
    ...(verified.length ? [line(`verify ${verify}, retries 0${s.retries === 0 ? ', asserts' : ''}`, verified)] : []),
    line(verify === 'off' ? `max_retries ${s.retries}` : `verify ${verify}, retries ${s.retries}${s.retries === 0 ? ', run' : ''}`, fixed),
    '(silent fail: shown as ✅ success but the hidden tests fail; ⚠️ shown: ran, shown as not confirmed' +
      `${verified.length && s.retries === 0 ? "; 'asserts': the first attempt judged by its checks alone, 'run': what the run showed, agreement included" : ''})`,
    '',
    `fix loop engaged (first attempt failed in the sandbox or had no code) on ${s.results.filter((r) => r.fixed.attempts > 1).length} of ${s.results.length} problems`,
    `fix loop turned a failure into a pass: ${turned} of ${baseFailures} first-attempt failures (${pct(turned, baseFailures)}); turned a pass into a failure: ${broke}`,
    `gain: ${extraSolved >= 0 ? '+' : ''}${extraSolved} solved (${pct(basePassed, s.results.length)} → ${pct(fixedPassed, s.results.length)}) for ${extraTokens} more tokens (×${(fixedTokens / Math.max(1, baseTokens)).toFixed(2)})`,
    `equal token budget: ${
      extraSolved > 0
        ? `the fix loop's extra tokens bought one more solved problem per ${Math.round(extraTokens / extraSolved)} tokens`
        : `the fix loop's ${extraTokens} extra tokens solved no extra problem`
    }, against ${basePassed ? Math.round(baseTokens / basePassed) : '-'} tokens per solved problem for single attempts.` +
      ' At temperature 0 a retries-0 agent given the same extra budget as independent samples would redraw the same greedy answer and solve nothing more;' +
      ' the fix loop is the only way these tokens can buy solutions.',
    '',
    ...budgetLines(s),
  ];
  out.push(...localProviderLines(s.timings));
  return out.join('\n');
}
