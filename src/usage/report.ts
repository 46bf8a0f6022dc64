/**
 * Usage reports (`code-agent usage`, the `/usage` chat command): the ledger's rows added up per
 * channel, per user or per day, as a table for people or as JSON, with money when
 * `limits.budgets.price_per_1k_tokens` is set.
 */
import { USAGE_FIELDS, utcDay, zeroCounts, type UsageCounts, type UsageRow } from '../history/usage.js';
import { formatMoney } from './budgets.js';

/** What rows are grouped by. */
export type UsageGrouping = 'channel' | 'user' | 'day';

/** The groupings, as the command line and chat spell them. */
export const USAGE_GROUPINGS: readonly UsageGrouping[] = ['channel', 'user', 'day'];

/** One line of a report. */
export interface UsageLine extends UsageCounts {
  /** The channel, user or day. */
  key: string;
  /** prompt + completion */
  tokens: number;
  /** What the tokens cost, when a price is set. */
  cost?: number;
}

/** A whole report (the `--json` shape). */
export interface UsageReport {
  /** First and last UTC day covered, `YYYY-MM-DD`. */
  from: string;
  to: string;
  by: UsageGrouping;
  lines: UsageLine[];
  total: UsageLine;
  /** The price's currency, when a price is set. */
  currency?: string;
}

/** An input the report cannot take; `message` names the option and what it expects. */
export class UsageInputError extends Error {
  override name = 'UsageInputError';
}

/**
 * The first UTC day of a `--since` value: `30d` (the last 30 days, today included), `4w`, or a date `2025-01-31`.
 * @throws {UsageInputError} for anything else, or more than 400 days back
 */
export function sinceDay(text: string, now = Date.now()): string {
  const t = text.trim();
  const span = /^(\d{1,3})([dw])$/.exec(t);
  if (span) {
    const days = Number(span[1]) * (span[2] === 'w' ? 7 : 1);
    if (days < 1 || days > 400) throw new UsageInputError(`--since ${t}: expected 1 to 400 days`);
    return utcDay(now - (days - 1) * 86_400_000);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(t) && !Number.isNaN(Date.parse(`${t}T00:00:00Z`)) && utcDay(Date.parse(`${t}T00:00:00Z`)) === t) return t;
  throw new UsageInputError(`--since "${t}": expected a number of days like 30d, weeks like 4w, or a date like 2025-01-31`);
}

/**
 * Adds rows up per `by`, largest token count first (days: newest first).
 * @param pricePer1k money per 1000 tokens, when known
 */
export function usageReport(rows: UsageRow[], by: UsageGrouping, from: string, to: string, price?: { pricePer1k: number; currency: string }): UsageReport {
  const groups = new Map<string, UsageCounts>();
  const total = zeroCounts();
  for (const row of rows) {
    const key = by === 'channel' ? row.channel : by === 'user' ? row.user : row.day;
    const sum = groups.get(key) ?? zeroCounts();
    for (const f of USAGE_FIELDS) {
      sum[f] += row[f];
      total[f] += row[f];
    }
    groups.set(key, sum);
  }
  const line = (key: string, c: UsageCounts): UsageLine => {
    const tokens = c.promptTokens + c.completionTokens;
    return { key, ...c, tokens, ...(price ? { cost: (tokens / 1000) * price.pricePer1k } : {}) };
  };
  const lines = [...groups].map(([k, c]) => line(k, c));
  lines.sort(by === 'day' ? (a, b) => b.key.localeCompare(a.key) : (a, b) => b.tokens - a.tokens || a.key.localeCompare(b.key));
  return { from, to, by, lines, total: line('total', total), ...(price ? { currency: price.currency } : {}) };
}

/** The report as an aligned text table (no markup: chat puts it in a code block). */
export function usageTable(report: UsageReport): string {
  const head = [report.by, 'runs', 'LLM calls', 'prompt tok', 'compl. tok', 'tokens', 'LLM time', 'CPU s', 'tool calls', ...(report.currency ? [`cost ${report.currency}`] : [])];
  const cells = (l: UsageLine) => [
    l.key,
    String(l.runs),
    String(l.llmCalls),
    l.promptTokens.toLocaleString('en-US'),
    l.completionTokens.toLocaleString('en-US'),
    l.tokens.toLocaleString('en-US'),
    duration(l.llmMs),
    (l.cpuMs / 1000).toFixed(1),
    String(l.toolCalls),
    ...(l.cost !== undefined ? [formatMoney(l.cost, report.currency!).split(' ')[0]!] : []),
  ];
  const table = [head, ...report.lines.map(cells), cells(report.total)];
  const widths = head.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const render = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const title = `Usage from ${report.from} to ${report.to} (UTC), by ${report.by}`;
  if (report.lines.length === 0) return `${title}: nothing recorded.`;
  return [title, '', render(head), ...report.lines.map((l) => render(cells(l))), render(cells(report.total))].join('\n');
}

/** `1 h 02 min`, `3 min 05 s`, `12.3 s`. */
function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
