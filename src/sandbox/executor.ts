/**
 * `BubblewrapExecutor`: runs untrusted Python under bubblewrap (docs/sandbox.md), with a
 * cgroup per run (memory, processes, CPU of the whole tree) where cgroups are writable, a
 * size-limited tmpfs work dir where mounting is allowed, and rlimits. One execution = a fresh
 * slot (work dir, cgroup, uid), the runner as `__main__` under its supervisor, then artifacts
 * copied out and everything removed (after the result is returned: teardown.ts). A warm pool
 * (pool.ts) pre-starts sandboxes with the usual imports done; cold start stays the fallback, in a
 * prepared slot (work dir and cgroup made ahead) when one is ready. This file sets the sandbox up
 * and chooses where a program runs; the run itself is in slot-run.ts.
 */
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { PythonDirs } from './bwrap-args.js';
import { brokenPins, type PythonEnvironment } from './environment.js';
import { cachedEnvironment, probeEnvironment } from './environment-probe.js';
import { pythonSiteDirs, siteDirReady } from './python-packages.js';
import { cgroupParentDirs, detectCgroups } from './cgroup.js';
import { describeIsolation, probeTmpfs, type IsolationReport } from './isolation.js';
import { launchSandbox } from './launch.js';
import { mergeLimits } from './limits.js';
import { WarmPool, type Pooled } from './pool.js';
import { explainProbeFailure, findTool, findTools } from './probe.js';
import { compileRunner, runnerPath } from './runner.js';
import { seccompFilter } from './seccomp.js';
import { closeSlot, openSlot, POOL_INPUT_ALLOWANCE, type Isolation } from './slot.js';
import { workDirBudget } from './disk-guard.js';
import type { Ready } from './ready.js';
import { sweepOnce } from './sweep.js';
import { Teardowns } from './teardown.js';
import { runCold, runPooled, type SlotRunHost } from './slot-run.js';
import { createWorkRoot, type OwnedWorkRoot } from './work-root.js';
import { copyToolsPackage } from '../tools/python-package.js';
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
  /** What a run in a slot needs of this executor (`slot-run.ts`). */
  private readonly host: SlotRunHost;

  constructor(private readonly options: BubblewrapExecutorOptions = {}) {
    this.python = options.python ?? '/usr/bin/python3';
    this.limits = options.limits ?? {};
    this.logger = options.logger ?? { warn: (m) => process.stderr.write(`warning: ${m}\n`) };
    this.teardowns = new Teardowns(this.logger);
    this.pins = options.pythonPackages ?? [];
    this.host = { python: this.python, logger: this.logger, teardowns: this.teardowns };
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
    if (warm) return runPooled(this.host, ready, warm, code, limits, options, 'warm');
    const spare = this.spares?.take(limits);
    if (spare) return runPooled(this.host, ready, spare, code, limits, options, 'spare');
    return runCold(this.host, ready, code, limits, options);
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
        probeEnvironment({ ready, python: this.python, pins: this.pins, limits: this.limits, run: (code, limits) => runCold(this.host, ready, code, limits, {}) }),
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
    await sweepOnce(cgroupParentDirs(cgroups), this.logger);
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
      const probe = await runCold(this.host, ready, 'pass', mergeLimits(this.limits, { wallTimeS: 15 }), {});
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
}
