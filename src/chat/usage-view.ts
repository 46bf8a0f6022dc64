/**
 * The `/usage` chat command, once for every platform: who may use it (an admin list of its own:
 * `slack.admin_users`, `discord.admin_users` / `admin_roles`; empty: nobody), its arguments
 * (`[channel|user|day] [30d|4w|2025-01-31]`, defaults `channel` and `30d`) and its answer (plain
 * title and the report's lines, shown by each platform's answer markup as a notice).
 */
import { utcDay, type UsageLedger } from '../history/usage.js';
import type { BudgetLimits } from '../usage/budgets.js';
import { sinceDay, usageReport, usageTable, UsageInputError, USAGE_GROUPINGS, type UsageGrouping } from '../usage/report.js';
import type { Notice } from './verification.js';

/** Who may use `/usage` on a platform: its admin users, and admin roles where it has roles (Discord); all empty: nobody. */
export interface UsageAdmins {
  users: readonly string[];
  roles?: readonly string[];
  /** The config keys that list them, named in the refusal (`slack.admin_users`). */
  keys: string;
}

/** The refusal of `who` (a platform user id, and its role ids where the platform has roles) when it is none of `admins`; undefined for an admin. */
export function usageRefusal(admins: UsageAdmins, who: { userId: string; roleIds?: readonly string[] }): string | undefined {
  if (admins.users.includes(who.userId) || (who.roleIds ?? []).some((r) => admins.roles?.includes(r))) return undefined;
  return `/usage is for admins only. Ask an operator to add you to ${admins.keys}.`;
}

/** What `/usage` was given, read from its text. @throws {UsageInputError} naming what it expects */
export function usageArgs(text: string, now = Date.now()): { by: UsageGrouping; from: string } {
  let by: UsageGrouping = 'channel';
  let since = '30d';
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    if ((USAGE_GROUPINGS as readonly string[]).includes(word)) by = word as UsageGrouping;
    else since = word;
  }
  try {
    return { by, from: sinceDay(since, now) };
  } catch (err) {
    if (err instanceof UsageInputError) throw new UsageInputError(`${err.message.replace(/^--since /, '')}. Usage: /usage [channel|user|day] [30d]`);
    throw err;
  }
}

/**
 * The answer to `/usage <text>`: a title (with the budgets, when set) and the report's table as
 * the notice's lines (shown in a code block: src/chat/view/text-view.ts). A mistake in the text is
 * answered as a title alone, saying what is expected; a ledger that cannot be read, as a warning
 * title naming why. Never rejects.
 */
export async function usageReply(ledger: UsageLedger, limits: BudgetLimits, text: string, now = Date.now()): Promise<Notice> {
  return readUsage(ledger, limits, text, now).catch(usageUnreadable);
}

/** {@link usageReply} before a ledger's failure is answered. */
async function readUsage(ledger: UsageLedger, limits: BudgetLimits, text: string, now: number): Promise<Notice> {
  let args;
  try {
    args = usageArgs(text, now);
  } catch (err) {
    if (err instanceof UsageInputError) return { title: err.message, lines: [] };
    throw err;
  }
  const to = utcDay(now);
  const rows = await ledger.rows(args.from, to);
  const price = limits.pricePer1kTokens !== undefined ? { pricePer1k: limits.pricePer1kTokens, currency: limits.currency } : undefined;
  const [title, , ...table] = usageTable(usageReport(rows, args.by, args.from, to, price)).split('\n');
  if (table.length === 0) return { title: title!, lines: [] };
  const budgets = [
    limits.channelTokensPerDay !== undefined ? `${limits.channelTokensPerDay.toLocaleString('en-US')} tokens per channel per day` : undefined,
    limits.userTokensPerDay !== undefined ? `${limits.userTokensPerDay.toLocaleString('en-US')} per user per day` : undefined,
  ].filter(Boolean);
  return { title: `${title}${budgets.length ? `; budgets: ${budgets.join(', ')}` : ''}`, lines: table };
}

/** What `/usage` answers when the ledger cannot be read. */
function usageUnreadable(err: unknown): Notice {
  return { title: `⚠️ The usage could not be read: ${(err as Error)?.message ?? String(err)}`, lines: [] };
}
