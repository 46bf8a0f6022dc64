/** What the LLM and users are told about the sandbox's packages, and missing modules in a library's own words. */
import { describe, expect, it } from 'vitest';
import { librariesSentence, missingModule, unfixableFailure } from '../../src/agent/failures/index.js';
import { systemPrompt, SYSTEM_PROMPT } from '../../src/agent/replies/index.js';
import type { PythonEnvironment } from '../../src/sandbox/environment.js';
import type { ExecutionResult } from '../../src/sandbox/types.js';

const failed = (stderr: string): ExecutionResult => ({
  success: false, stdout: '', stderr, exitCode: 1, signal: null, timedOut: false, limitHit: null, durationMs: 5, artifacts: [],
});
const traceback = (line: string) => `Traceback (most recent call last):\n  File "main.py", line 2, in <module>\n    df = pd.read_excel("budget.xlsx")\n${line}\n`;

const env = (over: Partial<PythonEnvironment> = {}): PythonEnvironment => ({
  python: '3.11.2',
  modules: [
    { module: 'pandas', dist: 'pandas', version: '1.5.3' },
    { module: 'sklearn', dist: 'scikit-learn', version: '1.2.1' },
    { module: 'PIL', dist: 'Pillow', version: '9.4.0' },
    { module: 'plotly', dist: 'plotly', version: '5.4.0' },
    { module: 'pyarrow', dist: 'pyarrow', error: "ModuleNotFoundError: No module named 'pyarrow'" },
  ],
  pins: [
    { pin: 'tinypkg==1.0', name: 'tinypkg', version: '1.0', modules: ['tinypkg'] },
    { pin: 'gone==2.0', name: 'gone', modules: [], error: 'not installed' },
  ],
  fonts: [{ family: 'DejaVu Sans', file: '/x/DejaVuSans.ttf' }, { family: 'WenQuanYi Micro Hei', file: '/x/wqy.ttc' }],
  siteDirs: { wheels: '/w', wheelsReady: true },
  probeMs: 0,
  cached: true,
  ...over,
});

describe('the package sentence of the system prompt', () => {
  it('names what imports (and the operator pins that import), sorted, and nothing that does not', () => {
    const sentence = librariesSentence(env());
    expect(sentence).toContain("Installed: Python's standard library and these packages: pandas, PIL, plotly, sklearn, tinypkg.");
    expect(sentence).not.toContain('pyarrow');
    expect(sentence).not.toContain('gone');
    expect(sentence).toContain('plotly can only write HTML');
    expect(sentence).toContain('Chinese, Japanese, Korean');
  });

  it('is the same text for the same environment in another order (a stable prompt prefix)', () => {
    const a = env();
    const b = env({ modules: [...a.modules].reverse(), pins: [...a.pins].reverse() });
    expect(systemPrompt(librariesSentence(b))).toBe(systemPrompt(librariesSentence(a)));
  });

  it('says nothing of fonts without a CJK font, and falls back to the fixed list when not probed', () => {
    expect(librariesSentence(env({ fonts: [{ family: 'DejaVu Sans', file: '/x' }, { family: 'WenQuanYi Micro Hei' }] }))).not.toContain('Chinese');
    expect(SYSTEM_PROMPT).toContain('numpy, pandas, matplotlib, scipy and sympy are available');
  });
});

describe('a missing module in a library’s own words', () => {
  it('pandas optional dependencies and parquet engines, plotly’s kaleido, pip hints', () => {
    const cases: Array<[string, string]> = [
      ["ImportError: Missing optional dependency 'openpyxl'.  Use pip or conda to install openpyxl.", 'openpyxl'],
      ["ImportError: Unable to find a usable engine; tried using: 'pyarrow', 'fastparquet'.", 'pyarrow'],
      ['ValueError: Image export using the "kaleido" engine requires the kaleido package,', 'kaleido'],
      ["ModuleNotFoundError: No module named 'tqdm.auto'", 'tqdm'],
      ['RuntimeError: this feature needs extra libraries; pip install polars', 'polars'],
    ];
    for (const [line, module] of cases) expect(missingModule(failed(traceback(line))), line).toBe(module);
    expect(missingModule(failed(traceback("ValueError: invalid literal for int() with base 10: 'x'")))).toBeUndefined();
  });

  it('the second time stops the run, naming what is installed and how an operator adds a package', () => {
    const result = failed(traceback("ImportError: Missing optional dependency 'openpyxl'.  Use pip or conda to install openpyxl."));
    const context = { request: 'sum budget.xlsx', inputFiles: ['budget.xlsx'], missingBefore: [] as string[], libraries: 'LIBS' };
    expect(unfixableFailure(result, context)).toBeUndefined(); // first time: one rewrite
    const stop = unfixableFailure(result, { ...context, missingBefore: ['openpyxl'] });
    expect(stop?.kind).toBe('missing_module');
    expect(stop?.message).toContain('openpyxl');
    expect(stop?.message).toContain('Available: LIBS');
    expect(stop?.message).toContain('sandbox.python_packages');
    expect(stop?.message).toContain('npm run setup');
  });
});
