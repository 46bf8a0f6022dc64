/**
 * The sandbox a data team expects, on the real sandbox (bubblewrap + Debian's python3 with the
 * packages `npm run setup` installs): data files in and out (xlsx, csv, parquet, docx, pdf, png,
 * svg), figures with Chinese, Japanese, Korean, Cyrillic and Greek text and no missing glyph, the
 * probed environment, the shared font list, and the read-only Python folders.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODULES } from '../../src/sandbox/python-packages.js';
import { makeExecutor, tempDir } from './helpers.js';

const DATA_LIMITS = { wallTimeS: 60, cpuTimeS: 60 };
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('files in and out', () => {
  it('xlsx, csv, parquet, docx, pdf, png and svg written by a program come back, and read back in', async () => {
    const ex = makeExecutor({ limits: DATA_LIMITS });
    const write = [
      'import pandas as pd, matplotlib.pyplot as plt, docx, pypdf',
      'df = pd.DataFrame({"region": ["north", "south", "north"], "amount": [10, 20, 5]})',
      'df.to_excel("summary.xlsx", index=False)',
      'df.to_csv("summary.csv", index=False)',
      'df.to_parquet("summary.parquet")',
      'd = docx.Document(); d.add_paragraph("total 35"); d.save("report.docx")',
      'w = pypdf.PdfWriter(); w.add_blank_page(width=200, height=200); w.write("blank.pdf")',
      'plt.plot([1, 2]); plt.savefig("chart.png"); plt.savefig("chart.svg")',
    ].join('\n');
    const out = await ex.execute(write, { artifactDir: tempDir() });
    expect(out.stderr).toBe('');
    expect(out.success).toBe(true);
    const names = out.artifacts.map((a) => a.name).sort();
    expect(names).toEqual(['blank.pdf', 'chart.png', 'chart.svg', 'report.docx', 'summary.csv', 'summary.parquet', 'summary.xlsx']);
    const inputs = out.artifacts.filter((a) => a.name !== 'chart.png').map((a) => ({ name: a.name, content: readFileSync(a.path) }));
    const read = [
      'import pandas as pd, docx, pypdf',
      'print(pd.read_excel("summary.xlsx").groupby("region").amount.sum().to_dict())',
      'print(pd.read_parquet("summary.parquet").amount.sum(), pd.read_csv("summary.csv").shape)',
      'print(docx.Document("report.docx").paragraphs[0].text, len(pypdf.PdfReader("blank.pdf").pages))',
      'print(open("chart.svg").read().count("<svg"))',
    ].join('\n');
    const back = await ex.execute(read, { inputFiles: inputs });
    expect(back.stderr).toBe('');
    expect(back.stdout).toBe("{'north': 15, 'south': 20}\n35 (3, 2)\ntotal 35 1\n1\n");
  });
});

describe('the default package set', () => {
  it('every module imports in the sandbox, and the probe says so with versions', async () => {
    const ex = makeExecutor({ limits: DATA_LIMITS });
    const env = await ex.environment();
    expect(env.python).toMatch(/^3\.11\./);
    const broken = env.modules.filter((m) => m.version === undefined).map((m) => `${m.module}: ${m.error}`);
    expect(broken).toEqual([]);
    expect(env.modules.map((m) => m.module)).toEqual(DEFAULT_MODULES.map((m) => m.module));
    expect(env.modules.find((m) => m.module === 'pyarrow')?.version).toBe('15.0.2');
    expect(env.fonts.find((f) => f.family === 'WenQuanYi Micro Hei')?.file).toMatch(/wqy-microhei\.ttc$/);
  });
});

describe('D2: figures with Chinese, Japanese, Korean, Cyrillic and Greek text', () => {
  const plot = (extra = '') =>
    [
      'import numpy as np, matplotlib.pyplot as plt',
      extra,
      'x = np.linspace(0, 2 * np.pi, 200)',
      'plt.plot(x, np.sin(x), label="正弦 sin(x)")',
      'plt.plot(x, np.cos(x), label="余弦 cos(x)")',
      'plt.plot(x, 0 * x, label="こんにちは 안녕하세요 Привет αβγ ∑ ±")',
      'plt.title("正弦和余弦的对比图"); plt.legend(); plt.savefig("sin_cos.png")',
    ].join('\n');

  for (const [start, options] of [['cold', { warmPool: 0 }], ['warm', { warmPool: 1 }]] as const) {
    it(`no missing glyph and the PNG is drawn (${start})`, async () => {
      const ex = makeExecutor({ ...options, limits: DATA_LIMITS });
      await ex.environment(); // as the agent does before its first run (check())
      const r = await ex.execute(plot(), { artifactDir: tempDir() });
      expect(r.success).toBe(true);
      expect(r.stderr).not.toMatch(/missing from current font/);
      expect(r.stderr).toBe('');
      const png = r.artifacts.find((a) => a.name === 'sin_cos.png');
      expect(png).toBeDefined();
      expect(readFileSync(png!.path).subarray(0, 8).equals(PNG)).toBe(true);
      expect(png!.bytes).toBeGreaterThan(20_000);
    });
  }

  it('also after the program asks for a font that is not installed (SimHei)', async () => {
    const r = await makeExecutor({ limits: DATA_LIMITS }).execute(plot('plt.rcParams["font.sans-serif"] = ["SimHei"]'), { artifactDir: tempDir() });
    expect(r.success).toBe(true);
    expect(r.stderr).not.toMatch(/missing from current font/);
  });

  it('the glyphs come from the CJK font: without the fallback they would be missing', async () => {
    // the same text drawn with DejaVu alone (matplotlib's own lookup, bypassing the fallback) misses them
    const code = [
      'import warnings, matplotlib.pyplot as plt',
      'from matplotlib.font_manager import fontManager, get_font, FontProperties',
      'warnings.simplefilter("error")',
      'print(len(fontManager._find_fonts_by_props(FontProperties(family="DejaVu Sans"))))',
      'font = get_font([fontManager.findfont(FontProperties(family="DejaVu Sans"))])',
      'print(font.get_char_index(ord("弦")))',
    ].join('\n');
    const r = await makeExecutor({ limits: DATA_LIMITS }).execute(code);
    expect(r.stderr).toBe('');
    const [fonts, index] = r.stdout.trim().split('\n').map(Number);
    expect(fonts).toBeGreaterThanOrEqual(2); // DejaVu Sans, then the fallback
    expect(index).toBe(0); // DejaVu has no 弦
  });
});

describe('the environment probe', () => {
  it('probes once, then a new executor reads the cache; a changed pin set probes again', async () => {
    const saved = { dir: process.env.CODE_AGENT_PYTHON_DIR, cache: process.env.CODE_AGENT_CACHE };
    process.env.CODE_AGENT_PYTHON_DIR = tempDir('python-dir-');
    process.env.CODE_AGENT_CACHE = tempDir('user-cache-');
    try {
      const first = await makeExecutor({ limits: DATA_LIMITS }).environment();
      expect(first.cached).toBe(false);
      expect(first.probeMs).toBeGreaterThan(0);
      const again = makeExecutor({ limits: DATA_LIMITS });
      expect(again.cachedEnvironment()?.modules).toEqual(first.modules); // before any sandbox starts
      const second = await again.environment();
      expect(second).toMatchObject({ cached: true, probeMs: 0, modules: first.modules, fonts: first.fonts });
      // the file it was written to and read from (doctor names it): next to the site dirs
      expect(first.cacheFile).toMatch(new RegExp(`^${process.env.CODE_AGENT_PYTHON_DIR}/probes/python-env-[0-9a-f]{16}\\.json$`));
      expect(second.cacheFile).toBe(first.cacheFile);
      const pinned = await makeExecutor({ limits: DATA_LIMITS, pythonPackages: ['absent==1.0'] }).environment();
      expect(pinned.cached).toBe(false);
      expect(pinned.pins).toEqual([{ pin: 'absent==1.0', name: 'absent', modules: [], error: 'not installed' }]);
    } finally {
      for (const [key, value] of [['CODE_AGENT_PYTHON_DIR', saved.dir], ['CODE_AGENT_CACHE', saved.cache]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});

describe('the Python folders', () => {
  it('a cold run gets the font list made by the probe (no scan of every font per run)', async () => {
    const ex = makeExecutor({ limits: DATA_LIMITS });
    await ex.environment();
    const code = 'import os\nd = os.environ["MPLCONFIGDIR"]\nprint(sorted(n for n in os.listdir(d) if n.startswith("fontlist")))';
    const r = await ex.execute(code);
    expect(r.stdout).toMatch(/^\['fontlist-v\d+\.json'\]\n$/);
  });

  it('site dirs and the font list are read-only inside the sandbox', async () => {
    const ex = makeExecutor({ limits: DATA_LIMITS });
    await ex.environment();
    const code = [
      'import errno, os, sys',
      'for d in ("/opt/code-agent/site", "/opt/code-agent/mpl", "/opt/code-agent/site/pyarrow"):',
      '    try:',
      '        open(os.path.join(d, "x.py"), "w").write("pwned")',
      '        print(d, "WRITABLE")',
      '    except OSError as e:',
      '        print(d, errno.errorcode[e.errno])',
      'print("/opt/code-agent/site" in sys.path)',
    ].join('\n');
    const r = await ex.execute(code);
    expect(r.stdout).not.toContain('WRITABLE');
    expect(r.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^\/opt\/code-agent\/site (EROFS|EACCES)$/),
      expect.stringMatching(/^\/opt\/code-agent\/mpl (EROFS|EACCES)$/),
      expect.stringMatching(/^\/opt\/code-agent\/site\/pyarrow (EROFS|EACCES)$/),
      'True',
    ]);
  });
});
