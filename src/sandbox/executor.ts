/**
 * `BubblewrapExecutor`: runs untrusted Python under bubblewrap (docs/sandbox.md), with a
 * cgroup per run (memory, processes, CPU of the whole tree) where cgroups are writable, a
 * size-limited tmpfs work dir where mounting is allowed, and rlimits. One execution = a fresh
 * slot (work dir, cgroup, uid), the runner as `__main__` under its supervisor, then artifacts
 * copied out and everything removed (after the result is returned: teardown.ts). A warm pool
 * (pool.ts) pre-starts sandboxes with the usual imports done; cold start stays the fallback, in a
 * prepared slot (work dir and cgroup made ahead) when one is ready.
 */
import { closeSync } from 'node:fs';
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { PythonDirs } from './bwrap-args.js';
import { brokenPins, type PythonEnvironment } from './environment.js';
import { cachedEnvironment, probeEnvironment } from './environment-probe.js';
import { pythonSiteDirs, siteDirReady } from './python-packages.js';
import { cgroupParentDirs, detectCgroups, type CgroupSupport } from './cgroup.js';
import { describeIsolation, probeTmpfs, type IsolationReport } from './isolation.js';
import { launchSandbox, openChecks } from './launch.js';
import { mergeLimits } from './limits.js';
import { WarmPool, type Pooled } from './pool.js';
import { explainProbeFailure, findTool, findTools } from './probe.js';
import { watchProcess } from './process.js';
import { encodeJob } from './job.js';
import { finishRun, prepareInputs } from './run-result.js';
import { compileRunner, runnerPath } from './runner.js';
import { seccompFilter } from './seccomp.js';
import { cgroupLimits, closeSlot, openSlot, POOL_INPUT_ALLOWANCE, type Isolation } from './slot.js';
import { workDirBudget } from './disk-guard.js';
import type { Ready } from './ready.js';
import { sweepLeftovers } from './sweep.js';
import { Teardowns } from './teardown.js';
import { userProcessCount } from './uids.js';
import { createWorkRoot, type OwnedWorkRoot } from './work-root.js';
import { copyToolsPackage } from '../tools/python-package.js';
import type { RunningBroker } from '../tools/types.js';
import { SandboxUnavailableError, type ExecuteOptions, type ExecutionLimits, type ExecutionResult, type Executor } from './types.js';

export { DEFAULT_LIMITS, limitsFromConfig } from './limits.js';
export { SANDBOX_UID_MAX, SANDBOX_UID_MIN } from './slot.js';

/** Default age after which an unused pooled sandbox is recycled, in s. */
export const WARM_POOL_MAX_AGE_S = 300;

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
  /** Receives warnings (unisolated mode, the one-time line when cgroups are unavailable). Default: stderr. */
  logger?: { warn(msg: string): void };
  /** `off`: no run cgroups (rlimits only), e.g. to test the fallback. Default `auto`. */
  cgroups?: 'auto' | 'off';
  /** `off`: the work dir is a host folder with the polling guard, not a tmpfs. Default `auto`. */
  tmpfs?: 'auto' | 'off';
  /** Warm sandboxes kept ready (0: none). Capped by the machine's memory and CPUs. Default 0. */
  warmPool?: number;
  /** Age after which an unused pooled sandbox is recycled, in s. Default {@link WARM_POOL_MAX_AGE_S}. */
  warmPoolMaxAgeS?: number;
  /**
   * Prepared slots kept for cold starts (0: none): work dir mounted, cgroup made and joined by a
   * waiting launcher, nothing of Python started. Only where there is such a host part (a cgroup
   * or a tmpfs work dir). Default {@link SPARE_SLOTS}.
   */
  spareSlots?: number;
  /**
   * The operator's Python packages (`sandbox.python_packages` pins): their site dir is mounted, and
   * {@link BubblewrapExecutor.check} fails when one is missing or does not import. Default none.
   */
  pythonPackages?: readonly string[];
}

/** Default number of prepared slots for cold starts. */
export const SPARE_SLOTS = 1;


const isRoot = () => process.getuid?.() === 0;

/** Set once this process has swept dead executors' leftovers. */
let swept = false;

/** Runs Python in a bubblewrap sandbox (docs/sandbox.md says what "safe" means). */
export class BubblewrapExecutor implements Executor {
  private readonly python: string;
  private readonly limits: Partial<ExecutionLimits>;
  private readonly logger: { warn(msg: string): void };
  private ready: Promise<Ready> | undefined;
  private ownRoot: OwnedWorkRoot | undefined;
  private pool: WarmPool | undefined;
  private spares: WarmPool | undefined;
  private env: Promise<PythonEnvironment> | undefined;
  private readonly pins: readonly string[];
  private readonly teardowns: Teardowns;

  constructor(private readonly options: BubblewrapExecutorOptions = {}) {
    this.python = options.python ?? '/usr/bin/python3';
    this.limits = options.limits ?? {};
    this.logger = options.logger ?? { warn: (m) => process.stderr.write(`warning: ${m}\n`) };
    this.teardowns = new Teardowns(this.logger);
    this.pins = options.pythonPackages ?? [];
    mergeLimits(this.limits); // fail fast on a bad limit
    for (const [what, n] of [['warm pool size', options.warmPool ?? 0], ['prepared slots', options.spareSlots ?? SPARE_SLOTS]] as const) {
      if (!Number.isInteger(n) || n < 0) throw new RangeError(`sandbox ${what}: expected a whole number ≥ 0, got ${n}`);
    }
  }

  /**
   * Runs `code` as `main.py` in a fresh private work dir, in a warm sandbox when one is ready.
   * @throws {SandboxUnavailableError} when isolation is unavailable and unisolated mode is not allowed
   */
  async execute(code: string, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    const ready = await this.prepare();
    if (!ready.isolated) {
      this.logger.warn(`sandbox: running code WITHOUT isolation (rlimits only): ${ready.reason ?? 'isolation unavailable'}`);
    }
    const limits = mergeLimits(this.limits, options.limits);
    const warm = this.pool?.take(limits);
    if (warm) return this.runPooled(ready, warm, code, limits, options, 'warm');
    const spare = this.spares?.take(limits);
    if (spare) return this.runPooled(ready, spare, code, limits, options, 'spare');
    return this.runCold(ready, code, limits, options);
  }

  /**
   * Sets the sandbox up and probes its Python (cached: environment.ts).
   * @throws {SandboxUnavailableError} when isolation is unavailable and unisolated mode is not
   *   allowed, or when a package of `pythonPackages` is missing or does not import
   */
  async check(): Promise<void> {
    await this.prepare();
    const env = await this.environment().catch((err: unknown) => {
      if (this.pins.length > 0) throw err;
      this.logger.warn(`sandbox: ${(err as Error).message}`);
      return undefined;
    });
    const broken = env ? brokenPins(env) : [];
    if (broken.length > 0) {
      throw new SandboxUnavailableError(
        `sandbox.python_packages: ${broken.join('; ')}. Run \`npm run setup\` to install them (pin their dependencies too), or remove them from config.yaml`,
      );
    }
  }

  /**
   * What the sandbox's Python offers: modules of the default set, the operator's pins, fonts. Probed
   * in the sandbox once per executor (or read from its cache, environment.ts); also hands matplotlib's font list
   * to every later run.
   * @throws {SandboxUnavailableError} when the sandbox is unavailable or the probe fails
   */
  environment(): Promise<PythonEnvironment> {
    if (!this.env) {
      this.env = this.prepare().then((ready) =>
        probeEnvironment({ ready, python: this.python, pins: this.pins, limits: this.limits, run: (code, limits) => this.runCold(ready, code, limits, {}) }),
      );
      this.env.catch(() => (this.env = undefined)); // retried next time
    }
    return this.env;
  }

  /** The environment from the probe cache, without starting anything (undefined: not probed yet). */
  cachedEnvironment(): PythonEnvironment | undefined {
    return cachedEnvironment(this.python, this.pins);
  }

  /** What isolation is active and why (for `code-agent doctor`); sets the sandbox up if needed. */
  async isolation(): Promise<IsolationReport> {
    const ready = await this.prepare();
    return describeIsolation(ready, this.pool ? this.poolSize(ready) : 0, this.spares ? (this.options.spareSlots ?? SPARE_SLOTS) : 0);
  }

  /** The warm pool, when on (tests and benchmarks wait for it). */
  async warmPool(): Promise<WarmPool | undefined> {
    await this.prepare();
    return this.pool;
  }

  /** The prepared slots for cold starts, when on (tests and benchmarks wait for them). */
  async spareSlots(): Promise<WarmPool | undefined> {
    await this.prepare();
    return this.spares;
  }

  /**
   * Resolves once every finished run's sandbox is gone from the host (its cgroup removed, its work
   * dir unmounted and removed): {@link execute} returns before that teardown ends.
   */
  settled(): Promise<void> {
    return this.teardowns.settled();
  }

  /**
   * Throws the warm pool away, waits for the teardown of finished runs, and removes the temp folder
   * this executor created (none when `workRoot` was given). Executions after this set up a fresh one.
   */
  async close(): Promise<void> {
    const ready = this.ready;
    this.ready = undefined;
    await ready?.catch(() => undefined);
    await this.env?.catch(() => undefined);
    this.env = undefined;
    const pools = [this.pool, this.spares];
    [this.pool, this.spares] = [undefined, undefined];
    await Promise.all(pools.map((p) => p?.close()));
    await this.teardowns.settled();
    this.ownRoot?.remove();
    this.ownRoot = undefined;
  }

  private prepare(): Promise<Ready> {
    this.ready ??= this.setup();
    this.ready.catch(() => (this.ready = undefined)); // a failed setup is retried next time
    return this.ready;
  }

  private poolSize(ready: Ready): number {
    const limits = mergeLimits(this.limits);
    const byMemory = Math.floor((totalmem() * 0.5) / (limits.memoryBytes + limits.maxFileBytes * 4));
    return Math.max(0, Math.min(this.options.warmPool ?? 0, byMemory, cpus().length * 2, ready.isolated ? Infinity : 0));
  }

  private async setup(): Promise<Ready> {
    if (!this.options.workRoot) this.ownRoot ??= await createWorkRoot();
    const workRoot = this.options.workRoot ?? this.ownRoot!.path;
    await mkdir(workRoot, { recursive: true });
    await chmod(workRoot, 0o711); // sandbox uids may traverse, not list
    // A copy inside the work root: the sandbox uid can reach it even when the install dir is private.
    const source = join(workRoot, 'runner.py');
    await copyFile(runnerPath(), source);
    await chmod(source, 0o644);
    const runner = (await compileRunner(this.python, source, join(workRoot, 'runner.pyc'))) ?? source;
    await chmod(runner, 0o644);
    const filter = seccompFilter();
    const seccomp = filter ? join(workRoot, 'seccomp.bpf') : undefined;
    if (seccomp && filter) await writeFile(seccomp, filter, { mode: 0o600 });
    const cgroups = detectCgroups(this.options.cgroups === 'off');
    await this.sweepOnce(cgroups);
    const tmpfs = this.options.tmpfs !== 'off' && (await probeTmpfs(workRoot));
    const iso: Isolation = { workRoot, cgroups, tmpfs, randomUid: isRoot() };
    const siteDirs = pythonSiteDirs(this.pins);
    const pythonDirs: PythonDirs = {
      wheels: siteDirReady(siteDirs.wheels) ? siteDirs.wheels : undefined,
      extra: siteDirReady(siteDirs.extra) ? siteDirs.extra : undefined,
      tools: await copyToolsPackage(join(workRoot, 'pylib')),
    };
    let failure: SandboxUnavailableError;
    try {
      const tools = await findTools();
      const ready: Ready = { tools, isolated: true, iso, runner, seccomp, siteDirs, pythonDirs };
      const probe = await this.runCold(ready, 'pass', mergeLimits(this.limits, { wallTimeS: 15 }), {});
      if (probe.exitCode === 0) {
        if (cgroups.mode === 'none') this.logger.warn(`sandbox: no cgroup per run: ${cgroups.reason}`);
        const size = this.poolSize(ready);
        if (size > 0) this.pool = this.makePool(ready, size, 'warm');
        const spares = this.options.spareSlots ?? SPARE_SLOTS;
        if (spares > 0 && (cgroups.mode !== 'none' || tmpfs)) this.spares = this.makePool(ready, spares, 'spare');
        return ready;
      }
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
    return { tools, isolated: false, iso: { ...iso, randomUid: iso.randomUid && setpriv !== null }, runner, reason: failure.message, siteDirs, pythonDirs };
  }

  /** Removes, once per process, what executors of dead processes left on the host (sweep.ts). */
  private async sweepOnce(cgroups: CgroupSupport): Promise<void> {
    if (swept) return;
    swept = true;
    const left = await sweepLeftovers(cgroupParentDirs(cgroups));
    if (left.cgroups + left.workRoots + left.mounts > 0) {
      const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      const parts = [
        ...(left.workRoots > 0 ? [plural(left.workRoots, 'work folder')] : []),
        ...(left.mounts > 0 ? [plural(left.mounts, 'mounted work folder')] : []),
        ...(left.cgroups > 0 ? [plural(left.cgroups, 'resource group') + ' (cgroups)'] : []),
      ];
      this.logger.warn(`sandbox: tidied up after a code-agent process that was stopped before it could (removed ${parts.join(', ')}); nothing for you to do`);
    }
  }

  /** A pool of warm sandboxes, or of prepared slots (`spare`: launcher waiting, no Python yet). */
  private makePool(ready: Ready, size: number, kind: 'warm' | 'spare'): WarmPool {
    const limits = mergeLimits(this.limits);
    return new WarmPool(size, (this.options.warmPoolMaxAgeS ?? WARM_POOL_MAX_AGE_S) * 1000, {
      name: kind === 'warm' ? 'warm pool' : 'prepared slots',
      spawn: async () => {
        const slot = await openSlot(ready.iso, limits, workDirBudget(limits.maxFileBytes, limits.maxArtifacts, limits.maxArtifactBytes, POOL_INPUT_ALLOWANCE));
        try {
          const started = launchSandbox(ready, this.python, slot, limits, { jobMode: kind === 'warm' ? 'pool' : 'job' });
          return { slot, started, limits, bornAt: performance.now(), isReady: false };
        } catch (err) {
          await closeSlot(slot, this.logger);
          throw err;
        }
      },
      discard: async (p: Pooled) => {
        p.started.kill();
        await closeSlot(p.slot, this.logger);
      },
      warn: (m) => this.logger.warn(m),
    });
  }

  private async runCold(ready: Ready, code: string, limits: ExecutionLimits, options: ExecuteOptions): Promise<ExecutionResult> {
    const nprocOffset = slot0NprocOffset(ready) ? await userProcessCount() : 0;
    const inputBytes = (options.inputFiles ?? []).reduce((n, f) => n + f.content.length, code.length);
    const budget = workDirBudget(limits.maxFileBytes, limits.maxArtifacts, limits.maxArtifactBytes, inputBytes);
    const slot = await openSlot(ready.iso, limits, budget);
    const checksFd = options.checks === undefined ? undefined : openChecks(ready.iso.workRoot, options.checks);
    try {
      const before = await prepareInputs(slot, code, options.inputFiles ?? []);
      const broker = await options.tools?.start(slot.toolsDir);
      return await withToolCalls(broker, () => {
        const started = launchSandbox(ready, this.python, slot, limits, { checksFd, nprocOffset });
        return finishRun({ ready, slot, started, limits, options, before, budget, logger: this.logger, watch: watchProcess });
      });
    } finally {
      if (checksFd !== undefined) closeSync(checksFd);
      this.teardowns.add(slot); // the sandbox was killed when the run ended; the rest needs no waiting
    }
  }

  /** A run in a warm sandbox, or in a prepared slot (whose launcher the job's first line lets go on). */
  private async runPooled(ready: Ready, pooled: Pooled, code: string, limits: ExecutionLimits, options: ExecuteOptions, kind: 'warm' | 'spare'): Promise<ExecutionResult> {
    const { slot, started } = pooled;
    try {
      const inputBytes = (options.inputFiles ?? []).reduce((n, f) => n + f.content.length, code.length);
      const budget = workDirBudget(limits.maxFileBytes, limits.maxArtifacts, limits.maxArtifactBytes, inputBytes);
      const before = await prepareInputs(slot, code, options.inputFiles ?? [], budget);
      slot.cgroup?.setLimits(cgroupLimits(limits, slot.cgroup.usageBytes())); // the warm-up's memory is not the program's
      const broker = await options.tools?.start(slot.toolsDir); // before the job: the program looks for its socket
      return await withToolCalls(broker, () => {
        started.control?.end(`${kind === 'spare' ? 'go\n' : ''}${encodeJob(limits, options.checks, slot.cgroup !== null)}`);
        return finishRun({ ready, slot, started, limits, options, before, budget, logger: this.logger, watch: watchProcess });
      });
    } finally {
      started.kill();
      this.teardowns.add(slot);
    }
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
