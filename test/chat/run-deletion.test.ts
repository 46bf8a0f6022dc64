/**
 * Deleting a run for a person (src/chat/run-deletion.ts) on the real SQLite store: the log line
 * names who asked, why and what went; a run still at work is not deleted; the answer says what
 * was deleted and what was kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { runDeletion } from '../../src/chat/run-deletion.js';
import type { Run } from '../../src/history/types.js';

const C = 'matrix:!room:example.org';
const AT = '2026-02-01T10:00:00.000Z';
const run = (id: string, status: Run['status']): Run => ({ id, conversationId: C, requirement: 'sum', status, attempts: [], createdAt: AT, updatedAt: AT }) as Run;

let dir: string;
let store: KeyvHistoryStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'run-deletion-'));
  store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('deleting a run asked in chat', () => {
  it('logs who asked and why, counts it, and answers with what was deleted', async () => {
    await store.saveRun(run('m1a2b3-aaaaaa', 'success'));
    await store.linkThread(C, '$root', 'm1a2b3-aaaaaa');
    await store.putWorkspaceFiles(C, 'm1a2b3-aaaaaa', [{ name: 'a.csv', content: Buffer.from('x,y\n'), origin: { kind: 'input', turn: 1, at: AT } }]);
    const lines: string[] = [];
    let counted = 0;
    const remove = runDeletion({ store, artifactRoot: join(dir, 'artifacts'), log: (l) => lines.push(l), counted: () => counted++ });
    const answer = await remove((await store.getRun(C, 'm1a2b3-aaaaaa'))!, { userId: '@alice:example.org', userName: 'Alice' }, 'matrix');
    expect(answer).toContain('Deleted run m1a2b3-aaaaaa: its record (0 attempts with their code and output), its workspace (1 file, 4 B)');
    expect(lines).toEqual([
      'chat: deleted run m1a2b3-aaaaaa of matrix:!room:example.org as matrix user @alice:example.org (Alice) asked with /show m1a2b3-aaaaaa remove: record with 0 attempts, 1 workspace files (4 bytes), outputs, 1 thread links',
    ]);
    expect(counted).toBe(1);
    expect(await store.getRun(C, 'm1a2b3-aaaaaa')).toBeUndefined();
    expect(await store.threadRunId(C, '$root')).toBeUndefined();
  });

  it('a run still at work is not deleted, nor counted', async () => {
    await store.saveRun(run('m1a2b4-bbbbbb', 'running'));
    let counted = 0;
    const remove = runDeletion({ store, artifactRoot: join(dir, 'artifacts'), log: () => undefined, counted: () => counted++ });
    expect(await remove((await store.getRun(C, 'm1a2b4-bbbbbb'))!, { userId: '@bob:example.org' }, 'matrix')).toContain('Nothing deleted: run m1a2b4-bbbbbb is still at work');
    expect((await store.getRun(C, 'm1a2b4-bbbbbb'))?.status).toBe('running');
    expect(counted).toBe(0);
  });
});
