/**
 * One execution in a slot (`slot.ts`): cold, in a fresh slot, or in a pooled one (a warm sandbox
 * with the usual imports done, or a prepared slot whose launcher waits: `pool.ts`); the tools'
 * broker served while the program runs. `executor.ts` chooses which.
 */
import { closeSync } from 'node:fs';
import { launchSandbox, openChecks } from './launch.js';
import type { Pooled } from './pool.js';
import { watchProcess } from './process.js';
import { encodeJob } from './job.js';
import { finishRun, prepareInputs } from './run-result.js';
import { cgroupLimits, openSlot } from './slot.js';
import { workDirBudget } from './disk-guard.js';
import type { Ready } from './ready.js';
import type { Teardowns } from './teardown.js';
import { userProcessCount } from './uids.js';
import type { RunningBroker } from '../tools/types.js';
import type { ExecuteOptions, ExecutionLimits, ExecutionResult } from './types.js';

/** What a run needs of its executor. */
export interface SlotRunHost {
  /** The Python interpreter run in the sandbox. */
  python: string;
  /** Where warnings go. */
  logger: { warn(msg: string): void };
  /** Tears slots down after their results are returned. */
  teardowns: Teardowns;
}

/**
 * A cold run: a fresh slot (work dir, cgroup, uid), the inputs written, the sandbox launched with
 * the runner, the result read; the slot torn down after the result is returned.
 */
export async function runCold(host: SlotRunHost, ready: Ready, code: string, limits: ExecutionLimits, options: ExecuteOptions): Promise<ExecutionResult> {
  const nprocOffset = slot0NprocOffset(ready) ? await userProcessCount() : 0;
  const inputBytes = (options.inputFiles ?? []).reduce((n, f) => n + f.content.length, code.length);
  const budget = workDirBudget(limits.maxFileBytes, limits.maxArtifacts, limits.maxArtifactBytes, inputBytes);
  const slot = await openSlot(ready.iso, limits, budget);
  const checksFd = options.checks === undefined ? undefined : openChecks(ready.iso.workRoot, options.checks);
  try {
    const before = await prepareInputs(slot, code, options.inputFiles ?? []);
    const broker = await options.tools?.start(slot.toolsDir);
    return await withToolCalls(broker, () => {
      const started = launchSandbox(ready, host.python, slot, limits, { checksFd, nprocOffset });
      return finishRun({ ready, slot, started, limits, options, before, budget, logger: host.logger, watch: watchProcess });
    });
  } finally {
    if (checksFd !== undefined) closeSync(checksFd);
    host.teardowns.add(slot); // the sandbox was killed when the run ended; the rest needs no waiting
  }
}

/** A run in a warm sandbox, or in a prepared slot (whose launcher the job's first line lets go on). */
export async function runPooled(host: SlotRunHost, ready: Ready, pooled: Pooled, code: string, limits: ExecutionLimits, options: ExecuteOptions, kind: 'warm' | 'spare'): Promise<ExecutionResult> {
  const { slot, started } = pooled;
  try {
    const inputBytes = (options.inputFiles ?? []).reduce((n, f) => n + f.content.length, code.length);
    const budget = workDirBudget(limits.maxFileBytes, limits.maxArtifacts, limits.maxArtifactBytes, inputBytes);
    const before = await prepareInputs(slot, code, options.inputFiles ?? [], budget);
    slot.cgroup?.setLimits(cgroupLimits(limits, slot.cgroup.usageBytes())); // the warm-up's memory is not the program's
    const broker = await options.tools?.start(slot.toolsDir); // before the job: the program looks for its socket
    return await withToolCalls(broker, () => {
      started.control?.end(`${kind === 'spare' ? 'go\n' : ''}${encodeJob(limits, options.checks, slot.cgroup !== null)}`);
      return finishRun({ ready, slot, started, limits, options, before, budget, logger: host.logger, watch: watchProcess });
    });
  } finally {
    started.kill();
    host.teardowns.add(slot);
  }
}

/**
 * The run's result with the calls its tool broker served (the broker is stopped once the run
 * ended, whatever the outcome).
 */
async function withToolCalls(broker: RunningBroker | undefined, run: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
  if (!broker) return run();
  const settled = await Promise.resolve()
    .then(run)
    .then((result) => ({ result }), (error: unknown) => ({ error }));
  const calls = await broker.stop();
  if ('error' in settled) throw settled.error;
  return { ...settled.result, toolCalls: calls };
}

/** Without a uid of its own, RLIMIT_NPROC counts every process of the user: they are added to the limit. */
const slot0NprocOffset = (ready: Ready) => !ready.iso.randomUid;
