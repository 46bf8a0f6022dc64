/**
 * Workspace restore benchmark. Build with `npm run build`, run with `npm run bench:workspace` (as
 * root, for the sandbox's tmpfs work dir). For each store — SQLite (embedded) and redis-server
 * (queue mode; started on a free port) — it stores workspaces of 1, 10 and 50 files holding 1 MB
 * and 20 MB in all, then times what an execution costs with the workspace restored (read the
 * manifest and every content, then execute a program that lists its work dir with the files in it)
 * against the same execution with no workspace. A restore reads the contents three ways, each in
 * the same round: from the store alone (as before the cache), through this machine's workspace cache
 * as a turn does (memory and disk, warm), and from the cache's disk tier alone (another process on
 * this machine). Variants are interleaved round by round (the readers in turn first), so each sees the same machine load.
 * Prints p50 and p99 of each, the added time, and the cached restores' p50 as a ratio of the
 * store's. `BENCH_RUNS` (default 30) sets the samples per variant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import type { NewWorkspaceFile } from '../src/history/workspace.js';
import { WorkspaceCache } from '../src/history/workspace-cache.js';
import { readWorkspaceCached } from '../src/history/workspace-restore.js';
import { BubblewrapExecutor } from '../src/sandbox/executor.js';
import { startRedis, type TestServer } from '../test/helpers/servers.js';
import { percentile } from './shared/stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const MB = 1_000_000;
const SHAPES = [
  { files: 1, bytes: 1 * MB },
  { files: 10, bytes: 1 * MB },
  { files: 50, bytes: 1 * MB },
  { files: 1, bytes: 20 * MB },
  { files: 10, bytes: 20 * MB },
  { files: 50, bytes: 20 * MB },
];
const PROGRAM = 'import os\nprint(len(os.listdir(".")))';
const LIMITS = { maxFiles: 100, maxBytes: 64 * 1024 * 1024, maxConversationBytes: 1024 * 1024 * 1024 };

/** Random (incompressible) files of `bytes` in all. */
function workspaceFiles(files: number, bytes: number): NewWorkspaceFile[] {
  const each = Math.floor(bytes / files);
  const at = new Date().toISOString();
  return Array.from({ length: files }, (_, i) => ({ name: `data-${i + 1}.bin`, content: randomBytes(each), origin: { kind: 'input' as const, turn: 1, at } }));
}

/** How a restore reads contents: the store alone, or through a cache. */
interface Reader {
  label: string;
  cache?: WorkspaceCache;
}

interface Timing {
  restoreMs: number[];
  totalMs: number[];
}

const fmt = (x: number) => x.toFixed(1).padStart(7);

async function benchStore(name: string, url: string, ex: BubblewrapExecutor, cacheDir: string): Promise<void> {
  const store = await KeyvHistoryStore.open(url);
  const conv = `bench:${Date.now()}`;
  // a fresh disk tier per store, so the first restore of each shape fills it (not timed)
  const readers: Reader[] = [
    { label: 'store' },
    { label: 'cache', cache: new WorkspaceCache({ dir: join(cacheDir, name.split(' ')[0]!) }) },
    { label: 'disk cache', cache: new WorkspaceCache({ dir: join(cacheDir, name.split(' ')[0]!), memoryBytes: 0 }) },
  ];
  try {
    const runs = SHAPES.map((shape, i) => ({ shape, runId: `ws-${i}` }));
    for (const { shape, runId } of runs) await store.putWorkspaceFiles(conv, runId, workspaceFiles(shape.files, shape.bytes), LIMITS);
    const base: Timing = { restoreMs: [], totalMs: [] };
    const timings = runs.map(() => readers.map((): Timing => ({ restoreMs: [], totalMs: [] })));
    await ex.execute(PROGRAM); // the first execution starts the sandbox's pool: not timed
    for (const { runId } of runs) for (const r of readers) await readWorkspaceCached(store, r.cache, conv, runId, await store.getWorkspace(conv, runId));
    for (let round = 0; round < RUNS; round++) {
      const t0 = performance.now();
      const plain = await ex.execute(PROGRAM);
      if (!plain.success) throw new Error(`execution failed: ${plain.stderr}`);
      base.totalMs.push(performance.now() - t0);
      for (const [i, { runId, shape }] of runs.entries()) {
        // the readers take turns going first, so that the garbage a store read leaves is collected in each one's time alike
        for (let k = 0; k < readers.length; k++) {
          const j = (k + round + i) % readers.length;
          const reader = readers[j]!;
          const start = performance.now();
          const manifest = await store.getWorkspace(conv, runId);
          const files = await readWorkspaceCached(store, reader.cache, conv, runId, manifest);
          const restored = performance.now();
          const r = await ex.execute(PROGRAM, { inputFiles: files });
          if (!r.success || Number(r.stdout.trim()) !== shape.files + 1) throw new Error(`execution with the workspace failed: ${r.stderr || r.stdout}`);
          timings[i]![j]!.restoreMs.push(restored - start);
          timings[i]![j]!.totalMs.push(performance.now() - start);
        }
      }
    }
    const b50 = percentile(base.totalMs, 50);
    const b99 = percentile(base.totalMs, 99);
    console.log(`\n${name} (${RUNS} samples per variant)`);
    console.log('workspace              read from    restore p50  p99 | execution total p50  p99 | added p50  p99 (ms) | restore p50 vs store');
    console.log(`${'no workspace'.padEnd(22)} ${''.padEnd(12)} ${fmt(0)} ${fmt(0)} |              ${fmt(b50)} ${fmt(b99)} |   ${fmt(0)} ${fmt(0)} |`);
    for (const [i, { shape }] of runs.entries()) {
      const label = `${shape.files} file${shape.files === 1 ? '' : 's'}, ${shape.bytes / MB} MB`;
      const store50 = percentile(timings[i]![0]!.restoreMs, 50);
      for (const [j, reader] of readers.entries()) {
        const t = timings[i]![j]!;
        const r50 = percentile(t.restoreMs, 50);
        const t50 = percentile(t.totalMs, 50);
        const t99 = percentile(t.totalMs, 99);
        const ratio = j === 0 ? '' : `×${(r50 / store50).toFixed(3)}`;
        console.log(
          `${(j === 0 ? label : '').padEnd(22)} ${reader.label.padEnd(12)} ${fmt(r50)} ${fmt(percentile(t.restoreMs, 99))} |              ${fmt(t50)} ${fmt(t99)} |   ${fmt(t50 - b50)} ${fmt(t99 - b99)} | ${ratio}`,
        );
      }
    }
    for (const { runId } of runs) await store.deleteRun(conv, runId);
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const ex = new BubblewrapExecutor({ limits: { wallTimeS: 20 } });
  await ex.check();
  const dir = mkdtempSync(join(tmpdir(), 'bench-workspace-'));
  let redis: TestServer | undefined;
  try {
    console.log("workspace bench: restore a run's workspace (from the store; through this machine's cache), then execute a program in it (real sandbox)");
    await benchStore('SQLite (embedded)', `sqlite://${join(dir, 'history.sqlite')}`, ex, join(dir, 'cache'));
    redis = await startRedis();
    await benchStore('Redis (queue mode)', redis.url, ex, join(dir, 'cache'));
  } finally {
    await redis?.stop();
    await ex.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
