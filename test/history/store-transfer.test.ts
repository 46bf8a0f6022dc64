/**
 * Export and import between real backends: a conversation with runs (attempts), a thread link, a
 * workspace file, memory (live and forgotten), usage, team programs (live and removed) and schedules
 * (with their ticks' state and a pause) goes SQLite → PostgreSQL → Redis and comes out the same; importing twice changes nothing; a dump cut
 * short or with a damaged line is refused by its line number with nothing written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { exportDump } from '../../src/history/transfer/export.js';
import { DumpRefusedError, importDump } from '../../src/history/transfer/import.js';
import { DEFAULT_MEMORY_LIMITS } from '../../src/history/memory.js';
import type { NewProgramVersion } from '../../src/history/programs.js';
import { DEFAULT_SCHEDULE_LIMITS, type NewSchedule } from '../../src/history/schedules.js';
import type { Run } from '../../src/history/types.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

const C = 'slack:T1:C1';
const OTHER = 'slack:T1:C2';
const AT = '2026-02-01T10:00:00.000Z';

function makeRun(id: string, conversationId: string, updatedAt = AT): Run {
  return {
    id,
    conversationId,
    requirement: `sum of ${id}`,
    status: 'success',
    attempts: [
      { index: 1, trigger: 'requirement', code: 'print(1/0)', usage: { promptTokens: 10, completionTokens: 5 }, createdAt: AT, result: { success: false, stdout: '', stderr: 'ZeroDivisionError', exitCode: 1, signal: null, timedOut: false, durationMs: 12, artifacts: [] } },
      { index: 2, trigger: 'error', code: 'print(1)', usage: { promptTokens: 12, completionTokens: 6 }, createdAt: AT, result: { success: true, stdout: '1\n', stderr: '', exitCode: 0, signal: null, timedOut: false, durationMs: 9, artifacts: [] } },
    ],
    createdAt: AT,
    updatedAt,
  } as Run;
}

const version = (code: string): NewProgramVersion => ({
  code,
  request: 'revenue by region',
  inputs: { files: [{ name: 'sales.csv' }], sources: [], hosts: [] },
  parameters: [],
  runId: 'r1',
  approvedBy: 'U1',
  approvedAt: AT,
});

const schedule = (conversationId: string, when: string): NewSchedule => ({
  conversationId,
  platform: 'slack',
  channel: conversationId.split(':').at(-1)!,
  program: 'revenue-by-region',
  params: { region: 'north' },
  when,
  cron: '0 9 * * 1',
  timezone: 'Europe/Berlin',
  resultGate: { kind: 'always' },
  workGate: true,
  createdBy: 'U1',
  createdAt: AT,
  state: { failures: 0 },
});

async function dumpOf(store: KeyvHistoryStore, file: string, conversation?: string): Promise<string[]> {
  let text = '';
  for await (const line of exportDump(store, conversation !== undefined ? { conversation } : {})) text += line;
  writeFileSync(file, text);
  return text.trim().split('\n').slice(1, -1); // the records, without the header (its time) and the end line
}

describe('store export and import between backends', () => {
  let dir: string;
  let postgres: TestServer;
  let redis: TestServer;
  let sqlite: KeyvHistoryStore;
  let pg: KeyvHistoryStore;
  let rd: KeyvHistoryStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-transfer-'));
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    sqlite = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
    pg = await KeyvHistoryStore.open(postgres.url);
    rd = await KeyvHistoryStore.open(redis.url);
    // the conversation, on SQLite
    await sqlite.saveRun(makeRun('m1a2b3-aaaaaa', C));
    await sqlite.saveRun(makeRun('m1a2b4-bbbbbb', C));
    await sqlite.saveRun(makeRun('m1a2b5-cccccc', OTHER));
    await sqlite.linkThread(C, '1700000000.000100', 'm1a2b3-aaaaaa');
    await sqlite.putWorkspaceFiles(C, 'm1a2b3-aaaaaa', [
      { name: 'sales.csv', content: Buffer.from('region,amount\nnorth,5\n'), origin: { kind: 'input', turn: 1, at: AT } },
      { name: 'plot.png', content: Buffer.from([0, 1, 2, 255, 254]), origin: { kind: 'written', attempt: 2, turn: 1, at: AT } },
    ]);
    const entry = (text: string) => ({ kind: 'definition' as const, text, addedBy: 'U1', addedAt: AT });
    await sqlite.memory.add(C, entry('revenue = units × price'), 60, DEFAULT_MEMORY_LIMITS);
    const gone = await sqlite.memory.add(C, entry('quarters start in April'), 60, DEFAULT_MEMORY_LIMITS);
    await sqlite.memory.forget(C, gone.id, 'U2', AT);
    await sqlite.usage.add({ day: '2026-02-01', channel: C, user: 'slack:U1' }, { runs: 2, llmCalls: 3, promptTokens: 100, completionTokens: 40 });
    await sqlite.programs.save(C, 'revenue-by-region', version('print(1)'));
    await sqlite.programs.save(C, 'revenue-by-region', version('print(2)'));
    await sqlite.programs.save(C, 'old-report', version('print(3)'));
    await sqlite.programs.remove(C, 'old-report', 'U2', AT);
    await sqlite.schedules.add(schedule(OTHER, 'every day at 8'), DEFAULT_SCHEDULE_LIMITS); // s1: another channel's, not exported with C
    const weekly = await sqlite.schedules.add(schedule(C, 'every Monday at 9'), DEFAULT_SCHEDULE_LIMITS);
    await sqlite.schedules.update(C, weekly.id, { state: { failures: 0, lastTickAt: '2026-02-02T08:00:00.000Z', lastInputs: 'f1', ticks: 3, posted: 2 } });
    const paused = await sqlite.schedules.add(schedule(C, 'every Friday at 17'), DEFAULT_SCHEDULE_LIMITS);
    await sqlite.schedules.update(C, paused.id, { state: { failures: 3 }, paused: { reason: 'three ticks in a row failed', at: AT } });
  });
  afterAll(async () => {
    await Promise.all([sqlite?.close(), pg?.close(), rd?.close()]);
    await Promise.all([postgres?.stop(), redis?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries a conversation SQLite → PostgreSQL → Redis with every record kind, equal at each step', async () => {
    const first = await dumpOf(sqlite, join(dir, 'sqlite.jsonl'), C);
    const kinds = first.map((l) => (JSON.parse(l) as { kind: string }).kind);
    expect(kinds.filter((k) => k === 'run')).toHaveLength(2);
    expect(kinds).toEqual(expect.arrayContaining(['thread', 'workspace', 'memory', 'usage', 'program', 'schedule']));
    expect(first.some((l) => l.includes(OTHER))).toBe(false);

    const intoPg = await importDump(pg, join(dir, 'sqlite.jsonl'));
    expect(intoPg.kinds).toEqual({
      run: { imported: 2, unchanged: 0, skipped: 0 },
      thread: { imported: 1, unchanged: 0, skipped: 0 },
      workspace: { imported: 1, unchanged: 0, skipped: 0 },
      memory: { imported: 2, unchanged: 0, skipped: 0 },
      usage: { imported: 1, unchanged: 0, skipped: 0 },
      program: { imported: 2, unchanged: 0, skipped: 0 },
      schedule: { imported: 2, unchanged: 0, skipped: 0 },
    });
    const second = await dumpOf(pg, join(dir, 'pg.jsonl'), C);
    expect(second).toEqual(first);

    await importDump(rd, join(dir, 'pg.jsonl'));
    const third = await dumpOf(rd, join(dir, 'redis.jsonl'), C);
    expect(third).toEqual(first);

    // what people see on the last store
    expect((await rd.findRunByThread(C, '1700000000.000100'))?.attempts).toHaveLength(2);
    const files = await rd.readWorkspace(C, 'm1a2b3-aaaaaa');
    expect(files.map((f) => [f.name, [...f.content]])).toEqual([
      ['sales.csv', [...Buffer.from('region,amount\nnorth,5\n')]],
      ['plot.png', [0, 1, 2, 255, 254]],
    ]);
    const memory = await rd.memory.list(C, true);
    expect(memory.map((e) => [e.text, e.removedBy])).toEqual([
      ['revenue = units × price', undefined],
      ['quarters start in April', 'U2'],
    ]);
    expect((await rd.memory.list(C, false)).map((e) => e.text)).toEqual(['revenue = units × price']);
    expect((await rd.programs.get(C, 'revenue-by-region'))?.versions.map((v) => v.code)).toEqual(['print(1)', 'print(2)']);
    expect(await rd.programs.get(C, 'old-report')).toBeUndefined();
    expect(await rd.usage.totals({ day: '2026-02-01', channel: C, user: 'slack:U1' })).toEqual({ channelTokens: 140, userTokens: 140 });
    // the schedules keep their ids, their ticks' state and their pause
    const schedules = await rd.schedules.list(C);
    expect(schedules.map((s) => [s.id, s.when, s.state.lastTickAt, s.state.lastInputs, s.paused?.reason])).toEqual([
      ['s2', 'every Monday at 9', '2026-02-02T08:00:00.000Z', 'f1', undefined],
      ['s3', 'every Friday at 17', undefined, undefined, 'three ticks in a row failed'],
    ]);
    expect(await rd.schedules.list(OTHER)).toEqual([]);
    // a schedule made after the import gets a new id on each backend (the sequences moved past the imported ones)
    for (const store of [pg, rd]) expect((await store.schedules.add(schedule(C, 'every day at 7'), DEFAULT_SCHEDULE_LIMITS)).id).toBe('s4');
    for (const store of [pg, rd]) await store.schedules.remove(C, 's4');
    // a new entry after the import gets an id of its own
    const added = await rd.memory.add(C, { kind: 'definition', text: 'new one', addedBy: 'U1', addedAt: AT }, 40, DEFAULT_MEMORY_LIMITS);
    expect(memory.map((e) => e.id)).not.toContain(added.id);
  }, 120_000);

  it('imports a dump twice with nothing changed the second time (same ids, same counts)', async () => {
    const file = join(dir, 'sqlite.jsonl');
    const again = await importDump(pg, file);
    for (const counts of Object.values(again.kinds)) expect(counts).toMatchObject({ imported: 0, skipped: 0 });
    expect(Object.values(again.kinds).reduce((n, c) => n + c.unchanged, 0)).toBe(again.records);
    expect(await dumpOf(pg, join(dir, 'pg-again.jsonl'), C)).toEqual(await dumpOf(sqlite, join(dir, 'sqlite-again.jsonl'), C));
    expect(await pg.usage.totals({ day: '2026-02-01', channel: C, user: 'slack:U1' })).toEqual({ channelTokens: 140, userTokens: 140 });
    expect((await pg.schedules.list(C)).map((s) => s.id)).toEqual(['s2', 's3']);
  }, 60_000);

  it('imports into an empty SQLite store as well: the same records, schedules under their ids, the next schedule made gets a new one', async () => {
    const back = await KeyvHistoryStore.open(`sqlite://${join(dir, 'back.sqlite')}`);
    try {
      const report = await importDump(back, join(dir, 'redis.jsonl'));
      expect(report.kinds.schedule).toEqual({ imported: 2, unchanged: 0, skipped: 0 });
      expect(await dumpOf(back, join(dir, 'back.jsonl'), C)).toEqual(readFileSync(join(dir, 'redis.jsonl'), 'utf8').trim().split('\n').slice(1, -1));
      expect((await back.schedules.list(C)).map((s) => s.id)).toEqual(['s2', 's3']);
      expect((await back.schedules.add(schedule(C, 'every day at 7'), DEFAULT_SCHEDULE_LIMITS)).id).toBe('s4');
    } finally {
      await back.close();
    }
  }, 60_000);

  it("takes a schedule's state from a later dump (more ticks on the old store), and leaves one that ticked later in the target", async () => {
    const later = join(dir, 'later.jsonl');
    await sqlite.schedules.update(C, 's2', { state: { failures: 0, lastTickAt: '2026-02-09T08:00:00.000Z', lastInputs: 'f2', ticks: 4, posted: 3 } });
    await dumpOf(sqlite, later, C);
    const report = await importDump(pg, later);
    expect(report.kinds.schedule).toEqual({ imported: 1, unchanged: 1, skipped: 0 });
    expect((await pg.schedules.get(C, 's2'))?.state.lastInputs).toBe('f2');
    await pg.schedules.update(C, 's2', { state: { failures: 0, lastTickAt: '2026-02-16T08:00:00.000Z', lastInputs: 'f3' } });
    await sqlite.schedules.update(C, 's2', { state: { failures: 0, lastTickAt: '2026-02-10T08:00:00.000Z', lastInputs: 'fx' } });
    await dumpOf(sqlite, later, C);
    const again = await importDump(pg, later);
    expect(again.kinds.schedule).toMatchObject({ imported: 0, skipped: 1 });
    expect(again.skipped.find((s) => s.kind === 'schedule')?.why).toMatch(/schedule s2 of slack:T1:C1 ticked as late or later in the target/);
    expect((await pg.schedules.get(C, 's2'))?.state.lastInputs).toBe('f3');
  }, 60_000);

  it('exports with --since only the runs changed since, with their threads and workspaces', async () => {
    await sqlite.saveRun(makeRun('m1a2b6-dddddd', C, '2026-03-01T00:00:00.000Z'));
    await sqlite.linkThread(C, '1700000000.000900', 'm1a2b6-dddddd');
    let text = '';
    for await (const line of exportDump(sqlite, { conversation: C, since: '2026-02-15T00:00:00.000Z' })) text += line;
    const records = text.trim().split('\n').slice(1, -1).map((l) => JSON.parse(l) as { kind: string; run?: Run; runId?: string; row?: { day: string } });
    expect(records.filter((r) => r.kind === 'run').map((r) => r.run!.id)).toEqual(['m1a2b6-dddddd']);
    expect(records.filter((r) => r.kind === 'thread').map((r) => r.runId)).toEqual(['m1a2b6-dddddd']);
    expect(records.filter((r) => r.kind === 'workspace')).toEqual([]);
    expect(records.filter((r) => r.kind === 'usage')).toEqual([]); // its day is before
    expect(records.filter((r) => r.kind === 'memory')).toHaveLength(2); // memory is exported whole
  });

  it('refuses a dump cut short and one with a damaged line, by line number, and writes nothing', async () => {
    const whole = readFileSync(join(dir, 'sqlite.jsonl'), 'utf8').trim().split('\n');
    const renamed = whole.map((l) => l.replaceAll(C, 'slack:T9:C9'));
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, `${renamed.slice(0, 4).join('\n')}\n`);
    const damaged = join(dir, 'damaged.jsonl');
    writeFileSync(damaged, `${[...renamed.slice(0, 2), '{"kind":"run","run":{"id":', ...renamed.slice(3)].join('\n')}\n`);
    const fresh = await KeyvHistoryStore.open(`sqlite://${join(dir, 'fresh.sqlite')}`);
    try {
      const cutError = await importDump(fresh, cut).catch((e: unknown) => e);
      expect(cutError).toBeInstanceOf(DumpRefusedError);
      expect((cutError as Error).message).toMatch(/line 4: the dump ends without its end line: it was cut short/);
      const damagedError = await importDump(fresh, damaged).catch((e: unknown) => e);
      expect((damagedError as DumpRefusedError).problems.map((p) => p.line)).toContain(3);
      expect((damagedError as Error).message).toMatch(/line 3: not a JSON object/);
      expect(await fresh.listRuns('slack:T9:C9')).toEqual([]);
      expect(await fresh.memory.list('slack:T9:C9', true)).toEqual([]);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
