/** `code-agent doctor` shows the sandbox's Python: packages with versions, site dirs, pins, fonts (text and JSON). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../adapters/cli/doctor.js';
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
    expect(text).toMatch(/^sandbox python 3\.11\.\d+ \(/m);
    expect(text).toMatch(/packages {4}numpy \d[^\n]*openpyxl \d[^\n]*sklearn \d[^\n]*pyarrow 15\.0\.2/);
    expect(text).toMatch(/wheels {6}\/\S+\/wheels-[0-9a-f]{12} \(installed\)/);
    expect(text).toMatch(/own pins {4}none/);
    expect(text).toMatch(/fonts {7}fallback DejaVu Sans, WenQuanYi Micro Hei/);
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
});
