/**
 * Sandbox benchmark. Build with `npm run build`, run with `npm run bench:sandbox` (as root, to have
 * cgroups and the tmpfs work dir; `doctor` says what is active). Prints, with ratios measured in
 * the same run (interleaved, so every variant sees the same machine load):
 * - a trivial program: p50 of warm (pool) and cold runs against bare `/usr/bin/python3 -c pass`
 *   spawned from Node (targets: warm ≤ 0.5 ×, cold ≤ 1.5 ×); cold is a start in a prepared slot
 *   (the default), and also shown with nothing prepared (no spare slot left, as in a burst);
 * - a matplotlib plot saved as PNG: warm against cold and against bare python doing the same (target ≥ 3 ×);
 * - a data program importing seaborn and scikit-learn (not preloaded by the pool): cold against warm;
 * - runs per second at concurrency 2, cold and warm, and CPU seconds per run of the whole machine
 *   (so the pool's own warm-ups are counted);
 * - the cost of the cgroup per run: cold p50 with cgroups against without, and create + remove alone.
 * `BENCH_RUNS` (default 15) sets the samples per variant.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectCgroups, RunCgroup } from '../src/sandbox/cgroup.js';
import { BubblewrapExecutor } from '../src/sandbox/executor.js';

const PYTHON = '/usr/bin/python3';
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const THROUGHPUT_RUNS = 16;
const PLOT = 'import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2, 4])\nplt.title("bench")\nplt.savefig("plot.png")\n';

const DATA = [
  'import seaborn as sns',
  'from sklearn.linear_model import LinearRegression',
  'import numpy as np',
  'x = np.arange(20).reshape(-1, 1); y = 3 * x.ravel() + 1',
  'print(LinearRegression().fit(x, y).coef_)',
  'sns.lineplot(x=x.ravel(), y=y).figure.savefig("fit.png")',
].join('\n');

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function bare(code: string): Promise<number> {
  const cwd = mkdtempSync(join(tmpdir(), 'bench-bare-'));
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-c', code], { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: '/usr/bin:/bin', MPLBACKEND: 'Agg', HOME: cwd } });
    child.on('error', reject);
    child.on('close', (c) => {
      const ms = performance.now() - t0;
      rmSync(cwd, { recursive: true, force: true });
      if (c === 0) resolve(ms);
      else reject(new Error(`bare python exit ${c}`));
    });
  });
}

async function timed(ex: BubblewrapExecutor, code: string): Promise<number> {
  const t0 = performance.now();
  const r = await ex.execute(code);
  if (!r.success) throw new Error(`sandbox run failed: ${r.stderr}`);
  return performance.now() - t0;
}

/** Waits until the pool is full again (outside the timed part: a steady bot between requests). */
async function warmReady(ex: BubblewrapExecutor): Promise<void> {
  const pool = await ex.warmPool();
  if (!(await pool?.whenReady(undefined, 60_000))) throw new Error('warm pool not ready');
}

/**
 * Outside the timed part: the pool refilled and every finished run torn down, so that no variant
 * is timed while another one's background work still runs (requests come seconds apart).
 */
async function quiet(all: BubblewrapExecutor[], warm: BubblewrapExecutor): Promise<void> {
  await warmReady(warm);
  for (const ex of all) {
    const spares = await ex.spareSlots();
    if (spares && !(await spares.whenReady(undefined, 60_000))) throw new Error('prepared slots not ready');
  }
  await Promise.all(all.map((ex) => ex.settled()));
}

/** Busy CPU seconds of the whole machine, from /proc/stat (user + nice + system + irq + softirq + steal). */
function machineCpuS(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const hz = 100;
  return (f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + f[7]!) / hz;
}

async function throughput(ex: BubblewrapExecutor, code: string, warm: boolean): Promise<{ perS: number; cpuPerRun: number }> {
  if (warm) await warmReady(ex);
  let next = 0;
  const cpu0 = machineCpuS();
  const t0 = performance.now();
  const worker = async () => {
    while (next++ < THROUGHPUT_RUNS) await timed(ex, code);
  };
  await Promise.all([worker(), worker()]);
  if (warm) await warmReady(ex); // the refill of what was used is the pool's cost: counted
  const s = (performance.now() - t0) / 1000;
  return { perS: THROUGHPUT_RUNS / s, cpuPerRun: (machineCpuS() - cpu0) / THROUGHPUT_RUNS };
}

async function main(): Promise<void> {
  const cold = new BubblewrapExecutor({ warmPool: 0 }); // a cold start in a prepared slot (the default)
  const scratch = new BubblewrapExecutor({ warmPool: 0, spareSlots: 0 }); // nothing prepared
  const noCg = new BubblewrapExecutor({ warmPool: 0, spareSlots: 0, cgroups: 'off' });
  const warm = new BubblewrapExecutor({ warmPool: 2 });
  const iso = await cold.isolation();
  console.log(`isolation: cgroups ${iso.cgroups.active ? iso.cgroups.mode : 'off'}, tmpfs work dir ${iso.disk.active ? 'on' : 'off'}`);
  // as the agent does before a run: isolation checked, the Python environment probed (font list shared)
  for (const ex of [cold, scratch, noCg, warm]) await ex.check();
  await timed(cold, 'pass');
  await bare('pass');

  const t = { bare: [] as number[], cold: [] as number[], scratch: [] as number[], warm: [] as number[], noCg: [] as number[] };
  const all = [cold, scratch, noCg, warm];
  for (let i = 0; i < RUNS; i++) {
    await quiet(all, warm);
    t.bare.push(await bare('pass'));
    await quiet(all, warm);
    t.cold.push(await timed(cold, 'pass'));
    await quiet(all, warm);
    t.scratch.push(await timed(scratch, 'pass'));
    await quiet(all, warm);
    t.noCg.push(await timed(noCg, 'pass'));
    await quiet(all, warm);
    t.warm.push(await timed(warm, 'pass'));
  }
  const plot = { bare: [] as number[], cold: [] as number[], warm: [] as number[] };
  for (let i = 0; i < Math.max(5, Math.floor(RUNS / 2)); i++) {
    await quiet(all, warm);
    plot.bare.push(await bare(PLOT));
    await quiet(all, warm);
    plot.cold.push(await timed(cold, PLOT));
    await quiet(all, warm);
    plot.warm.push(await timed(warm, PLOT));
  }
  const data = { bare: [] as number[], cold: [] as number[], warm: [] as number[] };
  for (let i = 0; i < Math.max(5, Math.floor(RUNS / 2)); i++) {
    await quiet(all, warm);
    data.bare.push(await bare(DATA));
    await quiet(all, warm);
    data.cold.push(await timed(cold, DATA));
    await quiet(all, warm);
    data.warm.push(await timed(warm, DATA));
  }
  const cg = detectCgroups();
  const cgMs: number[] = [];
  if (cg.mode !== 'none') {
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      RunCgroup.create(cg, `code-agent-bench-${process.pid}-${i}`, { memoryBytes: 512 << 20, maxProcesses: 64 }).remove();
      cgMs.push(performance.now() - t0);
    }
  }
  const thrCold = await throughput(cold, 'pass', false);
  const thrWarm = await throughput(warm, 'pass', true);
  const thrColdPlot = await throughput(cold, PLOT, false);
  const thrWarmPlot = await throughput(warm, PLOT, true);

  const f = (x: number) => x.toFixed(1);
  const b = p50(t.bare);
  const x = (ms: number) => `${f(ms)} ms (${(ms / b).toFixed(2)} × bare)`;
  console.log(`trivial program, p50 of ${RUNS}: bare ${f(b)} ms | cold ${x(p50(t.cold))} (target ≤ 1.5) | warm ${x(p50(t.warm))} (target ≤ 0.5)`);
  console.log(`  cold with nothing prepared (no spare slot, e.g. a burst): ${x(p50(t.scratch))}`);
  console.log(`matplotlib plot to PNG, p50 of ${plot.bare.length}: bare ${f(p50(plot.bare))} ms | cold ${f(p50(plot.cold))} ms | warm ${f(p50(plot.warm))} ms — warm ${(p50(plot.cold) / p50(plot.warm)).toFixed(1)} × faster than cold, ${(p50(plot.bare) / p50(plot.warm)).toFixed(1)} × faster than bare (target ≥ 3)`);
  console.log(`seaborn + scikit-learn program, p50 of ${data.bare.length}: bare ${f(p50(data.bare))} ms | cold ${f(p50(data.cold))} ms | warm ${f(p50(data.warm))} ms — warm ${(p50(data.cold) / p50(data.warm)).toFixed(1)} × faster than cold`);
  console.log(`throughput at concurrency 2 (${THROUGHPUT_RUNS} runs, machine CPU incl. pool refills):`);
  console.log(`  trivial: cold ${thrCold.perS.toFixed(1)} runs/s, ${thrCold.cpuPerRun.toFixed(3)} CPU s/run | warm ${thrWarm.perS.toFixed(1)} runs/s, ${thrWarm.cpuPerRun.toFixed(3)} CPU s/run`);
  console.log(`  plot:    cold ${thrColdPlot.perS.toFixed(1)} runs/s, ${thrColdPlot.cpuPerRun.toFixed(3)} CPU s/run | warm ${thrWarmPlot.perS.toFixed(1)} runs/s, ${thrWarmPlot.cpuPerRun.toFixed(3)} CPU s/run`);
  console.log(
    `cgroup per run: cold from nothing p50 with ${f(p50(t.scratch))} ms vs without ${f(p50(t.noCg))} ms (Δ ${f(p50(t.scratch) - p50(t.noCg))} ms, mostly joining it); ` +
      `create + limits + remove alone p50 ${cgMs.length ? p50(cgMs).toFixed(2) : 'n/a'} ms; a prepared slot has both done before the run`,
  );
  await Promise.all(all.map((ex) => ex.close()));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
