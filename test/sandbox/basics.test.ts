import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limitsFromConfig, MIB } from '../../src/sandbox/limits.js';
import { cleanName } from '../../src/text/file-names.js';
import { makeExecutor, tempDir, START_MODES } from './helpers.js';

describe.each(START_MODES)('sandbox basics ($start)', ({ options }) => {
  const ex = makeExecutor(options);

  it('runs a program and keeps stdout and stderr apart', async () => {
    const r = await ex.execute('import sys\nprint("out")\nprint("err", file=sys.stderr)\n');
    expect(r).toMatchObject({ success: true, stdout: 'out\n', stderr: 'err\n', exitCode: 0, signal: null });
    expect(r.timedOut).toBe(false);
    expect(r.limitHit).toBeNull();
  });

  it('reports exit codes and tracebacks naming main.py with the right line', async () => {
    const exit = await ex.execute('import sys\nsys.exit(3)\n');
    expect(exit).toMatchObject({ success: false, exitCode: 3, signal: null, limitHit: null });
    const err = await ex.execute('x = 1\n\ndef f():\n    return x / 0\n\nf()\n');
    expect(err.success).toBe(false);
    expect(err.exitCode).toBe(1);
    expect(err.stderr).toContain('File "main.py", line 6, in <module>');
    expect(err.stderr).toContain('File "main.py", line 4, in f');
    expect(err.stderr).toContain('ZeroDivisionError: division by zero');
    expect(err.stderr).not.toContain('runner.py');
    const syntax = await ex.execute('def f(:\n  pass\n');
    expect(syntax.exitCode).toBe(1);
    expect(syntax.stderr).toContain('main.py');
    expect(syntax.stderr).toContain('SyntaxError');
    const name = await ex.execute('if __name__ == "__main__":\n    print(__name__, __file__)\n');
    expect(name.stdout).toBe('__main__ main.py\n');
  });

  it('has the system packages and the site builtins (exit, quit, help)', async () => {
    const r = await ex.execute(
      'import numpy, pandas, scipy, sympy\nfrom mpl_toolkits.mplot3d import Axes3D\nprint(numpy.arange(3).sum(), callable(help))\nexit(4)\n',
      { limits: { wallTimeS: 20, cpuTimeS: 20 } },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('3 True\n');
    expect(r.exitCode).toBe(4);
  });

  it('fails input() fast with a hint that input is not supported', async () => {
    const r = await ex.execute('name = input("Name? ")\nprint(name)\n');
    expect(r.success).toBe(false);
    expect(r.durationMs).toBeLessThan(3000);
    expect(r.stderr).toContain('EOFError');
    expect(r.stderr).toMatch(/input\(\) is not supported/);
  });

  it('replaces bytes that are not UTF-8', async () => {
    const r = await ex.execute('import sys\nsys.stdout.buffer.write(b"a\\xff\\xfeb\\n")\nprint("é ✓")\n');
    expect(r.success).toBe(true);
    expect(r.stdout).toBe('a\uFFFD\uFFFDb\né ✓\n');
  });

  it('builds the environment from nothing', async () => {
    const r = await ex.execute('import os\nprint(sorted(os.environ))\nprint(os.getcwd())\n');
    expect(r.stdout).toContain("'PATH'");
    expect(r.stdout).not.toMatch(/NODE|VITEST|USER'|SSH|OPENAI/);
    expect(r.stdout).toContain('/work\n');
  });

  it('places input files (names cleaned) in the work dir and does not return them unchanged', async () => {
    const dir = tempDir();
    const r = await ex.execute(
      'import os\nprint(sorted(os.listdir(".")))\nprint(open("data.csv").read())\nopen("out.txt","w").write("done")\n',
      {
        artifactDir: dir,
        inputFiles: [
          { name: '../../data.csv', content: Buffer.from('a,b\n1,2') },
          { name: '.bashrc', content: Buffer.from('x') },
          { name: 'main.py', content: Buffer.from('print(1)') },
        ],
      },
    );
    expect(r.success).toBe(true);
    expect(r.stdout).toContain("['bashrc', 'data.csv', 'input_main.py', 'main.py']");
    expect(r.stdout).toContain('a,b\n1,2');
    expect(r.artifacts.map((a) => a.name)).toEqual(['out.txt']);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('done');
  });

  it('does not return a figure with nothing drawn, only the plot the program made', async () => {
    // `plt.figure()` before a pandas plot (which makes its own figure), and empty subplots left open
    const r = await ex.execute(
      'import matplotlib.pyplot as plt, pandas as pd\nplt.figure(figsize=(6, 4))\npd.DataFrame({"x": [1, 2, 3]}).plot()\nplt.subplots(2, 2)\n',
      { artifactDir: tempDir(), limits: { wallTimeS: 20, cpuTimeS: 20 } },
    );
    expect(r.success).toBe(true);
    expect(r.artifacts.map((a) => a.name)).toEqual(['figure_1.png']);
    expect(r.artifacts[0]!.bytes).toBeGreaterThan(5_000); // the pandas plot, not a blank canvas
  });

  it('saves matplotlib figures as PNG artifacts, show() does not block', async () => {
    const dir = tempDir();
    const r = await ex.execute(
      'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()\nplt.figure()\nplt.bar([1, 2], [3, 4])\n',
      { artifactDir: dir, limits: { wallTimeS: 20, cpuTimeS: 20 } },
    );
    expect(r.stderr).toBe('');
    expect(r.success).toBe(true);
    expect(r.artifacts.map((a) => a.name)).toEqual(['figure_1.png', 'figure_2.png']);
    for (const a of r.artifacts) {
      expect(a.path.startsWith(dir)).toBe(true);
      const bytes = readFileSync(a.path);
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(bytes.length).toBe(a.bytes);
    }
  });

  it('a figure saved for the program keeps labels that reach past its canvas (long rotated tick labels are not cut off)', async () => {
    // the README's showcase: one bar per month, labelled 2026-01… and rotated; the canvas is 640×480 px
    const code = 'import matplotlib.pyplot as plt\nplt.bar(["2026-%02d monthly total" % m for m in range(1, 7)], [7, 6, 8, 8, 11, 8])\nplt.xticks(rotation=90)\nplt.xlabel("Month")\nplt.show()\n';
    const r = await ex.execute(code, { artifactDir: tempDir(), limits: { wallTimeS: 20, cpuTimeS: 20 } });
    expect(r.success).toBe(true);
    const png = readFileSync(r.artifacts[0]!.path);
    const height = png.readUInt32BE(20); // IHDR: width at byte 16, height at 20
    expect(height).toBeGreaterThan(480); // grown to hold the labels and the axis title below the canvas
  });

  it('imports matplotlib only when the program does (cold), or ahead of time (warm pool)', async () => {
    const r = await ex.execute('import sys\nprint("matplotlib" in sys.modules)\n');
    expect(r.stdout).toBe(options.warmPool > 0 ? 'True\n' : 'False\n');
  });

  it('keeps artifacts in a per-execution dir under the work root when no artifactDir is given', async () => {
    const r = await ex.execute('open("a.txt", "w").write("hi")\n');
    expect(r.artifacts).toHaveLength(1);
    expect(existsSync(r.artifacts[0]!.path)).toBe(true);
  });

  it('is cancelled by an AbortSignal', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const r = await ex.execute('while True:\n    pass\n', { signal: ac.signal });
    expect(r.success).toBe(false);
    expect(r.timedOut).toBe(false);
    expect(r.stderr).toContain('cancelled');
    expect(r.durationMs).toBeLessThan(3000);
  });
});

describe('limits and names', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({
      wallTimeS: 10,
      cpuTimeS: 10,
      memoryBytes: 512 * MIB,
      maxProcesses: 64,
      maxFileBytes: 16 * MIB,
      maxOpenFiles: 256,
      maxOutputBytes: MIB,
      maxArtifacts: 10,
      maxArtifactBytes: 8 * MIB,
    });
  });

  it('maps config keys to limits', () => {
    expect(
      limitsFromConfig({ timeout_s: 5, cpu_time_s: 3, memory_mb: 256, max_processes: 8, max_file_mb: 1,
        max_open_files: 64, max_output_kb: 10, max_artifacts: 2, max_artifact_mb: 0.5 }),
    ).toEqual({
      wallTimeS: 5, cpuTimeS: 3, memoryBytes: 256 * MIB, maxProcesses: 8, maxFileBytes: MIB,
      maxOpenFiles: 64, maxOutputBytes: 10240, maxArtifacts: 2, maxArtifactBytes: MIB / 2,
    });
    expect(limitsFromConfig({})).toEqual(DEFAULT_LIMITS);
  });

  it('cleans names', () => {
    expect(cleanName('../../etc/passwd')).toBe('passwd');
    expect(cleanName('..')).toBeNull();
    expect(cleanName('.env')).toBe('env');
    expect(cleanName('my file (1).csv')).toBe('my_file__1_.csv');
    expect(cleanName('a\\b\\c.txt')).toBe('c.txt');
    expect(cleanName('')).toBeNull();
  });
});
