/**
 * `code-agent store export|import|forget|version` as an operator runs them: the built CLI, two
 * SQLite stores in the test's folder (one config each).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';

beforeAll(requireBuiltCli);

const C = 'slack:T1:C1';
const AT = '2026-03-01T00:00:00.000Z';

describe('code-agent store', () => {
  it('exports a conversation, imports it into another store twice (nothing changed the second time), forgets a thread\'s run, and refuses a damaged dump by line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-store-'));
    writeFileSync(join(dir, 'a.yaml'), 'store:\n  url: sqlite://a.sqlite\n');
    writeFileSync(join(dir, 'b.yaml'), 'store:\n  url: sqlite://b.sqlite\n  data_dir: b-data\n');
    const a = await KeyvHistoryStore.open(`sqlite://${join(dir, 'a.sqlite')}`);
    for (const id of ['m7aaaa-000001', 'm7aaaa-000002']) {
      await a.saveRun({ id, conversationId: C, requirement: `r ${id}`, status: 'success', attempts: [], createdAt: AT, updatedAt: AT });
    }
    await a.linkThread(C, '1700000000.000100', 'm7aaaa-000001');
    await a.putWorkspaceFiles(C, 'm7aaaa-000001', [{ name: 'in.csv', content: Buffer.from('x\n1\n'), origin: { kind: 'input', turn: 1, at: AT } }]);
    await a.close();

    const exported = await runCli(['store', 'export', '--config', 'a.yaml', '--conversation', C], dir);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    writeFileSync(join(dir, 'dump.jsonl'), exported.stdout);
    expect(exported.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { kind: string }).kind)).toEqual(['header', 'run', 'run', 'thread', 'workspace', 'end']);

    const first = await runCli(['store', 'import', '--config', 'b.yaml', 'dump.jsonl'], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('run: 2 imported, 0 already there, 0 skipped');
    expect(first.stdout).toContain('workspace: 1 imported');
    const second = await runCli(['store', 'import', '--config', 'b.yaml', 'dump.jsonl', '--json'], dir);
    const report = JSON.parse(second.stdout) as { kinds: Record<string, { imported: number; unchanged: number }> };
    expect(report.kinds.run).toEqual({ imported: 0, unchanged: 2, skipped: 0 });
    expect(report.kinds.workspace).toEqual({ imported: 0, unchanged: 1, skipped: 0 });

    const forgot = await runCli(['store', 'forget', '--config', 'b.yaml', '--conversation', C, '--thread', '1700000000.000100'], dir);
    expect(forgot.stdout).toBe(`deleted run m7aaaa-000001 of ${C}: 1 workspace file(s), its outputs, 1 thread link(s)\n`);
    const again = await runCli(['store', 'forget', '--config', 'b.yaml', '--conversation', C, '--thread', '1700000000.000100'], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no run is linked to thread 1700000000.000100');
    const b = await KeyvHistoryStore.open(`sqlite://${join(dir, 'b.sqlite')}`);
    try {
      expect((await b.listRuns(C)).map((r) => r.id)).toEqual(['m7aaaa-000002']);
    } finally {
      await b.close();
    }

    const lines = readFileSync(join(dir, 'dump.jsonl'), 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"attempts":[]', '"attempts":"none"');
    writeFileSync(join(dir, 'damaged.jsonl'), lines.join('\n'));
    const refused = await runCli(['store', 'import', '--config', 'b.yaml', 'damaged.jsonl'], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('damaged.jsonl was not imported (nothing was written)');
    expect(refused.stderr).toContain('line 3: run.attempts: expected a list');

    const version = await runCli(['store', 'version', '--config', 'b.yaml'], dir);
    expect(version.stdout).toBe('store format version 1 (this release writes 1)\n');
  }, 120_000);
});
