/** Prints the figures of a realistic-request evaluation. */
import type { CompletionTiming } from '../../src/llm/local.js';
import { localProviderLines } from '../shared/report.js';
import { median, pct, sum } from '../shared/stats.js';
import type { Outcome, RequestResult, VerifyMode } from './evaluate.js';
import { reuseLine, speedLines } from './speed-report.js';
import { twoAgainstOneLines } from './independents.js';

/** Everything the report needs (also the `--json` file). */
export interface RealisticSummary {
  provider: string;
  retries: number;
  /** The verify settings compared, `off` first. */
  verify: VerifyMode[];
  separate: boolean;
  results: RequestResult[];
  timings: CompletionTiming[];
}

/** One row of the table: a verify mode and a fix-loop budget. */
interface Setting {
  label: string;
  outcomes: Outcome[];
  ids: string[];
}

/** The rows: each verify mode with retries 0 and with the run's retries (one row when that is 0 too). */
function settingsOf(s: RealisticSummary): Setting[] {
  const budgets = s.retries === 0 ? (['fixed'] as const) : (['base', 'fixed'] as const);
  return s.verify.flatMap((verify, v) =>
    budgets.map((which) => ({
      label: `verify ${verify}, retries ${which === 'base' ? 0 : s.retries}`,
      outcomes: s.results.map((r) => r.byVerify[v]![which]),
      ids: s.results.map((r) => r.id),
    })),
  );
}

/** Counts of one setting: checker passes, and what the user was shown. */
export function countsOf(outcomes: readonly Outcome[]) {
  const shown = (status: string) => outcomes.filter((o) => o.status === status);
  const success = shown('success');
  const unverified = shown('unverified');
  return {
    n: outcomes.length,
    pass: outcomes.filter((o) => o.pass).length,
    success: success.length,
    /** ✅ but the checker says wrong. */
    silent: success.filter((o) => !o.pass).length,
    unverified: unverified.length,
    unverifiedWrong: unverified.filter((o) => !o.pass).length,
    failed: outcomes.filter((o) => o.status !== 'success' && o.status !== 'unverified').length,
    failedRight: outcomes.filter((o) => o.status !== 'success' && o.status !== 'unverified' && o.pass).length,
  };
}

function row(setting: Setting): string {
  const c = countsOf(setting.outcomes);
  const o = setting.outcomes;
  return [
    setting.label.padEnd(26),
    `${c.pass}/${c.n} (${pct(c.pass, c.n)})`.padEnd(15),
    `${c.silent} (${pct(c.silent, c.n)}; ${pct(c.silent, c.success)} of ✅)`.padEnd(24),
    `${c.unverified} (${c.unverifiedWrong} wrong)`.padEnd(14),
    `${c.failed} (${c.failedRight} right)`.padEnd(13),
    String(sum(o.map((x) => x.tokens))).padStart(8),
    median(o.map((x) => x.seconds)).toFixed(1).padStart(9),
    (sum(o.map((x) => x.calls)) / Math.max(1, o.length)).toFixed(2).padStart(10),
  ].join(' ');
}

function byKind(s: RealisticSummary, settings: Setting[]): string[] {
  const kinds = [...new Set(s.results.map((r) => r.kind))];
  return [
    `${'pass by kind'.padEnd(14)} ${settings.map((x) => x.label.padEnd(26)).join(' ')}`,
    ...kinds.map((kind) => {
      const idx = s.results.map((r, i) => (r.kind === kind ? i : -1)).filter((i) => i >= 0);
      const cells = settings.map((x) => `${idx.filter((i) => x.outcomes[i]!.pass).length}/${idx.length}`.padEnd(26));
      return `${kind.padEnd(14)} ${cells.join(' ')}`;
    }),
  ];
}

function loopLines(s: RealisticSummary): string[] {
  if (s.retries === 0) return ['no fix loop (max_retries 0)'];
  return s.verify.map((verify, v) => {
    const pairs = s.results.map((r) => r.byVerify[v]!);
    const turned = pairs.filter((p) => !p.base.pass && p.fixed.pass).length;
    const broke = pairs.filter((p) => p.base.pass && !p.fixed.pass).length;
    const engaged = pairs.filter((p) => p.fixed.attempts > 1).length;
    return `verify ${verify}: fix loop engaged on ${engaged}, turned a wrong answer into a right one ${turned} times, a right one into a wrong one ${broke} times`;
  });
}

function silentLines(settings: Setting[]): string[] {
  let previous: { label: string; text: string } | undefined;
  return settings.flatMap((x) => {
    const silent = x.outcomes.map((o, i) => ({ o, id: x.ids[i]! })).filter(({ o }) => o.status === 'success' && !o.pass);
    if (!silent.length) return [];
    const text = silent.map(({ id, o }) => `${id} (${o.reason})`).join('; ');
    const line = text === previous?.text ? `✅ but wrong with ${x.label}: the same ${silent.length} as with ${previous.label}` : `✅ but wrong with ${x.label}: ${text}`;
    previous = { label: x.label, text };
    return [line];
  });
}

/** One outcome in a few characters: `pass`, `FAIL ✅` (silent), `FAIL ⚠️`, `FAIL ❌`, or `pass ⚠️`/`pass ❌`. */
function cell(o: Outcome): string {
  const shown = o.status === 'success' ? (o.pass ? '' : ' ✅') : o.status === 'unverified' ? ' ⚠️' : ' ❌';
  return `${o.pass ? 'pass' : 'FAIL'}${shown}`;
}

/** One line per request: its outcome under each setting, and the checker's reason for the last one when it failed. */
function requestLines(s: RealisticSummary, settings: Setting[]): string[] {
  const width = Math.max(...s.results.map((r) => r.id.length), 7);
  return [
    `${'request'.padEnd(width)}  ${settings.map((x) => x.label.padEnd(26)).join(' ')}`,
    ...s.results.map((r, i) => {
      const last = settings.at(-1)!.outcomes[i]!;
      const why = last.pass ? '' : `  ${last.reason}`;
      return `${r.id.padEnd(width)}  ${settings.map((x) => cell(x.outcomes[i]!).padEnd(26)).join(' ')}${why}`.trimEnd();
    }),
  ];
}

/** The report as text. */
export function formatReport(s: RealisticSummary): string {
  const settings = settingsOf(s);
  const kinds = new Map<string, number>();
  for (const r of s.results) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
  const out = [
    `Realistic requests: ${s.results.length} requests (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}), provider ${s.provider}`,
    "scored by each request's checker on the output the user is shown last, never by the run's status;",
    `max_retries 0 ${s.separate ? 'ran separately' : 'read off the first attempt of the max_retries runs (temperature 0: identical)'}`,
    '',
    `${'setting'.padEnd(26)} ${'pass (checker)'.padEnd(15)} ${'✅ but wrong (silent)'.padEnd(24)} ${'⚠️ unverified'.padEnd(14)} ${'❌ failed'.padEnd(13)} ${'tokens'.padStart(8)} ${'median s'.padStart(9)} ${'LLM calls'.padStart(10)}`,
    ...settings.map(row),
    '',
    ...loopLines(s),
    '',
    ...byKind(s, settings),
  ];
  const silent = silentLines(settings);
  if (silent.length) out.push('', ...silent);
  out.push('', 'speed (seconds from the requirement; the first answer is the first execution that exited 0):');
  for (const x of settings) out.push(...speedLines(x.label, x.outcomes));
  out.push(...reuseLine(s.timings));
  const agreements = s.results.flatMap((r) => r.byVerify.flatMap((v) => v.fixed.agreements ?? []));
  if (agreements.length > 0) out.push('', 'independent programs (two against one: both agree with each other, not with the attempt):', ...twoAgainstOneLines(agreements));
  out.push('', ...requestLines(s, settings));
  out.push(...localProviderLines(s.timings));
  return out.join('\n');
}
