/**
 * The shared second half of a run, cold or warm: inputs into the work dir before, then watching
 * the program, naming the limit it hit from kernel facts (classify.ts), copying artifacts out.
 */
import { chownSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { constants } from 'node:os';
import { collectUnlessKilled, snapshot, type Snapshot } from './artifacts.js';
import { USER_CODE_FILE } from './bwrap-args.js';
import { classifyLimit } from './classify.js';
import { checkWorkDir, guardWorkDir } from './disk-guard.js';
import type { Ready } from './ready.js';
import { cleanName, distinctName } from '../text/file-names.js';
import type { RunOutcome, StartedProcess, WatchedRun } from './process.js';
import { resizeSlot, type Slot } from './slot.js';
import { watchFull } from './work-fs.js';
import type { CheckReport, ExecuteOptions, ExecutionLimits, ExecutionResult, InputFile, LimitName } from './types.js';
import { killUid } from './uids.js';

/**
 * Writes the user code and the input files (names cleaned) into the slot's work dir, owned by its uid.
 * @param resizeTo new work dir budget in bytes (a pooled slot, whose budget did not know the inputs)
 * @returns the work dir's snapshot (to tell artifacts from inputs)
 */
export async function prepareInputs(slot: Slot, code: string, inputs: InputFile[], resizeTo?: number): Promise<Snapshot> {
  if (resizeTo !== undefined) await resizeSlot(slot, resizeTo);
  const { workDir, hostId } = slot;
  // Synchronous on purpose: a few small files into a fresh dir (tmpfs: a memory copy) cost µs;
  // six thread-pool round trips for a one-line program cost ~2 ms of a warm run's ~10.
  writeFileSync(join(workDir, USER_CODE_FILE), code, { mode: 0o644 });
  const names = new Set<string>([USER_CODE_FILE]);
  for (const input of inputs) {
    let name = cleanName(input.name);
    if (name === null) continue;
    if (name === USER_CODE_FILE) name = `input_${name}`;
    name = distinctName(name, (n) => names.has(n)); // two inputs of one name: both are there (as sandboxInputNames names them)
    writeFileSync(join(workDir, name), input.content, { mode: 0o644 });
    names.add(name);
  }
  if (hostId !== null) {
    for (const name of names) chownSync(join(workDir, name), hostId, hostId);
    chownSync(workDir, hostId, hostId);
  }
  return snapshot(workDir, [...names]);
}

/** Everything {@link finishRun} needs. */
export interface RunParts {
  ready: Ready;
  slot: Slot;
  started: StartedProcess;
  limits: ExecutionLimits;
  options: ExecuteOptions;
  before: Snapshot;
  /** Work dir budget, in bytes. */
  budget: number;
  logger: { warn(msg: string): void };
  watch: (started: StartedProcess, run: WatchedRun) => Promise<RunOutcome>;
}

/** How often the run cgroup's counters are read to end a run that reached a cgroup limit, in ms. */
export const CGROUP_WATCH_MS = 50;

/** Name of signal `n`, or null. */
function signalName(n: number | undefined): string | null {
  if (n === undefined) return null;
  return Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `SIG${n}`;
}

/** Watches the program to its end and builds its result (artifacts copied out; the caller closes the slot). */
export async function finishRun(p: RunParts): Promise<ExecutionResult> {
  const { slot, limits, options } = p;
  const guard: { limit: Extract<LimitName, 'work_dir_bytes' | 'work_dir_files'> | null; reason: string | null } = { limit: null, reason: null };
  let stopGuard = () => {};
  // The kernel enforces the cgroup's limits; watching its counters only ends the run as soon as
  // one was reached (an OOM-killed child or a refused fork would otherwise leave the rest waiting).
  let cgroupStop: NodeJS.Timeout | undefined;
  const stopCgroupWatch = () => clearInterval(cgroupStop);
  const stopFull = slot.tmpfs ? watchFull(slot.workDir) : null;
  const out = await p.watch(p.started, {
    file: '',
    args: [],
    env: {},
    wallTimeS: limits.wallTimeS,
    maxOutputBytes: limits.maxOutputBytes,
    signal: options.signal,
    onSpawn: (kill) => {
      if (slot.cgroup) {
        const cg = slot.cgroup;
        cgroupStop = setInterval(() => {
          const f = cg.facts();
          if (f.oomKills > 0 || f.pidsMax > 0) kill();
        }, CGROUP_WATCH_MS);
      }
      if (slot.tmpfs) return; // the tmpfs is the budget: nothing to poll
      stopGuard = guardWorkDir(slot.workDir, p.budget, (reason, limit) => {
        [guard.reason, guard.limit] = [reason, limit];
        kill();
      });
    },
  }).finally(() => {
    stopGuard();
    stopCgroupWatch();
  });
  if (!p.ready.isolated && slot.hostId !== null) await killUid(slot.hostId); // strays that left the group
  slot.cgroup?.kill();
  const ourKill = out.timedOut || out.outputExceeded || out.cancelled;
  if (stopFull) {
    guard.limit = await stopFull();
    if (guard.limit) guard.reason = guard.limit === 'work_dir_bytes' ? `more than ${p.budget} bytes written to the work dir` : 'more than 5000 files in the work dir';
  } else if (guard.limit === null && !out.cancelled) {
    const late = await checkWorkDir(slot.workDir, p.budget); // ended between polls
    if (late) [guard.reason, guard.limit] = [late.reason, late.limit];
  }
  const facts = slot.cgroup?.facts() ?? null;
  const sup = out.supervisor;
  // Our SIGKILL of the whole sandbox, else the program's real wait status from its supervisor.
  const signal = out.signal ?? signalName(sup?.signal);
  const exitCode = signal !== null ? null : sup?.exit ?? out.exitCode;
  let stderr = out.stderr;
  if (out.cancelled) stderr += `${stderr === '' || stderr.endsWith('\n') ? '' : '\n'}cancelled\n`;
  let limitHit = classifyLimit({
    signal,
    timedOut: out.timedOut,
    outputExceeded: out.outputExceeded,
    cancelled: out.cancelled,
    cgroup: facts,
    disk: ourKill ? null : guard.limit,
    cpuTimeS: limits.cpuTimeS,
    durationMs: out.durationMs,
  });
  if (limitHit === 'memory') stderr += `[stopped: the run used all of its ${limits.memoryBytes} bytes of memory]\n`;
  if (limitHit === 'file_size') stderr += `[stopped: File too large: a file reached the limit of ${limits.maxFileBytes} bytes]\n`;
  if (limitHit === 'cpu_time') stderr += `[stopped: the program used its ${limits.cpuTimeS} s of CPU time]\n`;
  if (limitHit === 'processes') stderr += `[stopped: the run reached its limit of ${limits.maxProcesses} processes]\n`;
  if ((limitHit === 'work_dir_bytes' || limitHit === 'work_dir_files') && guard.reason) stderr += `[stopped: ${guard.reason}]\n`;

  const success = exitCode === 0 && signal === null && limitHit === null && !out.cancelled && !out.timedOut;
  const checks = p.options.checks !== undefined && success ? parseCheckReport(out.report) : undefined;
  const destDir = options.artifactDir ?? join(p.ready.iso.workRoot, `artifacts-${basename(slot.workDir)}`);
  const stopped = signal !== null || ourKill || limitHit !== null;
  const collected = await collectUnlessKilled(stopped, slot.workDir, p.before, destDir, limits.maxArtifacts, limits.maxArtifactBytes);
  for (const a of collected.artifacts) {
    if (a.renamedFrom !== undefined) stderr += `[${a.renamedFrom} was returned as ${a.name}: another file had the same name once made safe]\n`;
  }
  if (collected.withheld > 0) stderr += `[${collected.withheld} file(s) not returned: the program was stopped by a limit, so they may be half-written]\n`;
  if (collected.limitHit) {
    limitHit ??= 'artifacts';
    stderr += `[some files were not returned: at most ${limits.maxArtifacts} files of at most ${limits.maxArtifactBytes} bytes each]\n`;
  }
  return {
    success: success && limitHit === null,
    stdout: out.stdout,
    stderr,
    exitCode,
    signal,
    timedOut: out.timedOut,
    limitHit,
    durationMs: out.durationMs,
    artifacts: collected.artifacts,
    ...(checks && limitHit === null ? { checks } : {}),
    ...(facts ? { cpuS: Math.round(facts.cpuS * 1e6) / 1e6 } : {}),
  };
}

/** Reads the runner's JSON report; a missing or broken one says the checks did not run. */
function parseCheckReport(text: string): CheckReport {
  if (text.trim() === '') return { results: [], error: 'the checks did not run: the program ended before them' };
  try {
    const parsed = JSON.parse(text) as CheckReport;
    if (Array.isArray(parsed.results)) return parsed;
  } catch {
    /* falls through */
  }
  return { results: [], error: 'the checks did not run: their report could not be read' };
}
