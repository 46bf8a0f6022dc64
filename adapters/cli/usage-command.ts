/**
 * `code-agent usage [--since 30d] [--by channel|user|day] [--json]`: what runs spent, read from the
 * store's usage ledger (shared by every process on the store), per channel, user or day.
 */
import type { Config } from '../../src/config/schema.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { utcDay } from '../../src/history/usage.js';
import { sinceDay, usageReport, usageTable, UsageInputError, USAGE_GROUPINGS, type UsageGrouping } from '../../src/usage/report.js';
import { InputError } from '../../src/config/errors.js';
import { EXIT } from './errors.js';

/** Options of the command. */
export interface UsageOptions {
  since: string;
  by: string;
  json: boolean;
}

/**
 * Prints the report on stdout.
 * @returns exit code 0
 * @throws {InputError} for a bad `--since` or `--by`; {@link HistoryStartupError} when the store cannot be opened.
 */
export async function runUsage(config: Config, opts: UsageOptions, out: (text: string) => void = (t) => process.stdout.write(t)): Promise<number> {
  if (!USAGE_GROUPINGS.includes(opts.by as UsageGrouping)) throw new InputError(`--by "${opts.by}": expected one of ${USAGE_GROUPINGS.join(', ')}`);
  let from: string;
  try {
    from = sinceDay(opts.since);
  } catch (err) {
    if (err instanceof UsageInputError) throw new InputError(err.message);
    throw err;
  }
  const to = utcDay();
  const store = await KeyvHistoryStore.open(config.store.url);
  try {
    const rows = await store.usage.rows(from, to);
    const b = config.limits.budgets;
    const report = usageReport(rows, opts.by as UsageGrouping, from, to, b.price_per_1k_tokens !== undefined ? { pricePer1k: b.price_per_1k_tokens, currency: b.currency } : undefined);
    out(opts.json ? `${JSON.stringify(report)}\n` : `${usageTable(report)}\n`);
  } finally {
    await store.close();
  }
  return EXIT.success;
}
