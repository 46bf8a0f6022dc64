/**
 * Schedules on every history backend, against real servers: SQLite (a temp file), redis-server and
 * PostgreSQL (started on free ports). Schedules are kept per conversation (an id of another
 * conversation is not found, not updated, not removed), survive reopening, are listed store-wide
 * for the scheduler, carry their state apart from their definition, and the per-conversation bound
 * holds even when adds race from two connections.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { ScheduleFullError, type NewSchedule } from '../../src/history/schedules.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

async function sqliteServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'schedules-sqlite-'));
  return { url: `sqlite://${join(dir, 'history.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const BACKENDS = [
  { name: 'sqlite', start: sqliteServer },
  { name: 'redis', start: startRedis },
  { name: 'postgres', start: startPostgres },
];

function schedule(conversationId: string, program = 'revenue', when = 'every Monday at 9'): NewSchedule {
  return {
    conversationId,
    platform: 'slack',
    channel: 'C1',
    program,
    params: { region: 'EU' },
    when,
    cron: '0 9 * * 1',
    timezone: 'Europe/Berlin',
    resultGate: { kind: 'condition', label: 'refunds', op: '>', value: 5, percent: true, text: 'refunds > 5' },
    workGate: true,
    createdBy: 'U1',
    createdAt: new Date().toISOString(),
    state: { failures: 0 },
  };
}

describe.each(BACKENDS)('schedules on $name', ({ start }) => {
  let server: TestServer;
  let n = 0;
  const fresh = () => `test:sched${++n}:${Date.now()}`;
  const limits = { maxPerConversation: 3 };

  async function withStore<T>(fn: (store: KeyvHistoryStore) => Promise<T>): Promise<T> {
    const store = await KeyvHistoryStore.open(server.url);
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps schedules per conversation across reopening; ids of another conversation are not found', async () => {
    const a = fresh();
    const b = fresh();
    const [first, second, other] = await withStore(async (store) => [
      await store.schedules.add(schedule(a), limits),
      await store.schedules.add(schedule(a, 'refunds', 'daily at 08:00'), limits),
      await store.schedules.add(schedule(b), limits),
    ]);
    expect(first.id).toMatch(/^s\d+$/);
    expect(new Set([first.id, second.id, other.id]).size).toBe(3);
    await withStore(async (store) => {
      const listed = await store.schedules.list(a);
      expect(listed.map((s) => [s.id, s.program, s.when, s.params.region, s.resultGate.kind])).toEqual([
        [first.id, 'revenue', 'every Monday at 9', 'EU', 'condition'],
        [second.id, 'refunds', 'daily at 08:00', 'EU', 'condition'],
      ]);
      expect(await store.schedules.get(a, first.id)).toEqual(first);
      expect(await store.schedules.get(b, first.id)).toBeUndefined();
      expect(await store.schedules.remove(b, first.id)).toBeUndefined();
      expect(await store.schedules.update(b, first.id, { state: { failures: 9 } })).toBeUndefined();
      expect(await store.schedules.get(a, 'not-an-id')).toBeUndefined();
      const all = await store.schedules.all();
      expect(all.map((s) => s.id)).toEqual(expect.arrayContaining([first.id, second.id, other.id]));
    });
  });

  it('updates the state and the pause apart from the definition; a removed schedule is not brought back by an update', async () => {
    const a = fresh();
    await withStore(async (store) => {
      const s = await store.schedules.add(schedule(a), limits);
      const paused = { reason: 'three failures in a row', at: '2025-03-03T09:00:00.000Z' };
      const updated = await store.schedules.update(a, s.id, { state: { failures: 3, failurePosted: true, lastTickAt: '2025-03-03T09:00:00.000Z' }, paused });
      expect(updated).toMatchObject({ id: s.id, program: 'revenue', paused, state: { failures: 3, failurePosted: true } });
      // a state change alone keeps the pause; null lifts it
      expect((await store.schedules.update(a, s.id, { state: { failures: 3 } }))?.paused).toEqual(paused);
      const resumed = await store.schedules.update(a, s.id, { state: { failures: 0 }, paused: null });
      expect(resumed?.paused).toBeUndefined();
      expect((await store.schedules.get(a, s.id))?.paused).toBeUndefined();
      expect(await store.schedules.remove(a, s.id)).toMatchObject({ id: s.id, program: 'revenue' });
      expect(await store.schedules.remove(a, s.id)).toBeUndefined();
      expect(await store.schedules.update(a, s.id, { state: { failures: 1 } })).toBeUndefined();
      expect(await store.schedules.get(a, s.id)).toBeUndefined();
      expect((await store.schedules.all()).map((x) => x.id)).not.toContain(s.id);
    });
  });

  it('refuses a schedule past the bound, naming the config key; adds racing from two connections never pass it', async () => {
    const a = fresh();
    await withStore(async (one) =>
      withStore(async (two) => {
        const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).schedules.add(schedule(a, `p${i}`), limits)));
        const added = outcomes.filter((o) => o.status === 'fulfilled');
        const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(added).toHaveLength(3);
        expect(refused).toHaveLength(5);
        for (const r of refused) {
          expect(r.reason).toBeInstanceOf(ScheduleFullError);
          expect(String(r.reason.message)).toContain('schedules.max_per_channel');
        }
        expect(await one.schedules.list(a)).toHaveLength(3);
      }),
    );
  });
});
