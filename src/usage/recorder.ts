/**
 * Charges what the LLM and the sandbox meters measured to the work in progress (src/usage/scope.ts):
 * the run's own `usage` (stored with it), the shared ledger (per day, channel and user), and the
 * budget gauge. A ledger that cannot be written never fails a run: it is logged (and the store's
 * failure is counted by the metrics).
 */
import type { TokenUsage } from '../llm/types.js';
import { utcDay, type UsageCounts, type UsageLedger } from '../history/usage.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Budgets } from './budgets.js';
import { accountOf, currentScope, type UsageAccount, type WorkScope } from './scope.js';

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

  /** An LLM call ended: its tokens and how long it took, in ms. */
  async llmCall(usage: TokenUsage, ms: number): Promise<void> {
    const run = currentScope().run;
    if (run) {
      run.usage.llmCalls += 1;
      run.usage.promptTokens += usage.promptTokens;
      run.usage.completionTokens += usage.completionTokens;
      run.usage.llmMs += Math.round(ms);
    }
    await this.charge({ llmCalls: 1, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, llmMs: ms });
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

  private async charge(counts: Partial<UsageCounts>): Promise<void> {
    const scope = currentScope();
    const account = accountIn(scope);
    if (!account) return;
    const day = utcDay(this.now());
    try {
      const totals = await this.deps.ledger.add({ day, channel: account.channel, user: account.user }, counts);
      if (scope.run) scope.run.lastTotals = totals;
      const shares = this.deps.budgets && account.platform !== 'cli' ? this.deps.budgets.shares(totals) : {};
      for (const [budget, share] of Object.entries(shares)) this.deps.metrics?.budgetShare(budget as 'channel_day' | 'user_day', share, day);
    } catch (err) {
      if (this.now() - this.lastComplaint < 60_000) return;
      this.lastComplaint = this.now();
      this.deps.log?.(`usage not recorded (the run goes on): ${(err as Error).message}`);
    }
  }
}

/** The account the scope's work is charged to: its chat job's, else its run's conversation and requester. */
function accountIn(scope: WorkScope): UsageAccount | undefined {
  if (scope.account) return scope.account;
  return scope.run ? accountOf(scope.run.conversationId, scope.run.user) : undefined;
}
