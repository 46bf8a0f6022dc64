/**
 * Turn-2 cases on the real sandbox (bubblewrap + /usr/bin/python3): output cut on a character
 * boundary (C4), figures the program saved are not saved twice (C8), a file-count limit named for
 * what it is with no half-written files returned (C9), and no temp folder left behind (C10, the
 * executor's part; the CLI's is in test/cli/temp-cleanup.test.ts).
 */
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { makeExecutor, tempDir } from './helpers.js';

describe('C4: UTF-8 at the output cap', () => {
  it('keeps output that ends on a whole character, then the truncation mark', async () => {
    const r = await makeExecutor({ limits: { wallTimeS: 10 } }).execute('print("b" + "数" * 400000)');
    expect(r.limitHit).toBe('output');
    expect(r.stdout).not.toContain('\ufffd');
    expect(r.stdout).toMatch(/^b数+\n\[output truncated: more than 1048576 bytes\]\n$/);
  });
});

describe('C8: savefig and auto-save', () => {
  it('returns exactly the files the program saved, once each', async () => {
    const code = [
      'import matplotlib.pyplot as plt',
      'for k in (1, 2):',
      '    plt.figure(); plt.plot([0, k]); plt.savefig(f"line_{k}.png")',
    ].join('\n');
    const r = await makeExecutor({ limits: { wallTimeS: 20, cpuTimeS: 20 } }).execute(code, { artifactDir: tempDir() });
    expect(r.success).toBe(true);
    expect(r.artifacts.map((a) => a.name).sort()).toEqual(['line_1.png', 'line_2.png']);
  });

  it('six saved plots stay within the 10-file limit; an unsaved figure is still auto-saved', async () => {
    const code = [
      'import matplotlib.pyplot as plt',
      'for k in range(6):',
      '    fig = plt.figure(); plt.plot([0, k]); fig.savefig(f"p{k}.png")',
      'plt.figure(); plt.plot([1, 2])',
    ].join('\n');
    const r = await makeExecutor({ limits: { wallTimeS: 20, cpuTimeS: 20 } }).execute(code, { artifactDir: tempDir() });
    expect(r.success).toBe(true);
    expect(r.limitHit).toBeNull();
    expect(r.artifacts.map((a) => a.name).sort()).toEqual(['figure_1.png', 'p0.png', 'p1.png', 'p2.png', 'p3.png', 'p4.png', 'p5.png']);
  });
});

describe('C9: many files', () => {
  it('is stopped by the work_dir_files limit and returns no half-written files', async () => {
    const r = await makeExecutor({ limits: { wallTimeS: 15, cpuTimeS: 15 } }).execute(
      'for i in range(100000):\n    open(f"f{i}.txt", "w").close()\n',
      { artifactDir: tempDir() },
    );
    expect(r).toMatchObject({ success: false, limitHit: 'work_dir_files', artifacts: [] });
    expect(r.stderr).toContain('files in the work dir');
    expect(r.stderr).toMatch(/\d+ file\(s\) not returned: the program was stopped by a limit/);
  });
});

describe('C9, a quick program: over the file count when it ends between two polls', () => {
  it('6000 folders made in a blink are still the work_dir_files limit, not success', async () => {
    const r = await makeExecutor({ limits: { wallTimeS: 15, cpuTimeS: 15 } }).execute(
      'import os\nfor i in range(6000):\n    os.mkdir(f"d{i}")\nprint(len(os.listdir(".")))\n',
      { artifactDir: tempDir() },
    );
    expect(r).toMatchObject({ success: false, limitHit: 'work_dir_files', artifacts: [] });
    expect(r.stderr).toMatch(/\[(over the limit|killed|stopped): more than 5000 files in the work dir\]/);
  });
});

describe('C10: the executor leaves no temp folder', () => {
  it('removes its own code-agent-sandbox-* folder on close', async () => {
    // a private OS temp dir: other suites (and other processes) create such folders at the same time
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = tempDir('sandbox-tmpdir-');
    chmodSync(process.env.TMPDIR, 0o755);
    onTestFinished(() => {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    });
    const ex = new BubblewrapExecutor({ limits: { wallTimeS: 5 } });
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('code-agent-sandbox-')));
    const r = await ex.execute('print(1)');
    expect(r.stdout).toBe('1\n');
    const mine = readdirSync(tmpdir()).filter((n) => n.startsWith('code-agent-sandbox-') && !before.has(n));
    expect(mine).toHaveLength(1);
    await ex.close();
    expect(existsSync(join(tmpdir(), mine[0]!))).toBe(false);
    // usable again after close: a fresh folder
    expect((await ex.execute('print(2)')).stdout).toBe('2\n');
    await ex.close();
  });
});
