/**
 * `code-agent schedules list [--conversation C] [--json]`, the built CLI on a SQLite store in the
 * test's folder: every schedule of the store, or one conversation's, with its next tick; no
 * schedule says so. The terminal runs no scheduler: listing changes nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';

beforeAll(requireBuiltCli);

describe('code-agent schedules list', () => {
  it('lists the store\'s schedules (all, or one conversation\'s), as lines or JSON with the next tick', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-schedules-'));
    writeFileSync(join(dir, 'config.yaml'), `store:\n  url: sqlite://${join(dir, 'history.sqlite')}\n`);
    const empty = await runCli(['schedules', 'list'], dir);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('no schedules in the store\n');
    const store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'history.sqlite')}`);
    const base = { platform: 'slack', channel: 'C1', params: { REGION: 'EU' }, resultGate: { kind: 'always' as const }, workGate: true, createdBy: 'U1', createdByName: 'alice', createdAt: new Date().toISOString(), state: { failures: 0 } };
    const a = await store.schedules.add({ ...base, conversationId: 'slack:T1:C1', program: 'revenue', when: 'every Monday at 9', cron: '0 9 * * 1', timezone: 'Europe/Berlin' }, { maxPerConversation: 5 });
    await store.schedules.add({ ...base, conversationId: 'slack:T1:C2', program: 'stock', when: 'hourly', cron: '0 * * * *', timezone: 'UTC' }, { maxPerConversation: 5 });
    await store.close();
    const all = await runCli(['schedules', 'list'], dir);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^slack:T1:C1 {2}s\d+: revenue REGION=EU, every Monday at 9 \(0 9 \* \* 1, Europe\/Berlin\), by alice; next Mon \d{4}-\d\d-\d\d 09:00 \(Europe\/Berlin\)$/m);
    expect(all.stdout).toMatch(/^slack:T1:C2 {2}s\d+: stock REGION=EU, hourly/m);
    const one = await runCli(['schedules', 'list', '--conversation', 'slack:T1:C1', '--json'], dir);
    const listed = JSON.parse(one.stdout) as Array<{ id: string; program: string; next: string }>;
    expect(listed.map((s) => [s.id, s.program])).toEqual([[a.id, 'revenue']]);
    expect(new Date(listed[0]!.next).getTime()).toBeGreaterThan(Date.now());
  }, 120_000);
});
