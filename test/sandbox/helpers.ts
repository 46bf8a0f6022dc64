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
 * An executor that waits for a ready warm sandbox (or prepared slot) before each run, so every run
 * of the suite really starts that way (a run with limits above the pool's still starts from
 * nothing, as in production).
 */
class PooledFirstExecutor extends BubblewrapExecutor {
  override async execute(code: string, options?: Parameters<BubblewrapExecutor['execute']>[1]) {
    for (const pool of [await this.warmPool(), await this.spareSlots()]) {
      if (pool && !(await pool.whenReady(1, 60_000))) throw new Error('the pool did not get ready');
    }
    return super.execute(code, options);
  }
}

/**
 * The ways a run starts: cold from nothing (a fresh sandbox, nothing prepared), cold in a prepared
 * slot (work dir and cgroup made ahead, Python started for the run), warm (a pre-started sandbox).
 */
export const START_MODES = [
  { start: 'cold', options: { warmPool: 0, spareSlots: 0 } },
  { start: 'prepared', options: { warmPool: 0, spareSlots: 1 } },
  { start: 'warm', options: { warmPool: 1, spareSlots: 0 } },
] as const;

/**
 * An executor with its own work root under the OS temp dir (removed after the test file). With
 * no pool options given, every run starts cold from nothing (a start mode of its own is chosen
 * by the test).
 */
export function makeExecutor(options: BubblewrapExecutorOptions = {}): BubblewrapExecutor {
  const all = { workRoot: tempDir('sandbox-test-'), spareSlots: 0, ...options, limits: { ...FAST_LIMITS, ...options.limits } };
  const pooled = (all.warmPool ?? 0) > 0 || all.spareSlots > 0;
  const ex = pooled ? new PooledFirstExecutor(all) : new BubblewrapExecutor(all);
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
