/** Shared helpers of the sandbox tests (real bubblewrap + /usr/bin/python3). */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { BubblewrapExecutor, type BubblewrapExecutorOptions } from '../../src/sandbox/executor.js';
import type { ExecutionLimits } from '../../src/sandbox/types.js';

/** Small limits that keep the suite fast. */
export const FAST_LIMITS: Partial<ExecutionLimits> = { wallTimeS: 4, cpuTimeS: 4 };

const created: string[] = [];
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A warm-pool executor that waits for a ready pooled sandbox before each run, so every run of the
 * suite really is warm (a run with limits above the pool's still starts cold, as in production).
 */
class WarmFirstExecutor extends BubblewrapExecutor {
  override async execute(code: string, options?: Parameters<BubblewrapExecutor['execute']>[1]) {
    const pool = await this.warmPool();
    if (!(await pool?.whenReady(1, 60_000))) throw new Error('the warm pool did not get ready');
    return super.execute(code, options);
  }
}

/** The ways a run starts: cold (a fresh sandbox) and warm (a pre-started one from the pool). */
export const START_MODES = [
  { start: 'cold', options: { warmPool: 0 } },
  { start: 'warm', options: { warmPool: 1 } },
] as const;

/** An executor with its own work root under the OS temp dir (removed after the test file). */
export function makeExecutor(options: BubblewrapExecutorOptions = {}): BubblewrapExecutor {
  const all = { workRoot: tempDir('sandbox-test-'), ...options, limits: { ...FAST_LIMITS, ...options.limits } };
  const ex = (options.warmPool ?? 0) > 0 ? new WarmFirstExecutor(all) : new BubblewrapExecutor(all);
  executors.push(ex);
  return ex;
}

const executors: BubblewrapExecutor[] = [];
afterAll(async () => {
  for (const ex of executors.splice(0)) await ex.close();
});

/** A fresh host dir (for artifacts), removed after the test file. */
export function tempDir(prefix = 'sandbox-art-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Host pids whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(marker)) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
