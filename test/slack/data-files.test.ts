/**
 * D1 on Slack (Bolt against the fake Slack, the real sandbox): an xlsx attached in the thread is
 * read with pandas, and the xlsx summary the program writes comes back in the thread.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PYTHON = '/usr/bin/python3';

/** An xlsx made with openpyxl on the host (test-only), as a user's spreadsheet. */
function budgetXlsx(): Buffer {
  const path = join(mkdtempSync(join(tmpdir(), 'xlsx-')), 'budget.xlsx');
  execFileSync(PYTHON, ['-c', `import openpyxl\nwb = openpyxl.Workbook(); ws = wb.active
ws.append(["department", "amount"])
for row in [("sales", 1200), ("it", 5400), ("sales", 800)]:
    ws.append(row)
wb.save(${JSON.stringify(path)})`]);
  return readFileSync(path);
}

describe('D1 on Slack: Excel in and out', () => {
  it('reads the attached budget.xlsx and posts summary.xlsx in the thread', async () => {
    const program = [
      'import pandas as pd',
      'df = pd.read_excel("budget.xlsx")',
      'df.groupby("department", as_index=False)["amount"].sum().to_excel("summary.xlsx", index=False)',
      'print("written")',
    ].join('\n');
    world = await startWorld({ replies: [py('print("attach the file")'), py(program)] });
    await world.command({ text: 'sum budget.xlsx by department into summary.xlsx' });
    const root = await world.rootTs();
    await world.finished(root);
    await world.reply(root, 'here it is', { files: [world.slack.hostFile('budget.xlsx', budgetXlsx())] });
    await world.finished(root, 2);
    const upload = await world.slack.waitFor(() => world!.slack.uploads.find((u) => u.filename === 'summary.xlsx'), 20_000, 'summary.xlsx uploaded');
    expect(upload.threadTs).toBe(root);
    const path = join(mkdtempSync(join(tmpdir(), 'xlsx-out-')), 'summary.xlsx');
    writeFileSync(path, upload.bytes);
    const rows = execFileSync(PYTHON, ['-c', `import openpyxl, json\nprint(json.dumps([list(r) for r in openpyxl.load_workbook(${JSON.stringify(path)}).active.iter_rows(values_only=True)]))`], { encoding: 'utf8' });
    expect(JSON.parse(rows)).toEqual([['department', 'amount'], ['it', 5400], ['sales', 2000]]);
    expect(world.llm.requests[0]!.messages[0]!.content).toMatch(/these packages: .*openpyxl/);
    // the written table is previewed in the thread, its rows read in the sandbox and aligned
    const thread = allText(world.threadPosts(root));
    expect(thread).toContain('📋 summary.xlsx: the first rows');
    expect(thread).toMatch(/department {2}amount\nit {10}5400\nsales {7}2000/);
  });
});
