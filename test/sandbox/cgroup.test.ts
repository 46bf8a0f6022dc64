/**
 * Second-generation limits: a cgroup per run (memory and processes of the whole tree), a hard
 * disk budget (tmpfs work dir), a status the program cannot forge, and the rlimits-only fallback.
 * Real bubblewrap + /usr/bin/python3; this suite needs root with writable cgroups (CI runs as root).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectCgroups, ownCgroups } from '../../src/sandbox/cgroup.js';
import { MIB } from '../../src/sandbox/limits.js';
import { makeExecutor, START_MODES, tempDir } from './helpers.js';

const support = detectCgroups();

/** Names of run cgroups left under the service's own memory cgroup. */
function leftoverCgroups(): string[] {
  const dir = support.parents?.memory;
  if (!dir) return [];
  return readdirSync(dir).filter((n) => n.startsWith(`code-agent-${process.pid}-`));
}

describe('cgroup detection', () => {
  it('reads /proc/self/cgroup for v1 and v2 lines', () => {
    const own = ownCgroups('12:pids:/a\n4:memory:/svc/x\n1:name=systemd:/\n0::/user.slice/s.service\n');
    expect(own.get('memory')).toBe('/svc/x');
    expect(own.get('pids')).toBe('/a');
    expect(own.get('systemd')).toBe('/');
    expect(own.get('')).toBe('/user.slice/s.service');
  });

  it('finds a writable cgroup here (root in CI), or says why not', () => {
    expect(['v1', 'v2']).toContain(support.mode);
    expect(support.reason).not.toBe('');
    expect(detectCgroups(true)).toMatchObject({ mode: 'none', reason: expect.stringContaining('sandbox.cgroups: off') });
  });
});

describe.each(START_MODES)('limits per run, as a whole ($start)', ({ options }) => {
  const ex = makeExecutor({ ...options, limits: { memoryBytes: 512 * MIB, wallTimeS: 20, cpuTimeS: 4 } });

  it('runs three at once, each using 45 % of its memory budget', async () => {
    const code = 'b = bytearray(int(0.45 * 512 * 1024 * 1024))\nb[::4096] = b"x" * len(b[::4096])\nprint(len(b))\n';
    const results = await Promise.all([1, 2, 3].map(() => ex.execute(code)));
    for (const r of results) expect(r).toMatchObject({ success: true, stderr: '', limitHit: null });
  });

  it('stops 8 processes × 400 MiB by the run cgroup, named memory', async () => {
    const code = [
      'import os, time',
      'for _ in range(8):',
      '    if os.fork() == 0:',
      '        b = bytearray(400 * 1024 * 1024)',
      '        b[::4096] = b"x" * len(b[::4096])',
      '        time.sleep(30)',
      '        os._exit(0)',
      'for _ in range(8):',
      '    os.wait()',
    ].join('\n');
    const r = await ex.execute(code);
    expect(r).toMatchObject({ success: false, limitHit: 'memory', timedOut: false });
    expect(r.durationMs).toBeLessThan(15_000);
  });

  it('stops a fork bomb at the process limit, even as root, named processes', async () => {
    const r = await ex.execute('import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n', {
      limits: { maxProcesses: 32, wallTimeS: 3 },
    });
    expect(r.success).toBe(false);
    expect(r.limitHit).toBe('processes');
    expect(process.getuid?.()).toBe(0); // the point: root does not escape the cgroup's pids.max
  });

  it('reports a forged status as what it is: exit code 137, no limit', async () => {
    const r = await ex.execute('import os, sys\nprint("MemoryError")\nsys.stderr.write("MemoryError: out of memory\\nKilled\\n")\nsys.stderr.flush()\nos._exit(137)\n');
    expect(r).toMatchObject({ success: false, exitCode: 137, signal: null, limitHit: null, timedOut: false });
    const fsize = await ex.execute('import os\nprint("File too large")\nos._exit(153)\n');
    expect(fsize).toMatchObject({ exitCode: 153, signal: null, limitHit: null });
  });

  it('does not end a run on a forged exit hint: the status is the kernel\'s', async () => {
    // a byte on every fd the program holds, the supervisor's exit hint pipe among them
    const code = 'import os, time\nfor fd in range(3, 200):\n    try:\n        os.write(fd, b"x")\n    except OSError:\n        pass\nprint("forged")\ntime.sleep(0.3)\nraise SystemExit(5)\n';
    const r = await ex.execute(code);
    expect(r).toMatchObject({ success: false, exitCode: 5, signal: null, limitHit: null, stdout: 'forged\n' });
    expect(r.durationMs).toBeGreaterThanOrEqual(300);
  });

  it('reports a real signal death from the supervisor, not from the exit code', async () => {
    const r = await ex.execute('import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n');
    expect(r).toMatchObject({ success: false, exitCode: null, signal: 'SIGTERM', limitHit: null });
  });

  it('stops a file written, unlinked and held open at the disk budget; nothing stays on the host', async () => {
    const art = tempDir();
    const code = [
      'import os',
      'held = []',
      'chunk = b"x" * (1024 * 1024)',
      'for i in range(5):  # 5 × 40 MiB, each unlinked at once and held open',
      '    f = open(f"held{i}.bin", "wb")',
      '    os.unlink(f"held{i}.bin")',
      '    held.append(f)',
      '    for _ in range(40):',
      '        f.write(chunk)',
      '        f.flush()',
      'print("wrote 200 MiB")',
    ].join('\n');
    // budget: 4 × 40 MiB = 160 MiB (disk-guard.ts workDirBudget); one file may be 40 MiB (RLIMIT_FSIZE)
    const r = await ex.execute(code, { artifactDir: art, limits: { maxFileBytes: 40 * MIB, maxArtifacts: 2, maxArtifactBytes: MIB } });
    expect(r.stdout).not.toContain('wrote 200 MiB');
    expect(r).toMatchObject({ success: false, limitHit: 'work_dir_bytes' });
    expect(r.stderr).toMatch(/No space left on device/);
    expect(readdirSync(art)).toEqual([]);
    expect(readdirSync(tempDir.length ? art : art)).toEqual([]);
  });
});

describe('the rlimits-only fallback (sandbox.cgroups: off)', () => {
  const warnings: string[] = [];
  const ex = makeExecutor({ cgroups: 'off', tmpfs: 'off', logger: { warn: (m) => warnings.push(m) } });

  it('says once that there is no cgroup per run, and why', async () => {
    await ex.check();
    await ex.execute('pass');
    expect(warnings.filter((w) => /no cgroup per run/.test(w))).toHaveLength(1);
    const report = await ex.isolation();
    expect(report.cgroups).toMatchObject({ active: false, mode: 'none' });
    expect(report.disk.active).toBe(false);
  });

  it('still bounds memory per process, processes per uid, and forged statuses', async () => {
    const mem = await ex.execute('b = bytearray(600 * 1024 * 1024)\n', { limits: { memoryBytes: 256 * MIB } });
    expect(mem).toMatchObject({ success: false, exitCode: 1 });
    expect(mem.stderr).toContain('MemoryError');
    const forged = await ex.execute('import os\nos._exit(137)\n');
    expect(forged).toMatchObject({ exitCode: 137, signal: null, limitHit: null });
    const bomb = await ex.execute('import os\nwhile True:\n    os.fork()\n', { limits: { maxProcesses: 16, wallTimeS: 3 } });
    expect(bomb.success).toBe(false);
  });

  it('keeps the polling disk guard', async () => {
    const r = await ex.execute('i = 0\nwhile True:\n    open(f"f{i}.bin", "wb").write(b"x" * 1000000)\n    i += 1\n', {
      limits: { maxFileBytes: MIB, maxArtifacts: 2, maxArtifactBytes: MIB, wallTimeS: 15 },
      artifactDir: tempDir(),
    });
    expect(r).toMatchObject({ success: false, limitHit: 'work_dir_bytes' });
  });
});

describe('the run cgroup is removed', () => {
  it('leaves no cgroup and no mount after a run', async () => {
    const workRoot = tempDir('sandbox-root-');
    const ex = makeExecutor({ workRoot });
    await ex.check();
    const before = leftoverCgroups(); // other suites' pooled sandboxes (and teardowns in flight) have theirs
    const mounts = () => readFileSync('/proc/self/mountinfo', 'utf8').split('\n').filter((l) => l.includes(workRoot));
    const r = await ex.execute('import os\nprint(len(os.listdir(".")))');
    expect(r.stdout).toBe('1\n');
    await ex.settled(); // the teardown ends after the result
    expect(leftoverCgroups().filter((c) => !before.includes(c))).toEqual([]);
    expect(mounts()).toEqual([]);
    expect(readdirSync(workRoot).filter((e) => e.startsWith('run-'))).toEqual([]);
  });
});
