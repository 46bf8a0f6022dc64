/**
 * Running the environment probe (environment.ts) for an executor: from its cache when the
 * fingerprint matches, else in a cold sandbox; then matplotlib's font list goes into the executor's
 * work root, bound read-only into every later sandbox.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ready } from './ready.js';
import {
  environmentCacheFiles,
  environmentFingerprint,
  parseProbe,
  probeProgram,
  readCachedProbe,
  writeCachedProbe,
  type ProbeOutput,
  type PythonEnvironment,
} from './environment.js';
import { mergeLimits } from './limits.js';
import { pythonSiteDirs, siteDirReady, type SiteDirs } from './python-packages.js';
import { SandboxUnavailableError, type ExecutionLimits, type ExecutionResult } from './types.js';

/** Limits of the probe: importing the whole default set takes ~4 s and ~300 MB. */
const PROBE_LIMITS: Partial<ExecutionLimits> = { wallTimeS: 120, cpuTimeS: 120, memoryBytes: 2048 * 1024 * 1024, maxOutputBytes: 8 * 1024 * 1024 };

/** What {@link probeEnvironment} needs from the executor. */
export interface ProbeParts {
  ready: Ready;
  python: string;
  pins: readonly string[];
  /** The executor's own limits (the probe's are raised above them). */
  limits: Partial<ExecutionLimits>;
  /** Runs a program in a cold sandbox with these limits. */
  run(code: string, limits: ExecutionLimits): Promise<ExecutionResult>;
}

const environmentOf = (probe: ProbeOutput, dirs: SiteDirs, probeMs: number, cached: boolean, cacheFile: string | undefined): PythonEnvironment => ({
  python: probe.python,
  modules: probe.modules,
  pins: probe.pins,
  fonts: probe.fonts,
  siteDirs: {
    wheels: dirs.wheels,
    wheelsReady: siteDirReady(dirs.wheels),
    ...(dirs.extra ? { extra: dirs.extra, extraReady: siteDirReady(dirs.extra) } : {}),
  },
  probeMs,
  cached,
  ...(cacheFile ? { cacheFile } : {}),
});

/**
 * The environment of an executor's sandbox (cached, else probed), with the font list handed over.
 * @throws {SandboxUnavailableError} when the probe program fails
 */
export async function probeEnvironment(p: ProbeParts): Promise<PythonEnvironment> {
  const file = environmentCacheFiles(environmentFingerprint(p.python, p.ready.siteDirs, p.pins));
  const hit = readCachedProbe(file);
  let probe = hit?.probe;
  let cacheFile = hit?.file;
  const t0 = performance.now();
  if (!probe) {
    const result = await p.run(probeProgram(p.pins), mergeLimits(p.limits, PROBE_LIMITS));
    try {
      if (result.exitCode !== 0) throw new Error(result.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${result.exitCode}`);
      probe = parseProbe(result.stdout);
    } catch (err) {
      throw new SandboxUnavailableError(`the sandbox's Python could not be probed: ${(err as Error).message}`);
    }
    cacheFile = writeCachedProbe(file, probe);
  }
  if (probe.fontList) handOverFontList(p.ready, probe.fontList);
  return environmentOf(probe, p.ready.siteDirs, hit ? 0 : Math.round(performance.now() - t0), hit !== undefined, cacheFile);
}

/** Writes the font list into `<work root>/mpl/` and mounts it in every later sandbox. */
function handOverFontList(ready: Ready, list: { name: string; text: string }): void {
  if (!/^fontlist-v\d+\.json$/.test(list.name)) return;
  const dir = join(ready.iso.workRoot, 'mpl');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, list.name), list.text, { mode: 0o644 });
  ready.pythonDirs.fontCache = dir;
}

/** The environment from the probe cache alone, without a sandbox (undefined: not probed with this fingerprint). */
export function cachedEnvironment(python: string, pins: readonly string[]): PythonEnvironment | undefined {
  const dirs = pythonSiteDirs(pins);
  const hit = readCachedProbe(environmentCacheFiles(environmentFingerprint(python, dirs, pins)));
  return hit ? environmentOf(hit.probe, dirs, 0, true, hit.file) : undefined;
}
