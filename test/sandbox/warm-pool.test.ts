/** The warm pool: one run per pre-started sandbox, nothing shared, recycled past its age, sized by config. */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { makeExecutor, sleep, tempDir } from './helpers.js';

describe('warm pool', () => {
  it('serves runs from pre-started sandboxes with the usual imports done', async () => {
    const ex = makeExecutor({ warmPool: 1 });
    const r = await ex.execute('import sys\nprint(sorted(m for m in ("numpy", "pandas", "matplotlib.pyplot") if m in sys.modules))\n');
    expect(r.stdout).toBe("['matplotlib.pyplot', 'numpy', 'pandas']\n");
    const cold = await makeExecutor({ warmPool: 0 }).execute('import sys\nprint("numpy" in sys.modules)\n');
    expect(cold.stdout).toBe('False\n');
  });

  it('two runs in a row see none of each other’s files, variables, processes or environment', async () => {
    const ex = makeExecutor({ warmPool: 1 });
    const first = await ex.execute(
      [
        'import os, subprocess, builtins, sys',
        'open("left.txt", "w").write("x")',
        'open("/tmp/left-tmp.txt", "w").write("x")',
        'builtins.LEFT_BEHIND = 1',
        'sys.modules["numpy"].LEFT = 1',
        'os.environ["LEFT_ENV"] = "1"',
        'subprocess.Popen(["/usr/bin/python3", "-c", "import time; time.sleep(60)"], start_new_session=True)',
        'print("pid", os.getpid())',
      ].join('\n'),
      { artifactDir: tempDir() },
    );
    expect(first.success).toBe(true);
    const second = await ex.execute(
      [
        'import os, builtins, sys',
        'print(sorted(os.listdir(".")))',
        'print(os.path.exists("/tmp/left-tmp.txt"))',
        'print(hasattr(builtins, "LEFT_BEHIND"), hasattr(sys.modules["numpy"], "LEFT"))',
        'print("LEFT_ENV" in os.environ)',
        'print(sorted(p for p in os.listdir("/proc") if p.isdigit() and open(f"/proc/{p}/cmdline").read().find("sleep(60)") >= 0))',
      ].join('\n'),
    );
    expect(second.stdout).toBe("['main.py']\nFalse\nFalse False\nFalse\n[]\n");
  });

  it('recycles a pooled sandbox older than the configured age', async () => {
    const ex = makeExecutor({ warmPool: 1, warmPoolMaxAgeS: 1 });
    const pool = (await ex.warmPool())!;
    expect(await pool.whenReady(1, 60_000)).toBe(true);
    const firstPid = (await pool.peek())!;
    await sleep(1600); // past the age: thrown away and replaced
    expect(await pool.whenReady(1, 60_000)).toBe(true);
    const secondPid = (await pool.peek())!;
    expect(secondPid).not.toBe(firstPid);
    expect(() => process.kill(firstPid, 0)).toThrow(); // the old one is gone
  });

  it('is off at size 0 and refuses a bad size', async () => {
    const ex = makeExecutor({ warmPool: 0 });
    expect(await ex.warmPool()).toBeUndefined();
    expect((await ex.isolation()).warmPool.size).toBe(0);
    expect(() => new BubblewrapExecutor({ warmPool: -1 })).toThrow(/warm pool size/);
    expect(() => new BubblewrapExecutor({ spareSlots: 1.5 })).toThrow(/prepared slots: expected a whole number ≥ 0, got 1.5/);
  });

  it('starts cold when a run asks for more than a pooled sandbox was started with', async () => {
    const ex = makeExecutor({ warmPool: 1 });
    const r = await ex.execute('import sys\nprint("numpy" in sys.modules)\n', { limits: { cpuTimeS: 30 } });
    expect(r.stdout).toBe('False\n');
  });
});

describe('prepared slots (cold starts)', () => {
  it('keep only a waiting launcher in the run cgroup; Python starts for the run, and the slot is replaced', async () => {
    const ex = makeExecutor({ warmPool: 0, spareSlots: 1 });
    await ex.check();
    const spares = (await ex.spareSlots())!;
    expect(await spares.whenReady(1, 30_000)).toBe(true);
    const launcher = (await spares.peek())!;
    const cmdline = readFileSync(`/proc/${launcher}/cmdline`, 'utf8').split('\0');
    expect(cmdline[0]).toBe('/bin/sh');
    expect(readFileSync(`/proc/${launcher}/task/${launcher}/children`, 'utf8').trim()).toBe(''); // nothing started yet
    const r = await ex.execute('import sys\nprint("numpy" in sys.modules, sys.argv)\n');
    expect(r).toMatchObject({ success: true, stdout: "False ['main.py']\n" });
    await ex.settled();
    for (let i = 0; i < 100 && existsSync(`/proc/${launcher}`); i++) await sleep(20); // reaped by Node
    expect(existsSync(`/proc/${launcher}`)).toBe(false); // used once, then thrown away
    expect(await spares.whenReady(1, 30_000)).toBe(true);
    expect(await spares.peek()).not.toBe(launcher);
  });
});
