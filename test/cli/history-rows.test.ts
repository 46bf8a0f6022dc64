/** `/history` rows: a run still going in another live process reads as running, not failed. */
import { describe, expect, it } from 'vitest';
import { historyRow } from '../../adapters/cli/history-rows.js';
import { thisProcess } from '../../src/history/process-identity.js';
import { StaleRunRecovery } from '../../src/history/stale-runs.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import type { Run } from '../../src/history/types.js';

const run = (over: Partial<Run>): Run => ({
  id: 'r1',
  conversationId: 'cli:t',
  requirement: 'plot the monthly totals',
  status: 'running',
  attempts: [],
  createdAt: '2026-01-02T10:11:12.000Z',
  updatedAt: '2026-01-02T10:11:12.000Z',
  ...over,
});

describe('history rows', () => {
  it('shows a run of a live process as running (was failed), cancelled and failed runs as such', async () => {
    const store = new StaleRunRecovery(new KeyvHistoryStore(new Map()));
    await store.saveRun(run({ id: 'live', runningIn: thisProcess() }));
    const live = (await store.getRun('cli:t', 'live'))!;
    expect(historyRow(1, live)).toMatch(/^ {2}1\. 2026-01-02 10:11:12 {2}⏳ running /);
    const cancelled = run({ id: 'c', status: 'failed', error: 'cancelled' });
    expect(historyRow(2, cancelled)).toContain('⏹️ cancelled');
    expect(historyRow(3, run({ id: 'f', status: 'failed', error: 'boom' }))).toContain('❌ failed');
  });
});
