/**
 * Workspace restore benchmark. Build with `npm run build`, run with `npm run bench:workspace` (as
 * root, for the sandbox's tmpfs work dir). For each store — SQLite (embedded) and redis-server
 * (queue mode; started on a free port) — it stores workspaces of 1, 10 and 50 files holding 1 MB
 * and 20 MB in all, then times what an execution costs with the workspace restored (read the
 * manifest and every content from the store, then execute a program that lists its work dir with
 * the files in it) against the same execution with no workspace. Variants are interleaved round by
 * round, so each sees the same machine load. Prints p50 and p99 of each and the added time.
 * `BENCH_RUNS` (default 30) sets the samples per variant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvHistoryStore } from '../src/history/keyv-store.js';
import type { NewWorkspaceFile } from '../src/history/workspace.js';
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

interface Timing {
  label: string;
  restoreMs: number[];
  totalMs: number[];
}

async function benchStore(name: string, url: string, ex: BubblewrapExecutor): Promise<void> {
  const store = await KeyvHistoryStore.open(url);
  const conv = `bench:${Date.now()}`;
  try {
    const runs = SHAPES.map((shape, i) => ({ shape, runId: `ws-${i}` }));
    for (const { shape, runId } of runs) await store.putWorkspaceFiles(conv, runId, workspaceFiles(shape.files, shape.bytes), LIMITS);
    const base: Timing = { label: 'no workspace', restoreMs: [], totalMs: [] };
    const timings: Timing[] = runs.map(({ shape }) => ({ label: `${shape.files} file${shape.files === 1 ? '' : 's'}, ${shape.bytes / MB} MB`, restoreMs: [], totalMs: [] }));
    await ex.execute(PROGRAM); // the first execution starts the sandbox's pool: not timed
    for (let round = 0; round < RUNS; round++) {
      const t0 = performance.now();
      const plain = await ex.execute(PROGRAM);
      if (!plain.success) throw new Error(`execution failed: ${plain.stderr}`);
      base.totalMs.push(performance.now() - t0);
      base.restoreMs.push(0);
      for (const [i, { runId, shape }] of runs.entries()) {
        const start = performance.now();
        const manifest = await store.getWorkspace(conv, runId);
        const files = await store.readWorkspace(conv, runId, manifest);
        const restored = performance.now();
        const r = await ex.execute(PROGRAM, { inputFiles: files });
        if (!r.success || Number(r.stdout.trim()) !== shape.files + 1) throw new Error(`execution with the workspace failed: ${r.stderr || r.stdout}`);
        timings[i]!.restoreMs.push(restored - start);
        timings[i]!.totalMs.push(performance.now() - start);
      }
    }
    const fmt = (x: number) => x.toFixed(1).padStart(7);
    const b50 = percentile(base.totalMs, 50);
    const b99 = percentile(base.totalMs, 99);
    console.log(`\n${name} (${RUNS} samples per variant)`);
    console.log('workspace              restore p50  p99 | execution total p50  p99 | added p50  p99 (ms)');
    console.log(`${base.label.padEnd(22)} ${fmt(0)} ${fmt(0)} |              ${fmt(b50)} ${fmt(b99)} |   ${fmt(0)} ${fmt(0)}`);
    for (const t of timings) {
      const t50 = percentile(t.totalMs, 50);
      const t99 = percentile(t.totalMs, 99);
      console.log(
        `${t.label.padEnd(22)} ${fmt(percentile(t.restoreMs, 50))} ${fmt(percentile(t.restoreMs, 99))} |              ${fmt(t50)} ${fmt(t99)} |   ${fmt(t50 - b50)} ${fmt(t99 - b99)}`,
      );
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
    console.log('workspace bench: restore a run\'s workspace from the store, then execute a program in it (real sandbox)');
    await benchStore('SQLite (embedded)', `sqlite://${join(dir, 'history.sqlite')}`, ex);
    redis = await startRedis();
    await benchStore('Redis (queue mode)', redis.url, ex);
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
