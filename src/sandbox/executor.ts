/**
 * `BubblewrapExecutor`: runs untrusted Python under bubblewrap with rlimits (DESIGN.md "The sandbox").
 * One execution = a fresh private work dir, the runner as `__main__`, a watched process tree,
 * then artifacts copied out and the work dir removed.
 */
import { randomInt } from 'node:crypto';
import { closeSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { collectUnlessKilled, snapshot } from './artifacts.js';
import { removeTree } from './cleanup.js';
import { seccompFilter } from './seccomp.js';
import { buildCommand, SANDBOX_ENV, USER_CODE_FILE, type SandboxTools } from './bwrap-args.js';
import { classifyLimit } from './classify.js';
import { checkWorkDir, guardWorkDir, workDirBudget } from './disk-guard.js';
import { mergeLimits } from './limits.js';
import { cleanName } from './names.js';
import { explainProbeFailure, findTool, findTools } from './probe.js';
import { runWatched, signalFromExitCode } from './process.js';
import { runnerPath } from './runner.js';
import { killUid, userProcessCount } from './uids.js';
import { createWorkRoot, type OwnedWorkRoot } from './work-root.js';
import {
  SandboxUnavailableError,
  type CheckReport,
  type ExecuteOptions,
  type ExecutionLimits,
  type ExecutionResult,
  type Executor,
  type InputFile,
  type LimitName,
} from './types.js';

export { DEFAULT_LIMITS, limitsFromConfig } from './limits.js';

/** Host uids handed to sandboxed programs when running as root: one at random per execution. */
export const SANDBOX_UID_MIN = 200_000;
/** Exclusive upper bound of {@link SANDBOX_UID_MIN}'s range. */
export const SANDBOX_UID_MAX = 265_000;

/** Options of {@link BubblewrapExecutor}. */
export interface BubblewrapExecutorOptions {
  /** Python interpreter, visible inside the sandbox (so under /usr). Default `/usr/bin/python3`. */
  python?: string;
  /** Overrides of {@link DEFAULT_LIMITS} for every execution. */
  limits?: Partial<ExecutionLimits>;
  /**
   * Host parent folder of the private work dirs (and of artifacts when no artifactDir is given);
   * every folder above it must be traversable by other users (the sandbox runs as an unprivileged uid).
   * Default: a fresh dir in the OS temp dir.
   */
  workRoot?: string;
  /** Run with rlimits only when isolation is unavailable (logs a warning on every run). Default false. */
  allowUnisolated?: boolean;
  /** Receives the unisolated-mode warning. Default: stderr. */
  logger?: { warn(msg: string): void };
}

interface Ready {
  tools: SandboxTools | null;
  isolated: boolean;
  workRoot: string;
  runner: string;
  /** Host path of the seccomp filter handed to bwrap (x86_64 only). */
  seccomp?: string;
  /** Why isolation is off, for the warning. */
  reason?: string;
}

const isRoot = () => process.getuid?.() === 0;

/** Runs Python in a bubblewrap sandbox. See DESIGN.md for what "safe" means. */
export class BubblewrapExecutor implements Executor {
  private readonly python: string;
  private readonly limits: Partial<ExecutionLimits>;
  private readonly logger: { warn(msg: string): void };
  private ready: Promise<Ready> | undefined;
  private ownRoot: OwnedWorkRoot | undefined;

  constructor(private readonly options: BubblewrapExecutorOptions = {}) {
    this.python = options.python ?? '/usr/bin/python3';
    this.limits = options.limits ?? {};
    this.logger = options.logger ?? { warn: (m) => process.stderr.write(`warning: ${m}\n`) };
    mergeLimits(this.limits); // fail fast on a bad limit
  }

  /**
   * Runs `code` as `main.py` in a fresh private work dir.
   * @throws {SandboxUnavailableError} when isolation is unavailable and unisolated mode is not allowed
   */
  async execute(code: string, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    const ready = await this.prepare();
    if (!ready.isolated) {
      this.logger.warn(`sandbox: running code WITHOUT isolation (rlimits only): ${ready.reason ?? 'isolation unavailable'}`);
    }
    const limits = mergeLimits(this.limits, options.limits);
    return this.runOnce(ready, code, limits, options);
  }

  /** @throws {SandboxUnavailableError} when isolation is unavailable and unisolated mode is not allowed */
  async check(): Promise<void> {
    await this.prepare();
  }

  /**
   * Removes the temp folder this executor created (none when `workRoot` was given). Executions
   * after this set up a fresh one. Without a call, the folder goes when the process exits.
   */
  async close(): Promise<void> {
    const ready = this.ready;
    this.ready = undefined;
    await ready?.catch(() => undefined);
    this.ownRoot?.remove();
    this.ownRoot = undefined;
  }

  /** Finds the tools and runs the self-test, once per executor. */
  private prepare(): Promise<Ready> {
    this.ready ??= this.setup();
    this.ready.catch(() => (this.ready = undefined)); // a failed setup is retried next time
    return this.ready;
  }

  private async setup(): Promise<Ready> {
    if (!this.options.workRoot) this.ownRoot ??= await createWorkRoot();
    const workRoot = this.options.workRoot ?? this.ownRoot!.path;
    await mkdir(workRoot, { recursive: true });
    await chmod(workRoot, 0o711); // sandbox uids may traverse, not list
    // A copy inside the work root: the sandbox uid can reach it even when the install dir is private.
    const runner = join(workRoot, 'runner.py');
    await copyFile(runnerPath(), runner);
    await chmod(runner, 0o644);
    const filter = seccompFilter();
    const seccomp = filter ? join(workRoot, 'seccomp.bpf') : undefined;
    if (seccomp && filter) await writeFile(seccomp, filter, { mode: 0o600 });
    let failure: SandboxUnavailableError;
    try {
      const tools = await findTools();
      const ready: Ready = { tools, isolated: true, workRoot, runner, seccomp };
      const probe = await this.runOnce(ready, 'pass', mergeLimits(this.limits, { wallTimeS: 15 }), {});
      if (probe.exitCode === 0) return ready;
      failure = explainProbeFailure(probe.stderr + probe.stdout, this.python);
    } catch (err) {
      if (!(err instanceof SandboxUnavailableError)) throw err;
      failure = err;
    }
    if (!this.options.allowUnisolated) throw failure;
    const prlimit = await findTool('prlimit');
    const setpriv = await findTool('setpriv');
    if (prlimit === null) throw new SandboxUnavailableError(`${failure.message} (and prlimit is missing too)`);
    const tools = { prlimit, setpriv: setpriv ?? '', bwrap: '' };
    return { tools, isolated: false, workRoot, runner, reason: failure.message };
  }

  private async runOnce(
    ready: Ready,
    code: string,
    limits: ExecutionLimits,
    options: ExecuteOptions,
  ): Promise<ExecutionResult> {
    const root = isRoot() && (ready.isolated || ready.tools?.setpriv !== '');
    const hostId = root ? randomInt(SANDBOX_UID_MIN, SANDBOX_UID_MAX) : null;
    const workDir = await mkdtemp(join(ready.workRoot, 'run-'));
    // bwrap reads the filter from an fd: a fresh one per run (reading consumes it)
    const filterFd = ready.isolated && ready.seccomp ? openSync(ready.seccomp, 'r') : undefined;
    const checksFd = options.checks === undefined ? undefined : openChecks(ready.workRoot, basename(workDir), options.checks);
    try {
      const names = await writeInputs(workDir, code, options.inputFiles ?? []);
      if (hostId !== null) {
        for (const name of names) await chown(join(workDir, name), hostId, hostId);
        await chown(workDir, hostId, hostId);
      }
      const before = await snapshot(workDir, names);
      const [file, args] = buildCommand({
        tools: ready.tools!,
        python: this.python,
        runnerPath: ready.runner,
        workDir,
        limits,
        hostId,
        nprocOffset: hostId === null ? await userProcessCount() : 0,
        isolated: ready.isolated,
        seccompFd: filterFd === undefined ? undefined : 3,
        checks: checksFd !== undefined,
      });
      const env: Record<string, string> = ready.isolated
        ? { PATH: '/usr/bin:/bin' }
        : { ...SANDBOX_ENV, HOME: workDir, MPLCONFIGDIR: join(workDir, '.matplotlib') };
      const inputBytes = (options.inputFiles ?? []).reduce((n, f) => n + f.content.length, code.length);
      const budget = workDirBudget(limits.maxFileBytes, limits.maxArtifacts, limits.maxArtifactBytes, inputBytes);
      const disk: { exceeded: string | null; limit: LimitName | null } = { exceeded: null, limit: null };
      let stopGuard = () => {};
      const out = await runWatched({
        file,
        args,
        env,
        cwd: workDir,
        wallTimeS: limits.wallTimeS,
        extraFd: filterFd,
        checksFd,
        maxOutputBytes: limits.maxOutputBytes,
        signal: options.signal,
        onSpawn: (kill) => {
          stopGuard = guardWorkDir(workDir, budget, (reason, limit) => {
            disk.exceeded = reason;
            disk.limit = limit;
            kill();
          });
        },
      }).finally(() => stopGuard());
      if (!ready.isolated && hostId !== null) await killUid(hostId); // strays that left the group
      const late = disk.exceeded === null && !out.cancelled ? await checkWorkDir(workDir, budget) : null; // ended between polls
      if (late) [disk.exceeded, disk.limit] = [late.reason, late.limit];

      const signal = out.signal ?? (ready.isolated ? signalFromExitCode(out.exitCode) : null);
      const exitCode = signal === null ? out.exitCode : null;
      let stderr = out.stderr;
      if (out.cancelled) stderr += `${stderr === '' || stderr.endsWith('\n') ? '' : '\n'}cancelled\n`;
      if (disk.exceeded !== null) stderr += `[${late ? 'over the limit' : 'killed'}: ${disk.exceeded}]\n`;
      const ourKill = out.timedOut || out.outputExceeded || out.cancelled;
      let limitHit = disk.limit !== null && !ourKill ? disk.limit : classifyLimit({
        exitCode,
        signal,
        timedOut: out.timedOut,
        outputExceeded: out.outputExceeded,
        cancelled: out.cancelled,
        stderr: out.stderr,
        durationMs: out.durationMs,
        cpuTimeS: limits.cpuTimeS,
      });

      const success = exitCode === 0 && signal === null && limitHit === null && !out.cancelled && !out.timedOut;
      const checks = checksFd !== undefined && success ? parseCheckReport(out.report) : undefined;
      const destDir = options.artifactDir ?? join(ready.workRoot, `artifacts-${basename(workDir)}`);
      const stopped = signal !== null || ourKill || disk.exceeded !== null || limitHit !== null;
      const collected = await collectUnlessKilled(stopped, workDir, before, destDir, limits.maxArtifacts, limits.maxArtifactBytes);
      if (collected.withheld > 0) stderr += `[${collected.withheld} file(s) not returned: the program was stopped by a limit, so they may be half-written]\n`;
      if (collected.limitHit) {
        limitHit ??= 'artifacts';
        stderr +=
          `[some files were not returned: at most ${limits.maxArtifacts} files ` +
          `of at most ${limits.maxArtifactBytes} bytes each]\n`;
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
      };
    } finally {
      if (filterFd !== undefined) closeSync(filterFd);
      if (checksFd !== undefined) closeSync(checksFd);
      await removeTree(workDir, this.logger);
    }
  }
}

/**
 * Writes the checks to a file beside (not inside) the work dir and opens it for the runner's fd 4;
 * the name is unlinked at once, so nothing stays behind and the program cannot find it.
 */
function openChecks(workRoot: string, id: string, checks: string): number {
  const path = join(workRoot, `checks-${id}.py`);
  writeFileSync(path, checks, { mode: 0o600 });
  try {
    return openSync(path, 'r');
  } finally {
    unlinkSync(path);
  }
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

/**
 * Writes the user code and the input files (names cleaned) into the work dir.
 * @returns the names written, user code first
 */
async function writeInputs(workDir: string, code: string, inputs: InputFile[]): Promise<string[]> {
  await writeFile(join(workDir, USER_CODE_FILE), code, { mode: 0o644 });
  const names = new Set<string>([USER_CODE_FILE]);
  for (const input of inputs) {
    let name = cleanName(input.name);
    if (name === null) continue;
    if (name === USER_CODE_FILE) name = `input_${name}`;
    await writeFile(join(workDir, name), input.content, { mode: 0o644 });
    names.add(name);
  }
  return [...names];
}
