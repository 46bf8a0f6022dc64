/**
 * File names keep their letters, are made safe, and never make a file vanish: the name rules, then
 * the real sandbox (N1), the input files of a chat attachment, and the CLI's `--out` copies.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanName, distinctName, MAX_NAME_BYTES, sandboxInputNames } from '../../src/text/file-names.js';
import { makeExecutor, tempDir } from './helpers.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

describe('cleanName', () => {
  it.each([
    ['報告.csv', '報告.csv'],
    ['отчёт.csv', 'отчёт.csv'],
    ['naïve.csv', 'naïve.csv'],
    ['Ελληνικά_δεδομένα.txt', 'Ελληνικά_δεδομένα.txt'],
    ['تقرير.csv', 'تقرير.csv'],
    ['naïve.csv'.normalize('NFD'), 'naïve.csv'], // NFD typed: one name with its NFC twin
    ['my file (1).csv', 'my_file__1_.csv'],
    ['../../etc/passwd', 'passwd'],
    ['a\\b\\報告.txt', '報告.txt'],
    ['.env', 'env'],
    ['..', null],
    ['', null],
    // bidi override: "invoice_\u202Egpj.exe" shows as "invoice_exe.jpg"
    ['invoice_\u202Egpj.exe', 'invoice_gpj.exe'],
    ['zero\u200Bwidth\u2066.csv', 'zerowidth.csv'],
    ['line\nbreak\t\u0000.csv', 'line_break__.csv'],
    ['a:b*c?"d"<e>|f.csv', 'a_b_c__d__e__f.csv'],
  ] as const)('%j → %j', (raw, cleaned) => {
    expect(cleanName(raw)).toBe(cleaned);
  });

  it('bounds a name in bytes, between characters, keeping the extension', () => {
    const long = `${'報'.repeat(200)}.csv`; // 604 bytes
    const cleaned = cleanName(long)!;
    expect(Buffer.byteLength(cleaned)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(cleaned).toMatch(/^報+\.csv$/);
    const accents = `${'e\u0301'.repeat(150)}.txt`; // é as e + combining accent, which NFC joins
    expect(cleanName(accents)).toMatch(/^é+\.txt$/);
    const emojiFlags = `${'a'.repeat(195)}🇳🇴🇳🇴.png`;
    expect(Buffer.byteLength(cleanName(emojiFlags)!)).toBeLessThanOrEqual(MAX_NAME_BYTES);
  });

  it('distinctName numbers a taken name before its extension, in the last component', () => {
    const taken = new Set(['a.csv', 'a-2.csv', 'plots/p.png']);
    expect(distinctName('a.csv', (n) => taken.has(n))).toBe('a-3.csv');
    expect(distinctName('plots/p.png', (n) => taken.has(n))).toBe('plots/p-2.png');
    expect(distinctName('free.csv', (n) => taken.has(n))).toBe('free.csv');
  });

  it('chat attachments keep their letters; two of one name are both given, the second renamed', () => {
    const { files, unusable } = sandboxInputNames([{ name: '報告.xlsx' }, { name: 'отчёт.csv' }, { name: 'dir/отчёт.csv' }, { name: 'main.py' }, { name: '..' }]);
    expect(files.map((f) => f.name)).toEqual(['報告.xlsx', 'отчёт.csv', 'отчёт-2.csv', 'input_main.py']);
    expect(unusable).toEqual(['..']);
  });
});

describe('N1: artifacts with letters beyond ASCII (real sandbox)', () => {
  it('every file comes back under a readable name; names that are the same once safe are renamed and said', async () => {
    const ex = makeExecutor();
    const nfd = 'naïve.csv'.normalize('NFD');
    const code = [
      'import pathlib',
      `for name in ["報告.csv", "отчёт.csv", "naïve.csv", "naive.csv", ${JSON.stringify(nfd)}, "a b.csv", "a_b.csv"]:`,
      '    pathlib.Path(name).write_text(name + "\\n", encoding="utf-8")',
      'print("wrote 7")',
    ].join('\n');
    const r = await ex.execute(code, { artifactDir: tempDir() });
    expect(r.success).toBe(true);
    const names = r.artifacts.map((a) => a.name).sort();
    expect(names).toEqual(['a_b-2.csv', 'a_b.csv', 'naive.csv', 'naïve-2.csv', 'naïve.csv', 'отчёт.csv', '報告.csv'].sort());
    // the content is the one the program wrote under that name
    for (const a of r.artifacts) {
      const written = readFileSync(a.path, 'utf8').trim();
      expect(written.normalize('NFC').replaceAll(' ', '_')).toBe((a.renamedFrom ?? a.name).normalize('NFC').replaceAll(' ', '_'));
    }
    const renamed = r.artifacts.filter((a) => a.renamedFrom !== undefined);
    expect(renamed).toHaveLength(2);
    for (const a of renamed) expect(r.stderr).toContain(`[${a.renamedFrom} was returned as ${a.name}: another file had the same name once made safe]`);
  }, 60_000);

  it('two input files whose names are the same once safe are both in the work dir', async () => {
    const ex = makeExecutor();
    const r = await ex.execute('import os\nprint(sorted(f for f in os.listdir(".") if f.endswith(".txt")))', {
      inputFiles: [
        { name: 'data 1.txt', content: Buffer.from('first') },
        { name: 'data_1.txt', content: Buffer.from('second') },
      ],
      artifactDir: tempDir(),
    });
    expect(r.stdout).toBe("['data_1-2.txt', 'data_1.txt']\n");
  }, 60_000);
});

describe('N1 from the command line: --json and --out', () => {
  let fake: FakeOpenAi | undefined;
  beforeAll(requireBuiltCli);
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('lists every file with its name and copies each into --out, in subfolders too', async () => {
    const code = [
      'import pathlib',
      'pathlib.Path("plots").mkdir()',
      'for name in ["報告.csv", "отчёт.csv", "naïve.csv", "naive.csv", "plots/график.txt"]:',
      '    pathlib.Path(name).write_text(name, encoding="utf-8")',
      'print("done")',
    ].join('\n');
    fake = await startFakeOpenAi({ replies: [`\`\`\`python\n${code}\n\`\`\``] });
    const dir = mkdtempSync(join(tmpdir(), 'cli-names-'));
    writeFileSync(
      join(dir, 'config.yaml'),
      `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\n`,
    );
    const r = await runCli(['run', '--json', '--out', 'results', 'write the four reports'], dir);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { artifacts: { name: string; outPath: string }[] };
    expect(out.artifacts.map((a) => a.name).sort()).toEqual(['naive.csv', 'naïve.csv', 'plots/график.txt', 'отчёт.csv', '報告.csv'].sort());
    expect(readdirSync(join(dir, 'results')).sort()).toEqual(['naive.csv', 'naïve.csv', 'plots', 'отчёт.csv', '報告.csv'].sort());
    expect(readFileSync(join(dir, 'results', 'plots', 'график.txt'), 'utf8')).toBe('plots/график.txt');
  }, 60_000);

  it('a failed run copies nothing into --out (what a program wrote before it failed is no answer) and says so', async () => {
    const code = 'import pathlib\npathlib.Path("figure_1.png").write_bytes(b"half a plot")\nraise AttributeError("\'str\' object has no attribute \'strftime\'")';
    fake = await startFakeOpenAi({ replies: [`\`\`\`python\n${code}\n\`\`\``] });
    const dir = mkdtempSync(join(tmpdir(), 'cli-failed-out-'));
    writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\nagent:\n  verify: off\n  max_retries: 0\n`);
    const r = await runCli(['run', '--out', 'results', 'plot the monthly totals'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[Agent] Nothing copied to results: the run failed, and figure_1.png is what its last program wrote before it failed');
    expect(r.stdout).not.toContain('copied: ');
    expect(readdirSync(dir)).not.toContain('results');
    const json = await runCli(['run', '--json', '--out', 'results', 'plot the monthly totals'], dir);
    const out = JSON.parse(json.stdout) as { success: boolean; artifacts: { name: string; outPath?: string }[] };
    expect(out.success).toBe(false);
    expect(out.artifacts).toEqual([expect.objectContaining({ name: 'figure_1.png' })]);
    expect(out.artifacts[0]!.outPath).toBeUndefined();
  }, 60_000);
});
