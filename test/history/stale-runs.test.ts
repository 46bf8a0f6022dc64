/** Runs left `running` by a process that died are reported as interrupted; others are left alone. */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { isProcessGone, processStartTicks, thisProcess } from '../../src/history/process-identity.js';
import { givenUpHere, INTERRUPTED, StaleRunRecovery } from '../../src/history/stale-runs.js';
import type { Run } from '../../src/history/types.js';

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

const run = (id: string, runningIn: string | undefined, status: Run['status'] = 'running'): Run => ({
  id,
  conversationId: 'c',
  requirement: `req ${id}`,
  status,
  ...(runningIn ? { runningIn } : {}),
  attempts: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('process identity', () => {
  it('tells a dead, a recycled, a live and a foreign process apart', () => {
    const me = thisProcess();
    expect(me).toBe(`${hostname()}/${process.pid}/${processStartTicks(process.pid)}`);
    expect(isProcessGone(me)).toBe(false);
    expect(isProcessGone(`${hostname()}/${deadPid()}/1`)).toBe(true);
    expect(isProcessGone(`${hostname()}/${process.pid}/1`)).toBe(true); // same pid, other start: recycled
    expect(isProcessGone(`some-other-host/${deadPid()}/1`)).toBe(false);
    expect(isProcessGone('garbage')).toBe(false);
  });
});

describe('StaleRunRecovery', () => {
  it('marks runs of dead processes failed (and stores that) on every way of reading them', async () => {
    const inner = new KeyvHistoryStore(new Map());
    const store = new StaleRunRecovery(inner);
    const dead = `${hostname()}/${deadPid()}/1`;
    await store.saveRun(run('a', dead));
    await store.saveRun(run('b', thisProcess()));
    await store.saveRun(run('c', `elsewhere/${deadPid()}/1`));
    await store.saveRun(run('d', dead));
    await store.saveRun(run('e', undefined, 'success'));
    await store.linkThread('c', 'thread-d', 'd');

    const a = await store.getRun('c', 'a');
    expect(a).toMatchObject({ status: 'failed', error: INTERRUPTED });
    expect(a!.runningIn).toBeUndefined();
    expect(await inner.getRun('c', 'a')).toMatchObject({ status: 'failed', error: INTERRUPTED });

    const listed = Object.fromEntries((await store.listRuns('c')).map((r) => [r.id, r.status]));
    expect(listed).toEqual({ a: 'failed', b: 'running', c: 'running', d: 'failed', e: 'success' });
    expect(await store.findRunByThread('c', 'thread-d')).toMatchObject({ status: 'failed', error: INTERRUPTED });
  });

  it('ends a run of this process that it gave up on (its end could not be stored) on the next read, and only that one', async () => {
    const inner = new KeyvHistoryStore(new Map());
    const store = new StaleRunRecovery(inner);
    await store.saveRun(run('kept', thisProcess()));
    await store.saveRun(run('given-up', thisProcess()));
    givenUpHere('given-up', 'the history store refused the write');
    expect(await store.getRun('c', 'given-up')).toMatchObject({ status: 'failed', error: 'the history store refused the write' });
    expect(await inner.getRun('c', 'given-up')).toMatchObject({ status: 'failed' });
    expect((await store.getRun('c', 'kept'))!.status).toBe('running');
  });
});
