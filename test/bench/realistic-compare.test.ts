/** The realistic bench's comparison against a baseline (per call kind) and its run-deadline option. */
import { describe, expect, it } from 'vitest';
import { comparisonLines } from '../../bench/realistic/speed-report.js';
import { parseRealisticArgs } from '../../bench/realistic/args.js';
import type { Outcome } from '../../bench/realistic/evaluate.js';
import { UsageError } from '../../bench/shared/errors.js';

const outcome = (pass: boolean, calls: Outcome['callRecords']): Outcome => ({
  pass,
  reason: '',
  status: 'unverified',
  tokens: (calls ?? []).reduce((s, c) => s + (c.promptTokens ?? 0) + (c.completionTokens ?? 0), 0),
  seconds: 10,
  calls: calls?.length ?? 0,
  attempts: 1,
  callRecords: calls,
});

describe('comparisonLines', () => {
  it('compares prompt and completion tokens per call of each kind, and calls per request', () => {
    const before = [
      outcome(true, [{ kind: 'code', promptTokens: 900, completionTokens: 200 }, { kind: 'independent', promptTokens: 850, completionTokens: 150 }]),
      outcome(false, [{ kind: 'code', promptTokens: 700, completionTokens: 100 }, { kind: 'improve', promptTokens: 2000, completionTokens: 190 }]),
    ];
    const after = [
      outcome(true, [{ kind: 'code', promptTokens: 800, completionTokens: 150 }, { kind: 'independent', promptTokens: 800, completionTokens: 120 }]),
      outcome(false, [{ kind: 'code', promptTokens: 600, completionTokens: 90 }]),
    ];
    const lines = comparisonLines('verify checks, retries 3', before, after, { before: 60, after: 62 }).join('\n');
    expect(lines).toMatch(/code prompt tokens per call +800 +700 +×0\.88/);
    expect(lines).toMatch(/code completion tokens per call +150 +120 +×0\.80/);
    expect(lines).toMatch(/independent prompt tokens per call +850 +800 +×0\.94/);
    // a kind only one side made has no row
    expect(lines).not.toMatch(/improve prompt/);
    expect(lines).toMatch(/LLM calls per request +2\.00 +1\.50 +×0\.75/);
    expect(lines).toMatch(/pass \(checker\) +1 +1 +×1\.00/);
  });
});

describe('--run-timeout-s', () => {
  it("is the agent's run deadline in s, 0 for none, absent by default; anything else is a usage error", () => {
    expect(parseRealisticArgs(['--run-timeout-s', '0']).runTimeoutS).toBe(0);
    expect(parseRealisticArgs(['--run-timeout-s', '300']).runTimeoutS).toBe(300);
    expect(parseRealisticArgs([]).runTimeoutS).toBeUndefined();
    expect(() => parseRealisticArgs(['--run-timeout-s', '-5'])).toThrow(UsageError);
    expect(() => parseRealisticArgs(['--run-timeout-s', 'soon'])).toThrow(/--run-timeout-s: a whole number of seconds/);
  });
});
