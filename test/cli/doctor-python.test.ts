/** `code-agent doctor` shows the sandbox's Python: packages with versions, site dirs, pins, fonts (text and JSON). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../adapters/cli/doctor.js';
import { formatPython } from '../../adapters/cli/doctor-python.js';
import type { PythonEnvironment } from '../../src/sandbox/environment.js';
import { parseConfig } from '../../src/config/load.js';

async function doctor(sandbox: Record<string, unknown>, json = false): Promise<{ code: number; text: string }> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  const code = await runDoctor(parseConfig({ sandbox: { warm_pool: 0, ...sandbox } }, {}), { json }, out);
  return { code, text };
}

const saved = process.env.CODE_AGENT_PYTHON_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.CODE_AGENT_PYTHON_DIR;
  else process.env.CODE_AGENT_PYTHON_DIR = saved;
});

describe('code-agent doctor: the sandbox’s Python', () => {
  it('lists the packages with versions, the site dir and the fonts', async () => {
    const { code, text } = await doctor({});
    expect(code).toBe(0);
    // where the probe's answer is kept, and when it is probed again
    expect(text).toMatch(
      /^sandbox python 3\.11\.\d+ \((from the cache|probed in \d+ ms, kept in) \/\S+\/python-env-[0-9a-f]{16}\.json; probed again when Debian packages, site dirs or pins change\):$/m,
    );
    expect(text).toMatch(/packages {4}numpy \d[^\n]*openpyxl \d[^\n]*sklearn \d[^\n]*pyarrow 15\.0\.2/);
    expect(text).toMatch(/wheels {6}pinned PyPI packages \(pyarrow 15\.0\.2\): \/\S+\/wheels-[0-9a-f]{12}, mounted read-only at \/opt\/code-agent\/site \(installed\)/);
    expect(text).toMatch(/own pins {4}none/);
    expect(text).toMatch(/fonts {7}fallback DejaVu Sans, WenQuanYi Micro Hei, Noto Sans CJK SC( \(optional, not installed\))?, /);
    expect(text).not.toMatch(/(DejaVu Sans|WenQuanYi Micro Hei) \(/); // setup installs both
  });

  it('JSON carries the same under `python`; a missing pin is named and exits 2', async () => {
    process.env.CODE_AGENT_PYTHON_DIR = mkdtempSync(join(tmpdir(), 'python-dir-'));
    const { code, text } = await doctor({ python_packages: ['absentpkg==1.0'] }, true);
    expect(code).toBe(2);
    const report = JSON.parse(text) as { namespaces: { active: boolean }; python: { modules: Array<{ module: string }>; pins: Array<{ pin: string; error?: string }>; siteDirs: { wheelsReady: boolean; extraReady: boolean } } };
    expect(report.namespaces.active).toBe(true);
    expect(report.python.modules.map((m) => m.module)).toContain('seaborn');
    expect(report.python.pins).toEqual([{ pin: 'absentpkg==1.0', name: 'absentpkg', modules: [], error: 'not installed' }]);
    expect(report.python.siteDirs).toMatchObject({ wheelsReady: false, extraReady: false });
  });

  it('tells an optional font that is not installed from a missing one, and a fresh probe from a cached one', () => {
    const env: PythonEnvironment = {
      python: '3.11.2',
      modules: [{ module: 'numpy', dist: 'numpy', version: '1.24.2' }],
      pins: [],
      fonts: [{ family: 'DejaVu Sans', file: '/usr/share/fonts/DejaVuSans.ttf' }, { family: 'WenQuanYi Micro Hei' }, { family: 'Noto Sans CJK SC' }],
      siteDirs: { wheels: '/srv/python/wheels-0123456789ab', wheelsReady: true },
      probeMs: 4210,
      cached: false,
    };
    const text = formatPython(env);
    expect(text).toContain('sandbox python 3.11.2 (probed in 4210 ms, kept in no writable cache folder; probed again when');
    expect(text).toContain('fallback DejaVu Sans, WenQuanYi Micro Hei (MISSING: run `npm run setup`), Noto Sans CJK SC (optional, not installed)');
  });
});
