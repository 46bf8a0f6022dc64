/**
 * Charges what the LLM and the sandbox meters measured to the work in progress (src/log/scope.ts):
 * the run's own `usage` (stored with it), the shared ledger (per day, channel and user), and the
 * budget gauge. Before an LLM call of an account with a budget, reserves the call's most tokens
 * (src/usage/reservations.ts) and settles them to its real usage after it. A ledger that cannot be
 * written or read never fails a run (nor refuses a call): it is logged (and the store's failure is
 * counted by the metrics).
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage, TokenUsage } from '../llm/types.js';
import { utcDay, type UsageCounts, type UsageKey, type UsageLedger, type UsageTotals } from '../history/usage.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Budgets } from './budgets.js';
import { accountOf, currentScope, type UsageAccount, type WorkScope } from '../log/scope.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { BudgetRefusedError, RESERVATION_POLL_MS, RESERVATION_RENEW_MS, RESERVATION_TTL_MS, RESERVATION_WAIT_MS, callTokensAtMost } from './reservations.js';

/** An LLM call's reservation in the ledger, from {@link UsageRecorder.reserve} to its settlement. */
export interface CallReservation {
  id: string;
  key: UsageKey;
  /** Tokens held. */
  tokens: number;
  /** Renews the reservation while the call runs. */
  renewal: NodeJS.Timeout;
}

/** What the recorder needs. */
export interface RecorderDeps {
  ledger: UsageLedger;
  budgets?: Budgets;
  metrics?: Metrics;
  /** The operator's log. */
  log?: (message: string) => void;
  /** The clock, in ms since the epoch (tests). */
  now?: () => number;
}

/** See the module comment. */
export class UsageRecorder {
  private readonly now: () => number;
  /** When the last ledger failure was logged (at most one line a minute). */
  private lastComplaint = 0;

  constructor(private readonly deps: RecorderDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** A new run started (its first turn). */
  async runStarted(): Promise<void> {
    await this.charge({ runs: 1 });
  }

  /**
   * Before an LLM call: reserves the most tokens it can cost (its prompt's bytes + `maxTokens`)
   * against its account's budgets, in the store, all or nothing. While it would fit once the calls
   * in progress settle, it waits for them (polling every {@link RESERVATION_POLL_MS}, at most
   * {@link RESERVATION_WAIT_MS}); when it cannot fit even then, it is refused at once. End the
   * reservation with {@link llmCall} (the call's usage) or {@link release} (the call failed).
   * @param maxTokens the call's longest reply, in tokens (undefined: not known)
   * @param signal stops the wait (its reason is thrown)
   * @returns the reservation; undefined when no budget applies or the store cannot answer (logged: the call is made)
   * @throws {BudgetRefusedError} when it does not fit in a budget: the call must not be made
   */
  async reserve(messages: readonly ChatMessage[], maxTokens: number | undefined, signal?: AbortSignal): Promise<CallReservation | undefined> {
    const budgets = this.deps.budgets;
    const account = accountIn(currentScope());
    if (!budgets || !account || !budgets.appliesTo(account)) return undefined;
    const key = { day: utcDay(this.now()), channel: account.channel, user: account.user };
    const tokens = callTokensAtMost(messages, maxTokens);
    const id = randomUUID();
    const { channelTokensPerDay, userTokensPerDay } = budgets.limits;
    const waitUntil = Date.now() + RESERVATION_WAIT_MS; // the real clock: `now` may be a test's fixed day
    for (;;) {
      let result;
      try {
        result = await this.deps.ledger.reserve({ id, key, tokens, channelLimit: channelTokensPerDay, userLimit: userTokensPerDay, ttlMs: RESERVATION_TTL_MS });
      } catch (err) {
        this.complain(`tokens not reserved (the LLM call is made): ${(err as Error).message}`);
        return undefined;
      }
      if (result.held) break;
      // room held by calls in progress comes back when they settle; spent tokens do not
      if (result.used + tokens > result.limit || Date.now() >= waitUntil) {
        this.deps.metrics?.budgetRefusals.inc({ budget: result.budget, stage: 'llm_call' });
        throw new BudgetRefusedError(budgets.callRefusalText(result, tokens), result.budget);
      }
      await sleep(RESERVATION_POLL_MS, undefined, { signal });
    }
    const renewal = setInterval(() => {
      this.deps.ledger.renew(id, key, RESERVATION_TTL_MS).catch((err: unknown) => this.complain(`a token reservation not renewed: ${(err as Error).message}`));
    }, RESERVATION_RENEW_MS);
    renewal.unref();
    return { id, key, tokens, renewal };
  }

  /** Ends the reservation of a call that failed (nothing is charged: the LLM reported no usage). */
  async release(reservation: CallReservation | undefined): Promise<void> {
    if (!reservation) return;
    clearInterval(reservation.renewal);
    try {
      await this.deps.ledger.settle(reservation.id, reservation.key, {});
    } catch (err) {
      this.complain(`a token reservation not ended (it expires by itself): ${(err as Error).message}`);
    }
  }

  /** An LLM call ended: its tokens and how long it took, in ms; `reservation` (its tokens held before) is settled to them. */
  async llmCall(usage: TokenUsage, ms: number, reservation?: CallReservation): Promise<void> {
    const run = currentScope().run;
    if (run) {
      run.usage.llmCalls += 1;
      run.usage.promptTokens += usage.promptTokens;
      run.usage.completionTokens += usage.completionTokens;
      run.usage.llmMs += Math.round(ms);
    }
    await this.charge({ llmCalls: 1, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, llmMs: ms }, reservation);
  }

  /** A sandbox execution ended: the CPU its programs used, in s, and their tool calls. */
  async execution(cpuS: number, toolCalls: number): Promise<void> {
    const run = currentScope().run;
    if (run) {
      run.usage.executions += 1;
      run.usage.cpuS = Math.round((run.usage.cpuS + cpuS) * 1000) / 1000;
      run.usage.toolCalls += toolCalls;
    }
    await this.charge({ executions: 1, cpuMs: cpuS * 1000, toolCalls });
  }

  /** Why the current run must stop after its current attempt (a budget is spent), or undefined. */
  stopReason(): string | undefined {
    const scope = currentScope();
    const account = accountIn(scope);
    return account && this.deps.budgets?.stopText(account, scope.run?.lastTotals);
  }

  private async charge(counts: Partial<UsageCounts>, reservation?: CallReservation): Promise<void> {
    if (reservation) clearInterval(reservation.renewal);
    const scope = currentScope();
    const account = accountIn(scope);
    // a call reserved before midnight (UTC) is charged to the day it was reserved on
    const key = reservation?.key ?? (account && { day: utcDay(this.now()), channel: account.channel, user: account.user });
    if (!key) return;
    try {
      const totals: UsageTotals = reservation ? await this.deps.ledger.settle(reservation.id, key, counts) : await this.deps.ledger.add(key, counts);
      if (scope.run) scope.run.lastTotals = totals;
      const shares = account && this.deps.budgets?.appliesTo(account) ? this.deps.budgets.shares(totals) : {};
      for (const [budget, share] of Object.entries(shares)) this.deps.metrics?.budgetShare(budget as 'channel_day' | 'user_day', share, key.day);
    } catch (err) {
      this.complain(`usage not recorded (the run goes on): ${(err as Error).message}`);
    }
  }

  /** Logs a ledger failure, at most one line a minute. */
  private complain(message: string): void {
    if (this.now() - this.lastComplaint < 60_000) return;
    this.lastComplaint = this.now();
    this.deps.log?.(message);
  }
}

/** The account the scope's work is charged to: its chat job's, else its run's conversation and requester. */
function accountIn(scope: WorkScope): UsageAccount | undefined {
  if (scope.account) return scope.account;
  return scope.run ? accountOf(scope.run.conversationId, scope.run.user) : undefined;
}
