/**
 * "Interrupted" is said only of a run that did not finish: what the stalled-job handler finds in
 * the history decides whether it speaks. A real store (Keyv on SQLite).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { INTERRUPTED } from '../../src/history/stale-runs.js';
import type { Run } from '../../src/history/types.js';
import { markInterrupted, WORKER_STOPPED } from '../../src/chat/worker-stopped.js';

const run = (id: string, status: Run['status'], error?: string): Run => ({
  id,
  conversationId: 'c',
  requirement: `req ${id}`,
  status,
  ...(error ? { error } : {}),
  ...(status === 'running' ? { runningIn: 'other-host/1/1' } : {}),
  attempts: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('markInterrupted', () => {
  it('marks a running run failed, leaves a finished one alone, and speaks of one found interrupted on read', async () => {
    const store = await KeyvHistoryStore.open(`sqlite://${join(mkdtempSync(join(tmpdir(), 'interrupted-')), 'h.sqlite')}`);
    try {
      for (const r of [run('running', 'running'), run('done', 'success'), run('failed', 'failed', 'still failing'), run('gone', 'failed', INTERRUPTED)]) await store.saveRun(r);
      const running = await markInterrupted(store, await store.getRun('c', 'running'));
      expect(running.ended).toBe(false);
      expect(running.run).toMatchObject({ status: 'failed', error: WORKER_STOPPED });
      expect((await store.getRun('c', 'running'))?.runningIn).toBeUndefined();

      const done = await markInterrupted(store, await store.getRun('c', 'done'));
      expect(done).toEqual({ run: run('done', 'success'), ended: true });
      expect((await store.getRun('c', 'done'))?.status).toBe('success');
      expect((await markInterrupted(store, await store.getRun('c', 'failed'))).ended).toBe(true);

      expect((await markInterrupted(store, await store.getRun('c', 'gone'))).ended).toBe(false);
      expect(await markInterrupted(store, undefined)).toEqual({ run: undefined, ended: false });
    } finally {
      await store.close();
    }
  });
});
