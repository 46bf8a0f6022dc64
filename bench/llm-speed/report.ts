/** The tables of `bench/llm-speed.ts`: per call kind and setting, and the concurrency comparison. */
import { median, sum } from '../shared/stats.js';
import type { CallKind, TimedCall } from './scenario.js';

/** Everything one setting measured. */
export interface SettingResult {
  name: string;
  calls: TimedCall[];
  /** Requests whose first attempt the checker accepted. */
  passes: number;
  requests: number;
}

/** Two requests at once against one after the other. */
export interface ConcurrencyResult {
  /** Wall time of both, in ms: served one after the other (parallel 1) and together (parallel 2). */
  sequentialMs: number;
  togetherMs: number;
  /** When each request finished, in ms after both were sent. */
  sequentialEnds: number[];
  togetherEnds: number[];
  /** Both runs produced the same replies. */
  sameReplies: boolean;
}

const KINDS: CallKind[] = ['first', 'checks', 'fix', 'improve'];
const s = (ms: number) => (ms / 1000).toFixed(2);

function acceptance(calls: readonly TimedCall[]): string {
  const v = sum(calls.map((c) => c.timing.predictions.validated));
  const r = sum(calls.map((c) => c.timing.predictions.refuted));
  return v + r === 0 ? '-' : `${((100 * v) / (v + r)).toFixed(0)}% of ${v + r}`;
}

/** Replies of `calls` equal to the baseline's reply of the same call (every setting makes the same calls in the same order). */
function identical(calls: readonly TimedCall[], baseline: readonly TimedCall[]): number {
  return calls.filter((c, i) => baseline[i]?.request === c.request && baseline[i]?.kind === c.kind && baseline[i]?.content === c.content).length;
}

/** The report, as lines. The first setting is the baseline the ratios refer to. */
export function formatReport(model: string, settings: readonly SettingResult[], concurrency?: ConcurrencyResult): string[] {
  const base = settings[0]!;
  const lines = [
    `model ${model}; ${base.requests} requests; times are medians; "× base" = baseline's total time / this setting's (sum over the requests)`,
    '',
    'kind     setting        n  ttft s  tok/s  total s   × base  reused/prompt tok  predictions accepted',
  ];
  for (const kind of KINDS) {
    const baseCalls = base.calls.filter((c) => c.kind === kind);
    for (const setting of settings) {
      const calls = setting.calls.filter((c) => c.kind === kind);
      const ratio = sum(baseCalls.map((c) => c.timing.totalMs)) / Math.max(1, sum(calls.map((c) => c.timing.totalMs)));
      lines.push(
        [
          kind.padEnd(8),
          setting.name.padEnd(13),
          String(calls.length).padStart(2),
          s(median(calls.map((c) => c.timing.timeToFirstTokenMs))).padStart(7),
          median(calls.map((c) => c.timing.tokensPerSecond)).toFixed(1).padStart(6),
          s(median(calls.map((c) => c.timing.totalMs))).padStart(8),
          `${ratio.toFixed(2)}×`.padStart(8),
          `${sum(calls.map((c) => c.timing.reusedPromptTokens))}/${sum(calls.map((c) => c.timing.promptTokens))}`.padStart(18),
          ` ${acceptance(calls)}`,
        ].join(' '),
      );
    }
  }
  lines.push('', 'first attempt of the first request (baseline: nothing cached; others: system prompts read ahead at startup):');
  for (const setting of settings) {
    const first = setting.calls.filter((c) => c.kind === 'first' && c.position === 0);
    lines.push(`  ${setting.name.padEnd(13)} time to first token ${s(median(first.map((c) => c.timing.timeToFirstTokenMs)))} s`);
  }
  lines.push('', 'first attempt of a request after the first (the cache holds the system prompt):');
  for (const setting of settings) {
    const later = setting.calls.filter((c) => c.kind === 'first' && c.position > 0);
    lines.push(`  ${setting.name.padEnd(13)} time to first token median ${s(median(later.map((c) => c.timing.timeToFirstTokenMs)))} s (n=${later.length})`);
  }
  lines.push('', 'pass rate of the first attempts (request checkers) and replies identical to the baseline:');
  for (const setting of settings) {
    lines.push(`  ${setting.name.padEnd(13)} pass ${setting.passes}/${setting.requests}; identical replies ${identical(setting.calls, base.calls)}/${setting.calls.length}`);
  }
  if (concurrency) {
    const c = concurrency;
    lines.push(
      '',
      'two first attempts sent at once (warm cache):',
      `  one after the other (parallel 1): ${s(c.sequentialMs)} s in all; finished at ${c.sequentialEnds.map(s).join(' s and ')} s`,
      `  together, batched (parallel 2):   ${s(c.togetherMs)} s in all; finished at ${c.togetherEnds.map(s).join(' s and ')} s`,
      `  throughput ratio ${(c.sequentialMs / c.togetherMs).toFixed(2)}×; same replies: ${c.sameReplies ? 'yes' : 'no'}`,
    );
  }
  return lines;
}
