/**
 * Wires the core from a validated config: LLM provider, sandbox executor, history store, agent.
 * Every adapter (CLI, Slack, Discord) starts from here.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { safeSegment } from '../history/ids.js';
import { memoryOptions } from '../memory/config.js';
import type { Config } from '../config/schema.js';
import { Agent } from '../agent/loop/index.js';
import { createLlmProvider } from '../llm/factory.js';
import { executorFromConfig } from '../sandbox/from-config.js';
import { KeyvHistoryStore } from '../history/keyv-store.js';
import { WorkspaceCache } from '../history/workspace-cache.js';
import { StaleRunRecovery } from '../history/stale-runs.js';
import type { HistoryStore } from '../history/types.js';
import type { LlmProvider } from '../llm/types.js';
import type { Executor } from '../sandbox/types.js';
import { toolboxFromConfig } from '../tools/from-config.js';
import type { Toolbox } from '../tools/toolbox.js';
import { Metrics, operationLabel } from '../metrics/metrics.js';
import { MeteredLlm } from '../usage/metered-llm.js';
import { MeteredExecutor } from '../usage/metered-executor.js';
import { MemoryUsageLedger, type UsageLedger } from '../history/usage.js';
import { Budgets, type BudgetLimits } from '../usage/budgets.js';
import { UsageRecorder } from '../usage/recorder.js';
import { packageVersion } from './version.js';

/** How often a process's workspace cache reads the store's log of forgotten contents besides before each use, in ms. */
export const CACHE_SYNC_MS = 60_000;

/** The wired core. */
export interface App {
  config: Config;
  llm: LlmProvider;
  executor: Executor;
  store: HistoryStore;
  /** The store as opened from `store.url` (its export, import and retention work on it); absent when a store was passed in. */
  keyvStore?: KeyvHistoryStore;
  agent: Agent;
  /** The tools programs may call (tools.http, tools.sql), per conversation. */
  tools: Toolbox;
  /** Host folder for artifacts, absolute. */
  artifactRoot: string;
  /** The process's metrics (undefined with `ops.metrics: false`). */
  metrics: Metrics | undefined;
  /** What runs spent, per day, channel and user (in the store when it keeps one). */
  usage: UsageLedger;
  /** The daily token budgets (`limits.budgets`). */
  budgets: Budgets;
  /** Closes the store, releases the executor's temp folder and frees the LLM provider the app built. */
  close(): Promise<void>;
}

/** Parts that tests or adapters may supply instead of building them from config. */
export interface AppOverrides {
  llm?: LlmProvider;
  executor?: Executor;
  store?: HistoryStore;
  /** Receives the executor's warnings (unisolated mode). Default: stderr. */
  warn?: (message: string) => void;
  /** Metrics to count into (tests, benches); null: none, whatever `ops.metrics` says. Default: new ones when `ops.metrics` is on. */
  metrics?: Metrics | null;
  /**
   * Load a local model in the background instead of before this returns (the interactive terminal:
   * commands that need no model answer at once). `until-used`: only when a request needs it (a team
   * program's run, which makes no LLM call). Default false.
   */
  deferLlmLoad?: boolean | 'until-used';
}

/**
 * Builds the core.
 * @throws {ConfigError} when no LLM is configured; {@link HistoryError} when the store cannot be opened.
 */
export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const rawLlm = overrides.llm ?? (await createLlmProvider(config.llm, { deferLoad: overrides.deferLlmLoad }));
  const warn = overrides.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  const metrics = overrides.metrics === null ? undefined : (overrides.metrics ?? (config.ops.metrics ? new Metrics(packageVersion()) : undefined));
  const inner = overrides.store ?? (await KeyvHistoryStore.open(config.store.url));
  if (metrics && inner instanceof KeyvHistoryStore) inner.onFailure((op) => metrics.storeErrors.inc({ operation: operationLabel(op) }));
  const store = new StaleRunRecovery(inner);
  const keyvStore = inner instanceof KeyvHistoryStore ? inner : undefined;
  // this machine's copies of workspace files, dropped when a run is deleted anywhere (the store's log)
  const artifactRoot = resolve(join(config.store.data_dir, 'artifacts'));
  const workspaceCache = new WorkspaceCache({
    warn,
    ...(keyvStore ? { forgotten: (limit: number) => keyvStore.forgottenWorkspaceContents(limit) } : {}),
    // a worker's outputs of a run deleted on another host go too
    onForgottenRun: (run) => rmSync(join(artifactRoot, safeSegment(run.conversationId), safeSegment(run.runId)), { recursive: true, force: true }),
  });
  const cacheSync = setInterval(() => void workspaceCache.sync(), CACHE_SYNC_MS);
  cacheSync.unref();
  const usage = store.usage ?? new MemoryUsageLedger();
  const budgets = new Budgets(budgetLimits(config), usage);
  const recorder = new UsageRecorder({ ledger: usage, budgets, metrics, log: warn });
  const llm = new MeteredLlm(rawLlm, metrics, recorder);
  const executor = new MeteredExecutor(overrides.executor ?? executorFromConfig(config.sandbox, { warn }), metrics, recorder);
  const tools = await toolboxFromConfig(config.tools);
  void tools.sql.engine.announce(warn); // a privileged SQL role, said at start (in the background: a slow database does not hold the start)
  const agent = new Agent({
    llm,
    executor,
    store,
    artifactRoot,
    maxRetries: config.agent.max_retries,
    maxRequirementChars: config.agent.max_requirement_chars,
    log: warn,
    verify: config.agent.verify,
    runTimeoutMs: config.agent.run_timeout_s * 1000,
    workspaceLimits: {
      maxFiles: config.workspace.max_files,
      maxBytes: config.workspace.max_bytes,
      maxConversationBytes: config.workspace.max_conversation_bytes,
    },
    tools,
    usage: recorder,
    metrics,
    // beside the sandbox's work roots: a turn restores from the store only what this machine lacks
    workspaceCache,
    memory: memoryOptions(config),
  });
  const close = async () => {
    clearInterval(cacheSync);
    await executor.close?.();
    await tools.close();
    await store.close();
    if (!overrides.llm) await rawLlm.dispose?.(); // a provider passed in belongs to the caller
  };
  return { config, llm, executor, store, ...(keyvStore ? { keyvStore } : {}), agent, tools, artifactRoot, metrics, usage, budgets, close };
}

/** `limits.budgets` as {@link Budgets} takes them. */
export function budgetLimits(config: Config): BudgetLimits {
  const b = config.limits.budgets;
  return {
    ...(b.tokens_per_channel_per_day !== undefined ? { channelTokensPerDay: b.tokens_per_channel_per_day } : {}),
    ...(b.tokens_per_user_per_day !== undefined ? { userTokensPerDay: b.tokens_per_user_per_day } : {}),
    ...(b.price_per_1k_tokens !== undefined ? { pricePer1kTokens: b.price_per_1k_tokens } : {}),
    currency: b.currency,
  };
}
