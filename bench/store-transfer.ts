/**
 * Store export, import and retention benchmark. Build with `npm run build`, run with
 * `npm run bench:store`. Fills a SQLite store with `BENCH_RUNS` runs (default 2000) in
 * `BENCH_CONVERSATIONS` conversations (default 20), each run with two attempts, a thread link and a
 * workspace file of `BENCH_FILE_KB` KiB (default 64, random: incompressible), then times: export from SQLite to a
 * file, import into PostgreSQL and into Redis (started on free ports), export from each, and a
 * retention sweep deleting every run (with its thread link and files). Prints runs/s and MB/s of
 * each, and the RSS of the process while exporting: its peak and its growth over the RSS before
 * (the export streams: one record at a time, so neither grows with the store). Then the same export
 * as users run it, `code-agent store export > file` in a process of its own (under `/usr/bin/time`
 * when it is there), with that process's peak RSS: what memory an export needs.
 */
import { closeSync, createWriteStream, existsSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import { exportDump } from '../src/history/transfer/export.js';
import { importDump } from '../src/history/transfer/import.js';
import { RetentionSweeper } from '../src/history/retention.js';
import type { Run } from '../src/history/types.js';
import { startPostgres, startRedis } from '../test/helpers/servers.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 20);
const FILE_KB = Number(process.env.BENCH_FILE_KB ?? 64);
const OLD = '2020-01-01T00:00:00.000Z';

function run(i: number): Run {
  const conversationId = `slack:T1:C${i % CONVERSATIONS}`;
  const id = `${(Date.parse(OLD) + i).toString(36)}-${i.toString(16).padStart(6, '0')}`;
  const result = { success: true, stdout: 'ok\n'.repeat(20), stderr: '', exitCode: 0, signal: null, timedOut: false, durationMs: 30, artifacts: [] };
  const attempt = (index: number) => ({ index, trigger: index === 1 ? 'requirement' : 'error', code: 'print("x")\n'.repeat(30), usage: { promptTokens: 500, completionTokens: 80 }, createdAt: OLD, result });
  return { id, conversationId, requirement: `report ${i}`, status: 'success', attempts: [attempt(1), attempt(2)], createdAt: OLD, updatedAt: OLD } as unknown as Run;
}

/** Exports `store` to `file`; returns seconds, the peak RSS growth and the peak RSS in MB. */
async function exportTo(store: KeyvHistoryStore, file: string): Promise<{ s: number; rssMb: number; peakMb: number }> {
  const out = createWriteStream(file);
  const base = process.memoryUsage().rss;
  let peak = base;
  const started = performance.now();
  for await (const line of exportDump(store)) {
    if (!out.write(line)) await once(out, 'drain');
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  out.end();
  await once(out, 'finish');
  return { s: (performance.now() - started) / 1000, rssMb: (peak - base) / 1e6, peakMb: peak / 1e6 };
}

const CLI = fileURLToPath(new URL('../adapters/cli/bin.js', import.meta.url));

/** `code-agent store export` of `url` into `file` in a process of its own; seconds and its peak RSS in MB (undefined without /usr/bin/time). */
function cliExport(dir: string, url: string, file: string): { s: number; peakMb: number | undefined } {
  const config = join(dir, 'export.yaml');
  writeFileSync(config, `store:\n  url: "${url}"\n  data_dir: "${join(dir, 'data')}"\n`);
  const timed = existsSync('/usr/bin/time');
  const out = openSync(file, 'w');
  const started = performance.now();
  const args = [CLI, '--config', config, 'store', 'export'];
  const child = timed ? spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, ...args], { stdio: ['ignore', out, 'pipe'] }) : spawnSync(process.execPath, args, { stdio: ['ignore', out, 'pipe'] });
  closeSync(out);
  if (child.status !== 0) throw new Error(`store export failed: ${String(child.stderr)}`);
  const kb = /maxrss=(\d+)/.exec(String(child.stderr))?.[1];
  return { s: (performance.now() - started) / 1000, peakMb: kb ? Number(kb) / 1000 : undefined };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const sqlite = await KeyvHistoryStore.open(`sqlite://${join(dir, 'h.sqlite')}`);
  const limits = { maxFiles: 100, maxBytes: 64 * 1024 * 1024, maxConversationBytes: 2 ** 40 };
  try {
    const filled = performance.now();
    for (let i = 0; i < RUNS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, RUNS - i) }, async (_, j) => {
        const r = run(i + j);
        await sqlite.saveRun(r);
        await sqlite.linkThread(r.conversationId, `17000${String(i + j).padStart(5, '0')}.000100`, r.id);
        await sqlite.putWorkspaceFiles(r.conversationId, r.id, [{ name: 'in.bin', content: randomBytes(FILE_KB * 1024), origin: { kind: 'input', turn: 1, at: OLD } }], limits);
      }));
    }
    const line = (what: string, s: number, bytes: number, extra = '') =>
      console.log(`${what.padEnd(28)} ${s.toFixed(1).padStart(6)} s  ${(RUNS / s).toFixed(0).padStart(6)} runs/s  ${(bytes / 1e6 / s).toFixed(1).padStart(6)} MB/s${extra}`);
    global.gc?.();
    console.log(`${RUNS} runs in ${CONVERSATIONS} conversations, a ${FILE_KB} KiB file and a thread link each (filled in ${((performance.now() - filled) / 1000).toFixed(0)} s)`);
    const dump = join(dir, 'sqlite.jsonl');
    const e1 = await exportTo(sqlite, dump);
    const bytes = statSync(dump).size;
    line('export SQLite', e1.s, bytes, `  (dump ${(bytes / 1e6).toFixed(0)} MB, RSS +${e1.rssMb.toFixed(0)} MB, peak ${e1.peakMb.toFixed(0)} MB)`);
    const cliLine = (name: string, url: string) => {
      const c = cliExport(dir, url, join(dir, 'cli.jsonl'));
      line(`store export ${name} (CLI)`, c.s, bytes, c.peakMb !== undefined ? `  (its process: peak RSS ${c.peakMb.toFixed(0)} MB)` : '');
    };
    cliLine('SQLite', `sqlite://${join(dir, 'h.sqlite')}`);
    for (const [name, url] of [['PostgreSQL', postgres.url], ['Redis', redis.url]] as const) {
      const store = await KeyvHistoryStore.open(url);
      try {
        let t = performance.now();
        await importDump(store, dump);
        line(`import into ${name}`, (performance.now() - t) / 1000, bytes);
        const e = await exportTo(store, join(dir, `${name}.jsonl`));
        line(`export ${name}`, e.s, bytes, `  (RSS +${e.rssMb.toFixed(0)} MB, peak ${e.peakMb.toFixed(0)} MB)`);
        cliLine(name, url);
        t = performance.now();
        const sweeper = new RetentionSweeper(store, { runsDays: 30 }, { maxRunsPerSweep: 500 });
        let sweeps = 0;
        for (let done = false; !done; sweeps++) done = (await sweeper.sweep()).finished;
        line(`retention purge ${name}`, (performance.now() - t) / 1000, bytes, `  (${sweeps} sweeps of ≤500 runs)`);
      } finally {
        await store.close();
      }
    }
    const t = performance.now();
    const sweeper = new RetentionSweeper(sqlite, { runsDays: 30 }, { maxRunsPerSweep: 500 });
    let sweeps = 0;
    for (let done = false; !done; sweeps++) done = (await sweeper.sweep()).finished;
    line('retention purge SQLite', (performance.now() - t) / 1000, bytes, `  (${sweeps} sweeps of ≤500 runs)`);
  } finally {
    await sqlite.close();
    await Promise.all([postgres.stop(), redis.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
