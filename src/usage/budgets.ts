/**
 * Daily token budgets (`limits.budgets`): per channel and per user, per UTC day, counted in the
 * shared usage ledger (src/history/usage.ts), so every process of a deployment enforces the same
 * numbers. A request is refused at admission while its channel's or its user's budget is spent;
 * each LLM call of a run is reserved in the store before it is made (src/usage/reservations.ts),
 * so calls in progress never take a budget past its limit: a call that does not fit is not made
 * and its run stops with its best answer so far ({@link Budgets.callRefusalText}); a run whose
 * budget is spent after an attempt finishes that attempt and stops (src/agent/loop/fix-loop.ts asks
 * {@link Budgets.stopText} between attempts). The terminal (`cli:`) has no budget.
 */
import { utcDay, type BudgetName, type UsageLedger, type UsageTotals } from '../history/usage.js';
import type { UsageAccount } from '../log/scope.js';

export type { BudgetName } from '../history/usage.js';

/** `limits.budgets` as the code uses it; an absent limit is no limit. */
export interface BudgetLimits {
  /** LLM tokens (prompt + completion) one channel may spend per UTC day. */
  channelTokensPerDay?: number;
  /** LLM tokens one user may spend per UTC day, over every channel. */
  userTokensPerDay?: number;
  /** Price of 1000 tokens (an API model), to show usage in money. */
  pricePer1kTokens?: number;
  /** The price's currency, e.g. `USD`. */
  currency: string;
}

/** A budget that is spent. */
export interface SpentBudget {
  budget: BudgetName;
  limit: number;
  used: number;
}

/** Why a request is refused at admission: the spent budget and the message. */
export interface BudgetRefusal {
  budget: BudgetName;
  text: string;
}

/** A call's reservation that did not fit (the ledger's answer). */
export interface CallRefusal {
  budget: BudgetName;
  limit: number;
  /** Tokens spent today. */
  used: number;
  /** Tokens held today by other calls in progress. */
  reserved: number;
}

/** See the module comment. */
export class Budgets {
  /**
   * @param limits the configured limits
   * @param ledger where usage is counted
   * @param now the clock, in ms since the epoch (tests)
   */
  constructor(
    readonly limits: BudgetLimits,
    private readonly ledger: UsageLedger,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when at least one token budget is set. */
  get active(): boolean {
    return this.limits.channelTokensPerDay !== undefined || this.limits.userTokensPerDay !== undefined;
  }

  /**
   * Why a new request of `account` is refused, or undefined while its budgets have tokens left.
   * @throws the store's errors (the caller decides: admission lets the request through)
   */
  async refusal(account: UsageAccount): Promise<BudgetRefusal | undefined> {
    if (!this.appliesTo(account)) return undefined;
    const totals = await this.ledger.totals({ day: utcDay(this.now()), channel: account.channel, user: account.user });
    const spent = this.spent(totals);
    return spent && { budget: spent.budget, text: `${spentText(spent, this.limits)} ${this.resetText()}` };
  }

  /**
   * Why an LLM call was not made: `stopped before the next LLM call: this channel's daily budget of
   * 9,000 LLM tokens (limits.budgets.tokens_per_channel_per_day) has 1,000 left today (8,000 used,
   * 0 reserved by calls in progress), and the call may use up to 3,512. It resets at 00:00 UTC, in 9 h 59 min.`
   * @param tokens the call's reservation
   */
  callRefusalText(refused: CallRefusal, tokens: number): string {
    const n = (x: number) => x.toLocaleString('en-US');
    const left = Math.max(0, refused.limit - refused.used - refused.reserved);
    return (
      `stopped before the next LLM call: ${budgetWords(refused.budget, refused.limit, this.limits)} has ${n(left)} left today ` +
      `(${n(refused.used)} used, ${n(refused.reserved)} reserved by calls in progress), and the call may use up to ${n(tokens)}. ${this.resetText()}`
    );
  }

  /** Why a run of `account` stops after its current attempt, from the day's totals its last call returned; undefined: it goes on. */
  stopText(account: UsageAccount, totals: UsageTotals | undefined): string | undefined {
    if (!totals || !this.appliesTo(account)) return undefined;
    const spent = this.spent(totals);
    return spent && `stopped after this attempt: ${spentText(spent, this.limits).replace(/^(This|You)/, (w) => w.toLowerCase())} ${this.resetText()}`;
  }

  /** The first budget `totals` reach, or undefined. */
  spent(totals: UsageTotals): SpentBudget | undefined {
    const { channelTokensPerDay: c, userTokensPerDay: u } = this.limits;
    if (c !== undefined && totals.channelTokens >= c) return { budget: 'channel_day', limit: c, used: totals.channelTokens };
    if (u !== undefined && totals.userTokens >= u) return { budget: 'user_day', limit: u, used: totals.userTokens };
    return undefined;
  }

  /** The shares of each set budget that `totals` use (1 = spent). */
  shares(totals: UsageTotals): Partial<Record<BudgetName, number>> {
    const { channelTokensPerDay: c, userTokensPerDay: u } = this.limits;
    return {
      ...(c !== undefined ? { channel_day: totals.channelTokens / c } : {}),
      ...(u !== undefined ? { user_day: totals.userTokens / u } : {}),
    };
  }

  /** `It resets at 00:00 UTC, in 5 h 12 min.` */
  resetText(): string {
    const now = this.now();
    const next = Date.parse(`${utcDay(now)}T00:00:00Z`) + 86_400_000;
    const minutes = Math.max(1, Math.ceil((next - now) / 60_000));
    const h = Math.floor(minutes / 60);
    return `It resets at 00:00 UTC, in ${h > 0 ? `${h} h ` : ''}${minutes % 60} min.`;
  }

  /** True when a budget is set and `account` has one (the terminal has none). */
  appliesTo(account: UsageAccount): boolean {
    return this.active && account.platform !== 'cli';
  }
}

/** `This channel has used its daily budget of 2,000,000 LLM tokens (limits.budgets.tokens_per_channel_per_day): 2,000,410 used today.` */
function spentText(spent: SpentBudget, limits: BudgetLimits): string {
  const who = spent.budget === 'channel_day' ? 'This channel' : 'You';
  const has = spent.budget === 'channel_day' ? 'has used its' : 'have used your';
  const key = spent.budget === 'channel_day' ? 'tokens_per_channel_per_day' : 'tokens_per_user_per_day';
  const money = limits.pricePer1kTokens !== undefined ? ` (${formatMoney((spent.limit / 1000) * limits.pricePer1kTokens, limits.currency)})` : '';
  return `${who} ${has} daily budget of ${spent.limit.toLocaleString('en-US')} LLM tokens${money} (limits.budgets.${key}): ${spent.used.toLocaleString('en-US')} used today.`;
}

/** `this channel's daily budget of 2,000,000 LLM tokens (1.20 USD) (limits.budgets.tokens_per_channel_per_day)`; `your daily budget of …`. */
function budgetWords(budget: BudgetName, limit: number, limits: BudgetLimits): string {
  const whose = budget === 'channel_day' ? "this channel's" : 'your';
  const key = budget === 'channel_day' ? 'tokens_per_channel_per_day' : 'tokens_per_user_per_day';
  const money = limits.pricePer1kTokens !== undefined ? ` (${formatMoney((limit / 1000) * limits.pricePer1kTokens, limits.currency)})` : '';
  return `${whose} daily budget of ${limit.toLocaleString('en-US')} LLM tokens${money} (limits.budgets.${key})`;
}

/** `1.20 USD`: two decimals, or four below one unit. */
export function formatMoney(amount: number, currency: string): string {
  return `${amount.toFixed(amount !== 0 && Math.abs(amount) < 1 ? 4 : 2)} ${currency}`;
}
