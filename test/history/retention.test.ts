/**
 * Retention on a real store (SQLite file and redis-server): a sweep deletes runs unchanged for
 * longer than runs_days with their workspace files and outputs, empties the files of runs past
 * files_days, keeps recent runs, memory and team programs, and reads a bounded number of runs per
 * sweep; forgetting one run deletes exactly that run and its thread link.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { forgetRun, RetentionSweeper } from '../../src/history/retention.js';
import { DEFAULT_MEMORY_LIMITS } from '../../src/history/memory.js';
import { safeSegment } from '../../src/history/ids.js';
import type { Run } from '../../src/history/types.js';
import { startRedis, type TestServer } from '../helpers/servers.js';

const DAY = 86_400_000;
const C = 'slack:T1:C1';

function runAged(days: number, tag: string): Run {
  const at = Date.now() - days * DAY;
  const iso = new Date(at).toISOString();
  return { id: `${at.toString(36)}-${tag}`, conversationId: C, requirement: `r ${tag}`, status: 'success', attempts: [], createdAt: iso, updatedAt: iso };
}

describe.each([
  { name: 'sqlite', start: async (): Promise<TestServer> => {
    const dir = mkdtempSync(join(tmpdir(), 'retention-sqlite-'));
    return { url: `sqlite://${join(dir, 'h.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
  } },
  { name: 'redis', start: startRedis },
])('retention on $name', ({ start }) => {
  let server: TestServer;
  let store: KeyvHistoryStore;
  let artifacts: string;
  beforeAll(async () => {
    server = await start();
    store = await KeyvHistoryStore.open(server.url);
    artifacts = mkdtempSync(join(tmpdir(), 'retention-artifacts-'));
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
    rmSync(artifacts, { recursive: true, force: true });
  });

  /** Saves a run with one workspace file and one output file on the host. */
  async function withFiles(run: Run): Promise<string> {
    await store.saveRun(run);
    await store.putWorkspaceFiles(C, run.id, [{ name: 'customers.csv', content: Buffer.from(`name\n${run.id}\n`), origin: { kind: 'input', turn: 1, at: run.createdAt } }]);
    const out = join(artifacts, safeSegment(C), run.id, '1');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'plot.png'), 'png');
    return join(artifacts, safeSegment(C), run.id);
  }

  it('deletes old runs with their files and outputs, empties runs past files_days, keeps recent runs, memory and programs', async () => {
    const old = runAged(40, 'old001');
    const middle = runAged(10, 'mid001');
    const recent = runAged(1, 'new001');
    const oldDir = await withFiles(old);
    const middleDir = await withFiles(middle);
    const recentDir = await withFiles(recent);
    await store.linkThread(C, '1700000000.000100', old.id);
    await store.linkThread(C, '1700000000.000101', old.id); // a second thread of the same run (a re-run posted elsewhere)
    await store.linkThread(C, '1700000000.000102', middle.id);
    await store.linkThread(C, '1700000000.000103', recent.id);
    await store.memory.add(C, { kind: 'definition', text: 'revenue = units × price', addedBy: 'U1', addedAt: old.createdAt }, 50, DEFAULT_MEMORY_LIMITS);
    await store.programs.save(C, 'weekly', { code: 'print(1)', request: 'r', inputs: { files: [], sources: [], hosts: [] }, parameters: [], runId: old.id, approvedBy: 'U1', approvedAt: old.createdAt });

    const logged: string[] = [];
    const counted: string[] = [];
    const sweeper = new RetentionSweeper(store, { runsDays: 30, filesDays: 7 }, { artifactRoot: artifacts, log: (m) => logged.push(m), counted: (w) => counted.push(w) });
    const result = await sweeper.sweep();
    expect(result.deleted).toEqual([`${C} ${old.id}`]);
    expect(result.emptied).toEqual([`${C} ${middle.id}`]);
    expect(result.finished).toBe(true);
    expect(counted).toEqual(['run', 'files']);

    expect(await store.getRun(C, old.id)).toBeUndefined();
    expect((await store.getWorkspace(C, old.id)).files).toEqual([]);
    expect(await store.internals().atomics.keys(`blob:${C}:${old.id}:`)).toEqual([]);
    expect(existsSync(oldDir)).toBe(false);
    expect(await store.threadRunId(C, '1700000000.000100')).toBeUndefined();
    expect(await store.threadRunId(C, '1700000000.000101')).toBeUndefined();
    expect(await store.internals().atomics.keys(`thread:${C}:`)).toEqual([`thread:${C}:1700000000.000102`, `thread:${C}:1700000000.000103`]);
    expect(await store.threadRunId(C, '1700000000.000102')).toBe(middle.id); // a run whose files went keeps its thread
    expect(await store.threadRunId(C, '1700000000.000103')).toBe(recent.id);

    expect((await store.getRun(C, middle.id))?.requirement).toBe('r mid001');
    expect((await store.getWorkspace(C, middle.id)).files).toEqual([]);
    expect(existsSync(middleDir)).toBe(false);

    expect((await store.readWorkspace(C, recent.id)).map((f) => f.content.toString())).toEqual([`name\n${recent.id}\n`]);
    expect(existsSync(recentDir)).toBe(true);
    expect((await store.memory.list(C, false)).map((e) => e.text)).toEqual(['revenue = units × price']);
    expect(await store.programs.get(C, 'weekly')).toBeDefined();
    expect(logged.join('\n')).toMatch(/deleted run .*old001.*retention\.runs_days: 30/);
  });

  it('reads at most maxRunsPerSweep runs per sweep and goes on from there', async () => {
    const olds = [runAged(50, 'b00001'), runAged(49, 'b00002'), runAged(48, 'b00003')];
    for (const r of olds) await store.saveRun(r);
    const sweeper = new RetentionSweeper(store, { runsDays: 30 }, { maxRunsPerSweep: 1 });
    const first = await sweeper.sweep();
    expect(first.read).toBe(1);
    expect(first.deleted).toHaveLength(1);
    let deleted = first.deleted.length;
    for (let i = 0; i < 10 && deleted < 3; i++) deleted += (await sweeper.sweep()).deleted.length;
    expect(deleted).toBe(3);
    for (const r of olds) expect(await store.getRun(C, r.id)).toBeUndefined();
  });

  it("reads a conversation's thread links once per walk, and leaves a link relinked to another run since", async () => {
    const [x, y, now] = [runAged(60, 'x00001'), runAged(59, 'y00001'), runAged(0, 'z00001')];
    for (const r of [x, y, now]) await store.saveRun(r);
    await store.linkThread(C, '1700000000.000400', x.id);
    await store.linkThread(C, '1700000000.000500', y.id);
    const sweeper = new RetentionSweeper(store, { runsDays: 30 }, { maxRunsPerSweep: 1 });
    expect((await sweeper.sweep()).deleted).toEqual([`${C} ${x.id}`]);
    expect(await store.threadRunId(C, '1700000000.000400')).toBeUndefined();
    await store.linkThread(C, '1700000000.000500', now.id); // the thread now belongs to a new run
    let deleted: string[] = [];
    for (let i = 0; i < 5 && !deleted.includes(`${C} ${y.id}`); i++) deleted = [...deleted, ...(await sweeper.sweep()).deleted];
    expect(deleted).toContain(`${C} ${y.id}`);
    expect(await store.threadRunId(C, '1700000000.000500')).toBe(now.id);
  });

  it('forgets exactly one run with its files, outputs and thread link', async () => {
    const a = runAged(2, 'fa0001');
    const b = runAged(2, 'fb0001');
    const aDir = await withFiles(a);
    const bDir = await withFiles(b);
    await store.linkThread(C, '1700000000.000200', a.id);
    await store.linkThread(C, '1700000000.000300', b.id);
    const done = await forgetRun(store, C, a.id, artifacts);
    expect(done).toEqual({ run: true, files: 1, threads: ['1700000000.000200'] });
    expect(await store.getRun(C, a.id)).toBeUndefined();
    expect((await store.getWorkspace(C, a.id)).files).toEqual([]);
    expect(existsSync(aDir)).toBe(false);
    expect(await store.threadRunId(C, '1700000000.000200')).toBeUndefined();
    expect((await store.findRunByThread(C, '1700000000.000300'))?.id).toBe(b.id);
    expect((await store.readWorkspace(C, b.id))).toHaveLength(1);
    expect(existsSync(bDir)).toBe(true);
  });
});
