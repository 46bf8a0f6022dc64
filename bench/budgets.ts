/**
 * What a budget reservation costs an LLM call (docs/operations.md "Budgets"): on each backend
 * (a SQLite file, Redis, PostgreSQL, the last two started locally as the tests do), the median
 * time of what the ledger does around one call with budgets on (reserve before it, settle after
 * it) against what it did before (one addition after it), calls one after another; then the
 * same with 8 calls at once against one channel (the time until all 8 are reserved and settled).
 *
 * Run: `npm run build && node dist/bench/budgets.js [calls=200]`
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import type { UsageLedger } from '../src/history/usage.js';
import { startPostgres, startRedis } from '../test/helpers/servers.js';
import { median } from './shared/stats.js';

const CALLS = Number(process.argv[2] ?? 200);
const AT_ONCE = 8;
const USAGE = { llmCalls: 1, promptTokens: 1200, completionTokens: 300, llmMs: 900 };
const LIMITS = { channelLimit: 1e12, userLimit: 1e12, ttlMs: 120_000 };

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Medians in ms: one addition; one reservation and its settlement; 8 calls at once, reserved and settled. */
async function measure(ledger: UsageLedger): Promise<{ add: number; reserved: number; atOnce: number }> {
  const day = '2031-01-01';
  const key = { day, channel: 'slack:T:C1', user: 'slack:T:U1' };
  const call = async () => {
    const id = randomUUID();
    const r = await ledger.reserve({ id, key, tokens: 4000, ...LIMITS });
    if (!r.held) throw new Error('a reservation was refused');
    await ledger.settle(id, key, USAGE);
  };
  for (let i = 0; i < 20; i++) await call(); // warm-up
  const add: number[] = [];
  const reserved: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    add.push(await timed(() => ledger.add(key, USAGE)));
    reserved.push(await timed(call));
  }
  const atOnce: number[] = [];
  for (let i = 0; i < Math.max(5, CALLS / 20); i++) atOnce.push(await timed(() => Promise.all(Array.from({ length: AT_ONCE }, call))));
  return { add: median(add), reserved: median(reserved), atOnce: median(atOnce) };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-budgets-'));
  const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  const lines = [`budget reservations: ledger time around one LLM call (${CALLS} calls one after another, medians)`];
  try {
    for (const [name, url] of [['sqlite', `sqlite://${join(dir, 'bench.sqlite')}`], ['redis', redis.url], ['postgresql', pg.url]] as const) {
      const store = await KeyvHistoryStore.open(url);
      try {
        const m = await measure(store.usage);
        lines.push(
          `  ${name.padEnd(10)} before (add): ${m.add.toFixed(2)} ms   with budgets (reserve + settle): ${m.reserved.toFixed(2)} ms ` +
            `(×${(m.reserved / m.add).toFixed(2)})   ${AT_ONCE} calls at once: ${m.atOnce.toFixed(2)} ms`,
        );
      } finally {
        await store.close();
      }
    }
  } finally {
    await Promise.all([redis.stop(), pg.stop()]);
    await rm(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
