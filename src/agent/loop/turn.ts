/**
 * One turn of a run (a call: run, improve, execute, generate): the run's turn lease, the run read
 * again, its workspace opened, the body under the run's deadline, and a failure turned into the
 * run's end. `agent.ts` calls {@link runTurn} for each entry point.
 */
import type { HistoryStore, Run } from '../../history/types.js';
import type { WorkspaceLimits } from '../../history/workspace.js';
import { thisProcess } from '../../history/process-identity.js';
import { type CallOptions, type AgentEvent, type TurnOptions, publicReason, emit, takeTurn, openWorkspace } from '../run/index.js';
import { startDeadline } from './deadline.js';
import type { RunSteps } from './steps.js';
import type { WorkspaceCache } from '../../history/workspace-cache.js';
import { accountOf, currentScope, emptyRunUsage, inRun, type RunScope } from '../../log/scope.js';
import type { UsageRecorder } from '../../usage/recorder.js';
import { BudgetRefusedError } from '../../usage/reservations.js';
import type { Metrics } from '../../metrics/metrics.js';
import { TurnObserver, type TurnKind } from './run-observer.js';

/** What a turn needs from the agent. */
export interface TurnDeps {
  store: HistoryStore;
  steps: RunSteps;
  log?: (message: string) => void;
  /** The run's deadline, in ms (0: none). */
  runTimeoutMs: number;
  /** The longest a call waits for another turn of the run, in ms. */
  turnWaitMs: number;
  workspaceLimits: WorkspaceLimits;
  /** This machine's cache of workspace contents (restores read only what it lacks from the store). */
  workspaceCache?: WorkspaceCache;
  /** Charges the turn's usage (src/usage). */
  usage?: UsageRecorder;
  /** Counts the turn's outcome and durations (src/metrics). */
  metrics?: Metrics;
}

/**
 * One turn of a run: takes the run's turn lease (waiting for another turn of it to end, `queued`
 * emitted), reads the run again (another turn may have changed it), then opens the run's workspace
 * (the call's files added, the whole workspace restored) and runs `body` under the run's deadline;
 * any error ends the run as failed (stored, `failed` emitted) instead of escaping, and the deadline
 * or an LLM call a daily budget refused ends it as `unverified` or `failed` (its best answer so far).
 * @param retries auto-fix attempts the call may make (for `lastAttempt`)
 * @param check run after the lease is taken and the run read again; what it throws escapes (nothing stored)
 * @returns the run, ended
 * @throws {TurnBusyError} when another turn of the run did not end within the wait
 */
export async function runTurn(
  deps: TurnDeps,
  run: Run,
  options: CallOptions,
  retries: number,
  body: (options: TurnOptions) => Promise<unknown>,
  check?: () => void,
  kind: TurnKind = 'run',
): Promise<Run> {
  const held = await takeTurn(deps.store, run.id, {
    waitMs: deps.turnWaitMs,
    signal: options.signal,
    onQueued: () => emit(options, { type: 'queued', runId: run.id, waitMs: deps.turnWaitMs }),
    log: deps.log,
  });
  try {
    // another turn may have ended between the caller reading the run and this call taking the lease
    await reload(deps.store, run);
    check?.();
    return await metered(deps, run, options, kind, (o) => turn(deps, run, o, retries, body));
  } finally {
    await held.release();
  }
}

/** Replaces the fields of `run` by the stored run's (another turn may have changed it since the caller read it). */
async function reload(store: HistoryStore, run: Run): Promise<void> {
  const stored = await store.getRun(run.conversationId, run.id);
  if (!stored) return;
  for (const key of Object.keys(run)) if (!(key in stored)) delete (run as unknown as Record<string, unknown>)[key];
  Object.assign(run, stored);
}

/**
 * Runs a turn inside the run's usage scope (src/log/scope.ts): what its LLM calls and executions
 * spend is charged to the run (its stored `usage`) and to its account, a new run is counted, and
 * the metrics see the turn's attempts and outcome.
 */
async function metered(deps: TurnDeps, run: Run, options: CallOptions, kind: TurnKind, go: (o: CallOptions) => Promise<Run>): Promise<Run> {
  run.usage ??= emptyRunUsage();
  const scope: RunScope = { runId: run.id, conversationId: run.conversationId, user: options.requestedBy ?? run.requestedBy, usage: run.usage };
  const platform = currentScope().account?.platform ?? accountOf(run.conversationId, undefined).platform;
  const observer = deps.metrics && new TurnObserver(deps.metrics, platform, kind);
  return inRun(scope, async () => {
    if ((run.turns ?? 0) === 0) await deps.usage?.runStarted();
    const ended = await go(observer ? { ...options, onEvent: observer.listener(options.onEvent) } : options);
    observer?.ended(ended);
    return ended;
  });
}

async function turn(deps: TurnDeps, run: Run, options: CallOptions, retries: number, body: (options: TurnOptions) => Promise<unknown>): Promise<Run> {
  run.status = 'running';
  run.runningIn = thisProcess();
  run.error = undefined;
  run.turns = (run.turns ?? 0) + 1;
  const startedAt = Date.now();
  const deadline = startDeadline(deps.runTimeoutMs, options.signal);
  try {
    const workspaceDeps = { store: deps.store, limits: deps.workspaceLimits, emit: (e: AgentEvent) => emit(options, e), log: deps.log, cache: deps.workspaceCache };
    const workspace = await openWorkspace(workspaceDeps, run, run.turns, options.inputFiles);
    const lastAttempt = run.attempts.length + 1 + retries;
    await body({ ...options, signal: deadline.signal, inputFiles: workspace.files, workspace, lastAttempt, budget: { startedAt, timeoutMs: deps.runTimeoutMs } });
    // a deadline that passed while a step swallowed the abort still ends the run
    if (deadline.expired && run.status === 'running') throw new Error(deadline.message);
  } catch (err) {
    if (deadline.expired && !options.signal?.aborted) {
      await deps.steps.finishUnconfirmed(run, deadline.message, deadline.message, options, { timeUp: true });
    } else if (err instanceof BudgetRefusedError && !options.signal?.aborted) {
      // an LLM call a daily budget could not cover was not made: the best answer so far stands
      await deps.steps.finishUnconfirmed(run, err.message, err.message, options);
    } else {
      const reason = options.signal?.aborted ? 'cancelled' : publicReason(err, deps.log);
      await deps.steps.finish(run, 'failed', reason, options);
    }
  } finally {
    deadline.dispose();
  }
  return run;
}
