/**
 * Who the work in progress is for, carried along every `await` by Node's AsyncLocalStorage
 * (https://nodejs.org/api/async_context.html#class-asynclocalstorage): a chat job sets its account
 * (channel and user, as its limits count them), a run's turn adds the run; the LLM and sandbox
 * meters (src/metrics) charge what they measure to it, and every log line written meanwhile
 * carries the run id and channel (src/log).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunUsage } from '../history/types.js';

/** What an LLM call is for (a metric label): the program, its checks, a review, or an independent program. */
export type LlmPurpose = 'code' | 'checks' | 'review' | 'agreement';

/** Who pays: the keys the ledger and the budgets count by (platform included, as in `slack:T1:C1`). */
export interface UsageAccount {
  /** `cli`, `slack`, `discord` (a metric label). */
  platform: string;
  channel: string;
  user: string;
}

/** The run being worked on. */
export interface RunScope {
  runId: string;
  /** Its conversation id (e.g. `slack:T1:C1`). */
  conversationId: string;
  /** Who asked for this turn (platform user id or name), if known. */
  user?: string;
  /** What it spent, added to as calls end (the run's stored `usage`, shared by reference). */
  usage: RunUsage;
  /** Token totals of the account's channel and user today, as the last addition returned. */
  lastTotals?: { channelTokens: number; userTokens: number };
}

/** The scope of the current async context. */
export interface WorkScope {
  account?: UsageAccount;
  run?: RunScope;
  purpose?: LlmPurpose;
}

const storage = new AsyncLocalStorage<WorkScope>();

/** The current scope; empty outside any job or run. */
export function currentScope(): WorkScope {
  return storage.getStore() ?? {};
}

/** Runs `fn` with `account` as the payer (a chat job: its limit key's channel and user). */
export function inAccount<T>(account: UsageAccount, fn: () => T): T {
  return storage.run({ ...currentScope(), account }, fn);
}

/** Runs `fn` as work of `run` (one turn). */
export function inRun<T>(run: RunScope, fn: () => T): T {
  return storage.run({ ...currentScope(), run }, fn);
}

/** Runs `fn` with its LLM calls counted as `purpose`. */
export function forPurpose<T>(purpose: LlmPurpose, fn: () => T): T {
  return storage.run({ ...currentScope(), purpose }, fn);
}

/** A run's usage before its first call. */
export function emptyRunUsage(): RunUsage {
  return { llmCalls: 0, promptTokens: 0, completionTokens: 0, llmMs: 0, executions: 0, cpuS: 0, toolCalls: 0 };
}

/**
 * The account of work outside a chat job (the terminal): its conversation is the channel, and the
 * user is the conversation's platform plus the user's name or id.
 */
export function accountOf(conversationId: string, user: string | undefined): UsageAccount {
  const platform = conversationId.split(':', 1)[0] || 'cli';
  return { platform, channel: conversationId, user: `${platform}:${user ?? 'unknown'}` };
}
