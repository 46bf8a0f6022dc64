/**
 * The overhead of metrics on a warm trivial run (docs/operations.md "Cost"): two cores built the
 * same way (fake OpenAI server, real sandbox with a warm pool, SQLite history, usage recorded in
 * both), one with metrics on and one with metrics off, run the same trivial requirement
 * (`print("hi")`) in turns, after a warm-up; prints the median run time of each, the difference,
 * the median time of a scrape of /metrics, and the cost of one run's metric updates measured alone.
 *
 * Run: `npm run build && node dist/bench/metrics.js [runs=20]` (`BENCH_OFF_FIRST=1`: the metrics-off core
 * is built first, to see whether the order the cores are built in moves the figures)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/config/load.js';
import { createApp, type App } from '../src/app/app.js';
import { Metrics } from '../src/metrics/metrics.js';
import { TurnObserver } from '../src/agent/loop/index.js';
import { inAccount } from '../src/log/scope.js';
import { startFakeOpenAi } from '../test/fakes/openai-server.js';
import { median } from './shared/stats.js';

const RUNS = Number(process.argv[2] ?? 20);
const WARMUP = 3;
const REPLY = { content: 'Here you go:\n```python\nprint("hi")\n```', usage: { prompt_tokens: 120, completion_tokens: 12 } };
const account = { platform: 'slack', channel: 'slack:T1:C1', user: 'slack:T1:U1' };

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-metrics-'));
  const llm = await startFakeOpenAi({ replies: [REPLY] });
  const apps: Record<'on' | 'off', App> = {} as Record<'on' | 'off', App>;
  try {
    for (const mode of (process.env.BENCH_OFF_FIRST ? ['off', 'on'] : ['on', 'off']) as ('on' | 'off')[]) {
      const config = parseConfig(
        {
          llm: { provider: 'openai', base_url: llm.url, api_key: 'k', model: 'fake-model', max_retries: 0 },
          agent: { max_retries: 0, verify: 'off' },
          sandbox: { warm_pool: 1 },
          store: { url: `sqlite://${join(dir, `${mode}.sqlite`)}`, data_dir: join(dir, mode) },
        },
        {},
      );
      apps[mode] = await createApp(config, { metrics: mode === 'on' ? new Metrics() : null, warn: () => {} });
      await apps[mode].executor.check();
    }
    const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
    const once = async (mode: 'on' | 'off'): Promise<number> => {
      // the warm pools refill between runs (not timed): each run starts from a warm sandbox
      await new Promise((r) => setTimeout(r, 400));
      const started = performance.now();
      const run = await inAccount(account, () => apps[mode].agent.run('slack:T1:C1', 'print hi'));
      if (run.status !== 'success') throw new Error(`a ${mode} run ended ${run.status}: ${run.error}`);
      return performance.now() - started;
    };
    for (let i = 0; i < WARMUP; i++) for (const mode of ['on', 'off'] as const) await once(mode);
    for (let i = 0; i < RUNS; i++) {
      // alternate which goes first, so that neither always follows the other's sandbox refill
      for (const mode of i % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) times[mode].push(await once(mode));
    }
    const scrapes: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      bytes = (await apps.on.metrics!.scrape()).body.length;
      scrapes.push(performance.now() - started);
    }
    const updates = measureUpdates();
    const on = median(times.on);
    const off = median(times.off);
    process.stdout.write(
      [
        `metrics overhead on a warm trivial run (${RUNS} runs each, after ${WARMUP} warm-up runs; fake LLM, real sandbox, warm pool 1)`,
        `  median run, metrics on:   ${on.toFixed(1)} ms`,
        `  median run, metrics off:  ${off.toFixed(1)} ms`,
        `  difference:               ${(on - off).toFixed(1)} ms (${(((on - off) / off) * 100).toFixed(1)}%)`,
        `  one run's metric updates alone: ${updates.toFixed(1)} µs (median of 2000)`,
        `  scrape of /metrics:       ${median(scrapes).toFixed(2)} ms median, ${bytes} bytes`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const app of Object.values(apps)) await app.close();
    await llm.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The metric updates of one trivial run (one turn, one attempt, one LLM call, one execution), timed alone, in µs. */
function measureUpdates(): number {
  const metrics = new Metrics();
  const samples: number[] = [];
  const run = { status: 'success', error: undefined } as unknown as Parameters<TurnObserver['ended']>[0];
  for (let i = 0; i < 2000; i++) {
    const started = performance.now();
    const observer = new TurnObserver(metrics, 'slack', 'run');
    const listen = observer.listener(undefined);
    listen({ type: 'generating', runId: 'r', attempt: 1, trigger: 'requirement', lastAttempt: 1 });
    metrics.llmDuration.observe({ purpose: 'code', provider: 'openai', result: 'ok' }, 0.5);
    metrics.llmTokens.inc({ purpose: 'code', type: 'prompt' }, 120);
    metrics.llmTokens.inc({ purpose: 'code', type: 'completion' }, 12);
    metrics.executionDuration.observe({ result: 'success' }, 0.1);
    listen({ type: 'executed', runId: 'r', attempt: 1, result: {} as never });
    observer.ended(run);
    samples.push((performance.now() - started) * 1000);
  }
  return median(samples);
}

await main();
