/**
 * Workers' workspace caches drop a deleted run's files: two caches (two machines' disk tiers) on one
 * real store (redis-server, as in queue mode, and a SQLite file) hold a run's contents; a retention
 * purge, a deletion on request and a file removed each log what went, and each cache drops it at
 * its next sync (before its next use), while contents of runs kept stay cached. A cache that may
 * have missed entries (the log full without the last one it applied) drops everything; one whose
 * store cannot be read keeps going.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { forgetRun, RetentionSweeper } from '../../src/history/retention.js';
import { WorkspaceCache } from '../../src/history/workspace-cache.js';
import { cacheStored, readWorkspaceCached } from '../../src/history/workspace-restore.js';
import { FORGOTTEN_LOG_MAX, recordForgotten } from '../../src/history/workspace-forgotten.js';
import type { Run } from '../../src/history/types.js';
import { startRedis, type TestServer } from '../helpers/servers.js';

const DAY = 86_400_000;
const C = 'slack:T1:C1';
const hashOf = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function runAged(days: number, tag: string): Run {
  const at = Date.now() - days * DAY;
  const iso = new Date(at).toISOString();
  return { id: `${at.toString(36)}-${tag}`, conversationId: C, requirement: `r ${tag}`, status: 'success', attempts: [], createdAt: iso, updatedAt: iso };
}

describe.each([
  { name: 'redis', start: startRedis },
  { name: 'sqlite', start: async (): Promise<TestServer> => {
    const dir = mkdtempSync(join(tmpdir(), 'forgotten-sqlite-'));
    return { url: `sqlite://${join(dir, 'h.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
  } },
])('workspace caches on $name', ({ start }) => {
  let server: TestServer;
  let store: KeyvHistoryStore;
  let dir: string;
  beforeAll(async () => {
    server = await start();
    store = await KeyvHistoryStore.open(server.url);
    dir = mkdtempSync(join(tmpdir(), 'forgotten-caches-'));
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const outputsGone: string[] = [];
  const cacheAt = (name: string) =>
    new WorkspaceCache({ dir: join(dir, name), forgotten: (limit) => store.forgottenWorkspaceContents(limit), onForgottenRun: (r) => outputsGone.push(`${name} ${r.conversationId} ${r.runId}`) });
  const onDisk = (cache: WorkspaceCache, content: Buffer) => existsSync(join(cache.dir!, hashOf(content).slice(0, 2), hashOf(content)));

  /** A run with one file, restored through both caches (as two workers that ran its turns). */
  async function cachedRun(run: Run, caches: WorkspaceCache[]): Promise<Buffer> {
    const content = Buffer.from(`customer data of ${run.id}\n`);
    await store.saveRun(run);
    const put = await store.putWorkspaceFiles(C, run.id, [{ name: 'customers.csv', content, origin: { kind: 'input', turn: 1, at: run.createdAt } }]);
    for (const cache of caches) {
      cacheStored(cache, put.manifest, [{ name: 'customers.csv', content }]);
      expect((await readWorkspaceCached(store, cache, C, run.id, put.manifest))[0]!.content.equals(content)).toBe(true);
    }
    return content;
  }

  it('a purged run and a deleted run leave every cache at its next sync; a kept run stays cached', async () => {
    const workers = [cacheAt('w1'), cacheAt('w2')];
    await Promise.all(workers.map((w) => w.sync()));
    const oldRun = runAged(40, 'old001');
    const middleRun = runAged(10, 'mid001');
    const old = await cachedRun(oldRun, workers);
    const middle = await cachedRun(middleRun, workers);
    const kept = await cachedRun(runAged(1, 'new001'), workers);
    const asked = runAged(2, 'ask001');
    const deleted = await cachedRun(asked, workers);
    for (const w of workers) for (const c of [old, middle, kept, deleted]) expect(onDisk(w, c)).toBe(true);

    await new RetentionSweeper(store, { runsDays: 30, filesDays: 7 }).sweep();
    await forgetRun(store, C, asked.id);
    for (const w of workers) {
      await w.sync();
      for (const c of [old, middle, deleted]) {
        expect(onDisk(w, c)).toBe(false);
        expect(w.get(hashOf(c), c.length)).toBeUndefined();
      }
      expect(onDisk(w, kept)).toBe(true);
      expect(w.get(hashOf(kept), kept.length)?.equals(kept)).toBe(true);
    }
    // each machine is told which runs' outputs went (a deletion, files_days), to delete those it kept
    for (const w of ['w1', 'w2']) {
      expect(outputsGone.filter((l) => l.startsWith(`${w} `)).sort()).toEqual([oldRun.id, middleRun.id, asked.id].map((id) => `${w} ${C} ${id}`).sort());
    }
    // a third machine that starts later (a worker restarted on the same disk) knows what it applied
    const restarted = cacheAt('w1');
    expect(restarted.get(hashOf(kept), kept.length)?.equals(kept)).toBe(true);
  });

  it('a file removed from a workspace leaves the caches before their next restore', async () => {
    const worker = cacheAt('w3');
    const run = runAged(1, 'rem001');
    const content = await cachedRun(run, [worker]);
    await store.removeWorkspaceFile(C, run.id, 'customers.csv');
    // the next restore of any run syncs first
    const other = runAged(1, 'oth001');
    await store.saveRun(other);
    const put = await store.putWorkspaceFiles(C, other.id, [{ name: 'x.txt', content: Buffer.from('x'), origin: { kind: 'input', turn: 1, at: other.createdAt } }]);
    const told = outputsGone.length;
    await readWorkspaceCached(store, worker, C, other.id, put.manifest);
    expect(onDisk(worker, content)).toBe(false);
    expect(outputsGone.length).toBe(told); // one file removed: the run's outputs stay
  });

  it('a cache that may have missed entries (the log full without its last one) drops everything', async () => {
    const worker = cacheAt('w4');
    await worker.sync();
    const content = await cachedRun(runAged(1, 'gap001'), [worker]);
    const { atomics } = store.internals();
    for (let i = 0; i < FORGOTTEN_LOG_MAX; i++) await recordForgotten(atomics, ['0'.repeat(64)]);
    await worker.sync();
    expect(onDisk(worker, content)).toBe(false);
    expect(worker.get(hashOf(content), content.length)).toBeUndefined();
  }, 120_000);
});

describe('a cache whose store cannot be read', () => {
  it('keeps serving what it holds and tries again at the next use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'forgotten-down-'));
    try {
      let calls = 0;
      const cache = new WorkspaceCache({ dir, forgotten: async () => { calls++; throw new Error('connection refused'); } });
      const content = Buffer.from('kept');
      cache.put(hashOf(content), content);
      await cache.sync();
      await cache.sync();
      expect(calls).toBe(2);
      expect(cache.get(hashOf(content), content.length)?.equals(content)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
