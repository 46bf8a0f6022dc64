/**
 * A service killed with -9 mid-run leaves its run cgroup, its mounted tmpfs work dir and its temp
 * folder on the host; the next executor that sets up removes them, and nothing of a live process.
 * Real bubblewrap + /usr/bin/python3, as root (CI); the child is the built executor (dist/).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectCgroups } from '../../src/sandbox/cgroup.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { isAlive } from '../../src/sandbox/sweep.js';
import { WORK_ROOT_PREFIX } from '../../src/sandbox/work-root.js';
import { sleep, tempDir } from './helpers.js';

const built = fileURLToPath(new URL('../../dist/src/sandbox/executor.js', import.meta.url));
const support = detectCgroups();
const cgroupParent = support.parents?.memory ?? null;

/** What belongs to `pid`: its run cgroups, its temp folders, the mounts inside them. */
function leftoversOf(pid: number) {
  const roots = readdirSync(tmpdir()).filter((n) => n.startsWith(`${WORK_ROOT_PREFIX}${pid}-`));
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[1] ?? '')
    .filter((point) => roots.some((r) => point.startsWith(join(tmpdir(), r) + '/')));
  const cgroups = cgroupParent ? readdirSync(cgroupParent).filter((n) => n.startsWith(`code-agent-${pid}-`)) : [];
  return { roots, mounts, cgroups };
}

describe('leftovers of a killed service', () => {
  it('are swept by the next executor; a live process keeps its own', async () => {
    expect(existsSync(built), 'run npm run build first').toBe(true);
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { BubblewrapExecutor } = await import(${JSON.stringify(built)});
         const ex = new BubblewrapExecutor({ warmPool: 0 });
         await ex.execute('import time\\ntime.sleep(60)', { artifactDir: ${JSON.stringify(tempDir())} });`,
      ],
      { stdio: 'ignore' },
    );
    const pid = child.pid!;
    // wait until its run is under way: a mounted work dir (and a run cgroup where cgroups are writable)
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const l = leftoversOf(pid);
      if (l.mounts.length > 0 && (cgroupParent === null || l.cgroups.length > 0)) break;
      await sleep(100);
    }
    const during = leftoversOf(pid);
    expect(during.mounts.length).toBeGreaterThan(0);
    if (cgroupParent) expect(during.cgroups.length).toBeGreaterThan(0);

    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await sleep(300); // --die-with-parent ends the sandbox
    expect(isAlive(pid)).toBe(false);
    expect(leftoversOf(pid).roots.length).toBeGreaterThan(0); // nothing cleaned up after a kill -9

    const warnings: string[] = [];
    const ex = new BubblewrapExecutor({ warmPool: 0, logger: { warn: (m) => warnings.push(m) } });
    try {
      const r = await ex.execute('print("after")', { artifactDir: tempDir() });
      expect(r.stdout).toBe('after\n');
      expect(leftoversOf(pid)).toEqual({ roots: [], mounts: [], cgroups: [] });
      expect(warnings.join('\n')).toMatch(/tidied up after a code-agent process that was stopped before it could \(removed [1-9]\d* work folders?, [1-9]\d* mounted work folders?(, \d+ resource groups? \(cgroups\))?\); nothing for you to do$/);
      // this process's own folder is alive and kept
      expect(readdirSync(tmpdir()).some((n) => n.startsWith(`${WORK_ROOT_PREFIX}${process.pid}-`))).toBe(true);
    } finally {
      await ex.close();
    }
  }, 60_000);
});

describe('a service that exits without closing its executor', () => {
  for (const how of ['exit', 'SIGTERM'] as const) {
    it(`leaves nothing behind (${how}): warm sandbox, prepared slot, runs still being torn down, temp folder`, async () => {
      expect(existsSync(built), 'run npm run build first').toBe(true);
      const ending = how === 'exit' ? 'process.exit(0);' : "process.kill(process.pid, 'SIGTERM'); await new Promise((r) => setTimeout(r, 5000));";
      const child = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { BubblewrapExecutor } = await import(${JSON.stringify(built)});
           const ex = new BubblewrapExecutor({ warmPool: 1, spareSlots: 1 });
           await (await ex.warmPool()).whenReady(1, 30000);
           await (await ex.spareSlots()).whenReady(1, 30000);
           const r = await ex.execute('print("ran")');
           process.stdout.write(r.stdout);
           ${ending}`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const pid = child.pid!;
      await new Promise((r) => child.once('exit', r));
      expect(out).toBe('ran\n');
      await sleep(300); // --die-with-parent ends the sandboxes
      expect(leftoversOf(pid)).toEqual({ roots: [], mounts: [], cgroups: [] });
    });
  }
});

