/**
 * Comparisons by value in the checks: a check that compares `'21'` with `21`, or a printed
 * `ff: 255 777: 511` with `[255, 511]`, sees the same values in another form. The sandbox runner
 * sends the two sides of such a failed comparison (values of different types) as text; here they
 * are compared as agreement compares two answers (`agreement.ts`: numbers as numbers, whitespace,
 * labels and wrappers left out), and a comparison that holds the same values counts as passed.
 *
 * Two differences from agreement: a side that is a Python value (not text) has exact numbers (`0.5`
 * is not `0.49` rounded), so only printed text is read at its printed precision; and when the
 * request asks for a form (separated by commas, one per line, a format, decimal places…) two
 * strings that differ only in form still differ.
 */
import type { CheckReport, CheckResult } from '../../history/execution.js';
import { carries, sameAnswer } from './agreement.js';

/** A request that asks for a printed form: then strings in another form are another answer. */
const ASKS_FOR_FORM = /\b(?:separated|comma|semicolon|one per line|on (?:one|a single|its own|separate) lines?|format(?:ted)?|decimal places?|decimals|round(?:ed)? to|json|csv|exactly|upper ?case|lower ?case|capitali[sz]ed|padded|zero-padded)\b/i;

/** True when a failed comparison's two sides hold the same values (rules in the module doc). */
export function sameByValue(compared: NonNullable<CheckResult['compared']>, request: string): boolean {
  const [left, right] = compared.sides;
  const [leftText, rightText] = compared.text;
  if (leftText && rightText && ASKS_FOR_FORM.test(request)) return false;
  const options = { exactAnswer: !leftText, exactReference: !rightText };
  // `x in OUTPUT`: the printed text carries x's values (it may say more)
  if (compared.op === 'in') return carries(right, left, request, { exactAnswer: !rightText, exactReference: !leftText });
  return sameAnswer(left, right, request, options);
}

/**
 * The report with each failed comparison whose sides hold the same values ({@link sameByValue})
 * counted as passed (`byValue`, and its detail kept: `got '21', expected == 21`). Other results
 * are unchanged; a report whose checks could not run is returned as it is.
 */
export function withValueComparisons(report: CheckReport, request: string): CheckReport {
  if (report.error || !report.results.some((r) => !r.passed && r.compared)) return report;
  return {
    ...report,
    results: report.results.map((r) => (!r.passed && r.compared && sameByValue(r.compared, request) ? { ...r, passed: true, byValue: true } : r)),
  };
}
