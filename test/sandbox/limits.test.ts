/** Every limit is hit by a test, and the status names it; the host stays fine. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MIB } from '../../src/sandbox/limits.js';
import { makeExecutor, processesWith, sleep, tempDir, START_MODES } from './helpers.js';

describe.each(START_MODES)('sandbox limits ($start)', ({ options }) => {
  const ex = makeExecutor(options);

  it('kills an infinite loop at the wall time', async () => {
    const r = await ex.execute('import time\nwhile True:\n    time.sleep(0.1)\n', { limits: { wallTimeS: 1.5 } });
    expect(r).toMatchObject({ success: false, timedOut: true, limitHit: 'wall_time', signal: 'SIGKILL', exitCode: null });
    expect(r.durationMs).toBeGreaterThanOrEqual(1400);
    expect(r.durationMs).toBeLessThan(4000);
  });

  it('stops a CPU loop at the CPU time', async () => {
    const r = await ex.execute('while True:\n    pass\n', { limits: { cpuTimeS: 1, wallTimeS: 8 } });
    expect(r).toMatchObject({ success: false, timedOut: false, limitHit: 'cpu_time', signal: 'SIGXCPU' });
    expect(r.durationMs).toBeLessThan(6000);
  });

  it('stops a memory bomb', async () => {
    const r = await ex.execute('chunks = []\nwhile True:\n    chunks.append(bytearray(50 * 1024 * 1024))\n', {
      limits: { memoryBytes: 256 * MIB },
    });
    // the run's cgroup stops it (its OOM counter names the limit), not an exception it could print
    expect(r).toMatchObject({ success: false, timedOut: false, limitHit: 'memory' });
    expect(r.stderr).toContain('[stopped: the run used all of its');
    // 80 GB at once is refused by the kernel to the program itself: its own MemoryError, no limit was reached
    const big = await ex.execute('import numpy as np\na = np.ones(10**10)\n', { limits: { wallTimeS: 10 } });
    expect(big).toMatchObject({ success: false, exitCode: 1 });
    expect(big.stderr).toContain('MemoryError');
  });

  it('stops a fork bomb, and the host can still fork afterwards', async () => {
    const marker = `forkbomb${Date.now()}`;
    const bomb = `import os\nwhile True:\n    os.fork()\n`;
    const r = await ex.execute(
      `import os\nos.execv("/usr/bin/python3", ["python3", "-c", ${JSON.stringify(bomb)}, "${marker}"])\n`,
      { limits: { wallTimeS: 3, maxProcesses: 32 } },
    );
    expect(r.success).toBe(false);
    expect(['processes', 'wall_time']).toContain(r.limitHit);
    await ex.settled();
    expect(processesWith(marker)).toEqual([]);
    expect(execFileSync('/bin/echo', ['host ok']).toString()).toBe('host ok\n');
    const p = await ex.execute('import os\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)\nprint("forked")\n');
    expect(p.stdout).toBe('forked\n');
  });

  it('reports the process limit when fork fails', async () => {
    const r = await ex.execute(
      'import os, time\nkids = []\nfor _ in range(100):\n    pid = os.fork()\n    if pid == 0:\n        time.sleep(5)\n        os._exit(0)\n    kids.append(pid)\n',
      { limits: { maxProcesses: 10, wallTimeS: 5 } },
    );
    expect(r).toMatchObject({ success: false, limitHit: 'processes', timedOut: false });
    expect(r.stderr).toMatch(/BlockingIOError|Resource temporarily unavailable|reached its limit of 10 processes/);
  });

  it('stops a file larger than the file size limit', async () => {
    const r = await ex.execute('open("big.bin", "wb").write(b"x" * (2 * 1024 * 1024))\n', {
      limits: { maxFileBytes: MIB },
      artifactDir: tempDir(),
    });
    expect(r).toMatchObject({ success: false, limitHit: 'file_size' });
    expect(r.stderr).toContain('File too large');
    expect(r.artifacts).toEqual([]); // half-written: not returned
    expect(r.stderr).toMatch(/1 file\(s\) not returned: .*half-written/);
  });

  it('stops a program filling the host disk through the work dir (total bytes and file count)', async () => {
    const limits = { maxFileBytes: MIB, maxArtifacts: 2, maxArtifactBytes: MIB, wallTimeS: 15, cpuTimeS: 15 }; // room for the guard under load
    const bytes = await ex.execute('i = 0\nwhile True:\n    open(f"f{i}.bin", "wb").write(b"x" * 1000000)\n    i += 1\n', {
      limits,
      artifactDir: tempDir(),
    });
    expect(bytes).toMatchObject({ success: false, limitHit: 'work_dir_bytes', timedOut: false, artifacts: [] });
    expect(bytes.stderr).toContain('bytes written to the work dir');
    expect(bytes.durationMs).toBeLessThan(6000);
    const files = await ex.execute('import os\nos.mkdir("d")\ni = 0\nwhile True:\n    open(f"d/{i}", "w").close()\n    i += 1\n', {
      limits,
      artifactDir: tempDir(),
    });
    expect(files).toMatchObject({ success: false, limitHit: 'work_dir_files', timedOut: false, artifacts: [] });
    expect(files.stderr).toContain('files in the work dir');
  });

  it('caps an output flood, kills the program, and keeps host memory bounded', async () => {
    const rssBefore = process.memoryUsage().rss;
    const r = await ex.execute(
      'import sys\nchunk = "x" * 65535 + "\\n"\nfor _ in range(3200):\n    sys.stdout.write(chunk)\n',
      { limits: { wallTimeS: 20 } },
    );
    const growth = process.memoryUsage().rss - rssBefore;
    expect(r).toMatchObject({ success: false, limitHit: 'output', timedOut: false });
    expect(r.stdout.length).toBeLessThanOrEqual(MIB + 200);
    expect(r.stdout).toContain('[output truncated');
    expect(r.durationMs).toBeLessThan(10_000);
    expect(growth).toBeLessThan(64 * MIB);
  });

  it('ends a program that SIGSTOPs its own process group (or pid 1) at the wall time', async () => {
    const own = await ex.execute('import os, signal\nos.killpg(0, signal.SIGSTOP)\n', { limits: { wallTimeS: 1.5 } });
    expect(own).toMatchObject({ success: false, timedOut: true, limitHit: 'wall_time' });
    expect(own.durationMs).toBeLessThan(5000);
    const init = await ex.execute('import os, signal\nos.kill(1, signal.SIGSTOP)\nos.killpg(0, signal.SIGSTOP)\n', {
      limits: { wallTimeS: 1.5 },
    });
    expect(init).toMatchObject({ success: false, timedOut: true, limitHit: 'wall_time' });
    expect(init.durationMs).toBeLessThan(5000);
  });

  it('runs three executions at once, each using 40 % of the memory limit', async () => {
    const code = 'b = bytearray(int(0.4 * 512 * 1024 * 1024))\nb[::4096] = b"x" * len(b[::4096])\nprint(len(b))\n';
    const results = await Promise.all([1, 2, 3].map(() => ex.execute(code, { limits: { wallTimeS: 20 } })));
    for (const r of results) {
      expect(r.stderr).toBe('');
      expect(r.success).toBe(true);
    }
  });

  it('returns at most maxArtifacts files', async () => {
    const dir = tempDir();
    const r = await ex.execute('for i in range(15):\n    open(f"f{i:02}.txt", "w").write(str(i))\n', {
      artifactDir: dir,
      limits: { maxArtifacts: 10 },
    });
    expect(r.artifacts).toHaveLength(10);
    expect(r.limitHit).toBe('artifacts');
    expect(r.exitCode).toBe(0);
  });

  it('skips artifacts larger than maxArtifactBytes', async () => {
    const r = await ex.execute('open("big.bin", "wb").write(b"x" * 300000)\nopen("small.txt", "w").write("ok")\n', {
      artifactDir: tempDir(),
      limits: { maxArtifactBytes: 100_000 },
    });
    expect(r.artifacts.map((a) => a.name)).toEqual(['small.txt']);
    expect(r.limitHit).toBe('artifacts');
  });
});
