/** The team bench's summary and its printed report. */
import { median, pct } from '../shared/stats.js';

/** One ask of a paraphrase. */
export interface AskResult {
  pass: boolean;
  reason: string;
  status: string;
  /** Time to the final answer (the run's end), in s. */
  seconds: number;
  attempts: number;
  /** What the run was given from memory (absent: nothing). */
  used?: { definitions: { id: string; text: string }[]; examples: { id: string; runId: string }[] };
  /** The last 400 characters of the last attempt's stderr, when it wrote any (to read why a run failed). */
  stderrTail?: string;
  /** With memory: whether the run was given its own case's convention. */
  gotOwn?: boolean;
}

/** One case: its paraphrase asked without and with memory. */
export interface TeamResult {
  id: string;
  teach: 'definition' | 'example';
  without: AskResult;
  with: AskResult;
}

/** The `--json` file. */
export interface TeamSummary {
  provider: string;
  verify: string;
  retries: number;
  results: TeamResult[];
}

/** The report: accuracy without and with memory (all, by way of teaching), the difference, median times. */
export function formatTeamReport(s: TeamSummary): string {
  const r = s.results;
  const n = r.length;
  const passed = (side: 'without' | 'with', list = r) => list.filter((x) => x[side].pass).length;
  const points = n === 0 ? 0 : (100 * (passed('with') - passed('without'))) / n;
  const byTeach = (['definition', 'example'] as const).map((t) => {
    const list = r.filter((x) => x.teach === t);
    return `  taught by ${t.padEnd(10)} ${String(list.length).padStart(2)} cases: without ${passed('without', list)}/${list.length}, with ${passed('with', list)}/${list.length}`;
  });
  const lines = [
    `team set, ${s.provider}, verify ${s.verify}, retries ${s.retries}: ${n} paraphrases`,
    `accuracy without memory: ${passed('without')}/${n} (${pct(passed('without'), n)})`,
    `accuracy with memory:    ${passed('with')}/${n} (${pct(passed('with'), n)})  → ${points >= 0 ? '+' : ''}${points.toFixed(1)} points`,
    ...byTeach,
    `given its own convention: ${r.filter((x) => x.with.gotOwn).length}/${n}`,
    `median time to the final answer: without ${median(r.map((x) => x.without.seconds)).toFixed(1)} s, with ${median(r.map((x) => x.with.seconds)).toFixed(1)} s`,
    '',
    ...r.map((x) => `${x.id.padEnd(24)} without ${x.without.pass ? 'pass' : 'FAIL'} ${x.without.status.padEnd(10)} with ${x.with.pass ? 'pass' : 'FAIL'} ${x.with.status.padEnd(10)}${x.with.pass ? '' : ` ${x.with.reason}`}`),
  ];
  return lines.join('\n');
}
