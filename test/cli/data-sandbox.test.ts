/**
 * The sandbox a data team expects, end to end: the built CLI against the fake OpenAI server and the
 * real sandbox. Excel in and out (D1), every package of the default set, the seed's Chinese plot
 * (D2), an operator's own package (`sandbox.python_packages`), and the model told what is installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, type CliResult } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { buildTinyWheel, installOperatorWheel } from '../helpers/wheel.js';
import { DEFAULT_MODULES } from '../../src/sandbox/python-packages.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const PYTHON = '/usr/bin/python3';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
beforeAll(requireBuiltCli);

interface Run extends CliResult {
  dir: string;
  json: Record<string, any>;
}

/** `code-agent run --json …` in a fresh folder (files from `files`), the LLM answering `replies`. */
async function run(
  request: string,
  replies: FakeReply[],
  opts: { files?: Record<string, (dir: string) => void>; sandbox?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'cli-data-'));
  fake = await startFakeOpenAi({ replies });
  const config =
    `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\nagent:\n  verify: off\n  max_retries: 0\n` +
    `sandbox:\n  timeout_s: 60\n  cpu_time_s: 60\n${opts.sandbox ?? ''}`;
  writeFileSync(join(dir, 'config.yaml'), config);
  const args = ['run', '--json'];
  for (const [name, make] of Object.entries(opts.files ?? {})) {
    make(join(dir, name));
    args.push('--file', name);
  }
  const r = await runCli([...args, request], dir, '', opts.env);
  return { ...r, dir, json: JSON.parse(r.stdout || '{}') };
}

/** The system prompt the CLI sent with its first request. */
const systemPrompt = () => fake!.requests[0]?.messages.find((m) => m.role === 'system')?.content ?? '';

describe('D1: Excel in and out', () => {
  it('reads an attached xlsx and writes an xlsx summary that comes back with the right content', async () => {
    const budget = (path: string) =>
      execFileSync(PYTHON, ['-c', `import openpyxl\nwb = openpyxl.Workbook(); ws = wb.active; ws.title = "2024"
ws.append(["department", "item", "amount"])
for row in [("sales", "travel", 1200), ("it", "laptops", 5400), ("sales", "events", 800), ("it", "licences", 600)]:
    ws.append(row)
wb.save(${JSON.stringify(path)})`]);
    const program = [
      'import pandas as pd',
      'df = pd.read_excel("budget.xlsx")',
      'summary = df.groupby("department", as_index=False)["amount"].sum()',
      'summary.to_excel("summary.xlsx", index=False, sheet_name="by department")',
      'print(summary.to_string(index=False))',
    ].join('\n');
    const r = await run('sum budget.xlsx by department and write the summary to summary.xlsx', [py(program)], { files: { 'budget.xlsx': budget } });
    expect(r.json.error).toBeUndefined();
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ success: true, attempts: 1 });
    expect(r.json.stderr).toBe('');
    const out = (r.json.artifacts as Array<{ name: string; path: string }>).find((a) => a.name === 'summary.xlsx');
    expect(out).toBeDefined();
    const read = execFileSync(PYTHON, ['-c', `import openpyxl, json
wb = openpyxl.load_workbook(${JSON.stringify(out!.path)})
print(json.dumps({ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb}))`], { encoding: 'utf8' });
    expect(JSON.parse(read)).toEqual({ 'by department': [['department', 'amount'], ['it', 6000], ['sales', 2000]] });
    expect(systemPrompt()).toMatch(/Installed: Python's standard library and these packages: .*openpyxl/);
    // the progress lines preview the written table
    expect(r.stderr).toContain('[Agent] 📋 summary.xlsx: the first rows\n    department  amount\n    it          6000\n    sales       2000');
  });

  it('previews every written table (csv and xlsx, first rows only) and none of the other files', async () => {
    const program = [
      'import pandas as pd',
      'df = pd.DataFrame({"city": ["Oslo", "Zürich", "東京"] * 10, "n": range(30)})',
      'df.to_csv("cities.csv", index=False)',
      'df.to_excel("cities.xlsx", index=False)',
      'open("notes.txt", "w").write("city,n\\nnot a table\\n")',
      'print("ok")',
    ].join('\n');
    const r = await run('write the cities as csv and xlsx', [py(program)]);
    expect(r.json.success).toBe(true);
    for (const name of ['cities.csv', 'cities.xlsx']) {
      const at = r.stderr.indexOf(`[Agent] 📋 ${name}: the first rows`);
      expect(at).toBeGreaterThan(-1);
      const rows = r.stderr.slice(at).split('\n').slice(1, 8);
      expect(rows.slice(0, 4)).toEqual(['    city    n', '    Oslo    0', '    Zürich  1', '    東京      2']);
      // six rows at most: the header and five data rows, then the next progress line
      expect(rows[6]).not.toMatch(/^ {4}\S/);
    }
    expect(r.stderr).not.toContain('📋 notes.txt');
    const artifacts = r.json.artifacts as Array<{ name: string; preview?: { rows: string[][] } }>;
    expect(artifacts.find((a) => a.name === 'cities.csv')?.preview?.rows[1]).toEqual(['Oslo', '0']);
  });
});

describe('the default package set', () => {
  it('one program imports every package and prints its version; the model was told each', async () => {
    const program = [
      'import importlib, importlib.metadata as md',
      `for module, dist in ${JSON.stringify(DEFAULT_MODULES.map((m) => [m.module, m.dist]))}:`,
      '    importlib.import_module(module)',
      '    print(module, md.version(dist))',
    ].join('\n');
    const r = await run('import every data package and print the versions', [py(program)]);
    expect(r.json.stderr).toBe('');
    expect(r.json.success).toBe(true);
    const lines = (r.json.stdout as string).trim().split('\n');
    expect(lines.map((l) => l.split(' ')[0])).toEqual(DEFAULT_MODULES.map((m) => m.module));
    for (const line of lines) expect(line).toMatch(/^\S+ \d+\.\d+/);
    expect(lines).toContain('pyarrow 15.0.2');
    const prompt = systemPrompt();
    for (const m of DEFAULT_MODULES) expect(prompt).toContain(m.module);
  });
});

describe('D2: the seed’s Chinese plot', () => {
  it('用 matplotlib 画一个 sin(x) 和 cos(x) 的对比图: no missing glyph, the PNG comes back', async () => {
    const program = [
      'import numpy as np',
      'import matplotlib.pyplot as plt',
      'x = np.linspace(0, 2 * np.pi, 200)',
      'plt.plot(x, np.sin(x), label="正弦 sin(x)")',
      'plt.plot(x, np.cos(x), label="余弦 cos(x)")',
      'plt.title("sin(x) 和 cos(x) 的对比图")',
      'plt.xlabel("x（弧度）"); plt.ylabel("函数值")',
      'plt.legend()',
      'plt.show()',
    ].join('\n');
    const r = await run('用 matplotlib 画一个 sin(x) 和 cos(x) 的对比图，加上图例和标题', [py(program)]);
    expect(r.json.success).toBe(true);
    expect(r.json.stderr).not.toMatch(/missing from current font/);
    expect(r.json.stderr).toBe('');
    const png = (r.json.artifacts as Array<{ name: string; path: string; bytes: number }>).find((a) => a.name.endsWith('.png'));
    expect(png).toBeDefined();
    expect(readFileSync(png!.path).subarray(1, 4).toString()).toBe('PNG');
    expect(png!.bytes).toBeGreaterThan(20_000);
    expect(systemPrompt()).toContain('Chinese, Japanese, Korean');
  });
});

describe('an operator’s own package (sandbox.python_packages)', () => {
  it('a pinned package installed by setup imports in the run, and the model is told of it', async () => {
    const wheel = buildTinyWheel('teampkg', '0.3.1');
    const env = await installOperatorWheel(wheel);
    const r = await run('greet with teampkg', [py('import teampkg\nprint(teampkg.GREETING)')], {
      sandbox: `  python_packages: [${JSON.stringify(wheel.pin)}]\n`,
      env,
    });
    expect(r.json.stderr).toBe('');
    expect(r.json).toMatchObject({ success: true, stdout: `${wheel.greeting}\n` });
    expect(systemPrompt()).toMatch(/these packages: .*teampkg/);
  });

  it('a pin that is not installed stops at startup (exit 2) before any LLM call, naming it', async () => {
    const env = { CODE_AGENT_PYTHON_DIR: mkdtempSync(join(tmpdir(), 'python-dir-')) };
    const r = await run('anything', [py('print(1)')], { sandbox: '  python_packages: ["teampkg==9.9.9"]\n', env });
    expect(r.code).toBe(2);
    expect(r.json.error).toMatch(/sandbox\.python_packages: teampkg==9\.9\.9: not installed\. Run `npm run setup`/);
    expect(fake!.requests).toHaveLength(0);
  });
});
