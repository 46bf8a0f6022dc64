/**
 * Sandbox latency benchmark. Build with `npm run build`, run with `node dist/bench/sandbox.js`.
 * Prints: median latency of `pass` through the executor, median of bare `/usr/bin/python3 -c pass`
 * spawned from Node, their ratio (target ≤ 2.0), and executions per second at concurrency 2.
 */
import { spawn } from 'node:child_process';
import { BubblewrapExecutor } from '../src/sandbox/executor.js';

const PYTHON = '/usr/bin/python3';
const RUNS = 30;
const THROUGHPUT_RUNS = 40;
const CONCURRENCY = 2;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function bare(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-c', 'pass'], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`exit ${code}`))));
  });
}

async function main(): Promise<void> {
  const ex = new BubblewrapExecutor({ python: PYTHON });
  const warm = await ex.execute('pass'); // first use runs the isolation self-test
  if (!warm.success) throw new Error(`sandbox failed: ${warm.stderr}`);
  await bare();

  const sandboxMs: number[] = [];
  const bareMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // interleave, so both see the same machine load
    const t0 = performance.now();
    const r = await ex.execute('pass');
    if (!r.success) throw new Error(`sandbox run failed: ${r.stderr}`);
    sandboxMs.push(performance.now() - t0);
    bareMs.push(await bare());
  }
  const s = median(sandboxMs);
  const b = median(bareMs);

  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next++ < THROUGHPUT_RUNS) {
      const r = await ex.execute('pass');
      if (!r.success) throw new Error(`sandbox run failed: ${r.stderr}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const perSecond = THROUGHPUT_RUNS / ((performance.now() - t0) / 1000);

  console.log(`sandbox 'pass' median latency: ${s.toFixed(1)} ms (${RUNS} runs)`);
  console.log(`bare ${PYTHON} -c pass median:  ${b.toFixed(1)} ms (${RUNS} runs)`);
  console.log(`ratio: ${(s / b).toFixed(2)} (target <= 2.0)`);
  console.log(`throughput at concurrency ${CONCURRENCY}: ${perSecond.toFixed(1)} executions/s (${THROUGHPUT_RUNS} runs)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
