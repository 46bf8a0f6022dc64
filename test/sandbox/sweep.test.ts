/**
 * A service killed with -9 mid-run leaves its run cgroup, its mounted tmpfs work dir and its temp
 * folder on the host; the next executor that sets up removes them, and nothing of a live process.
 * Real bubblewrap + /usr/bin/python3, as root (CI); the child is the built executor (dist/).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectCgroups } from '../../src/sandbox/cgroup.js';
import { isAlive } from '../../src/sandbox/sweep.js';
import { WORK_ROOT_PREFIX } from '../../src/sandbox/work-root.js';
import { sleep } from './helpers.js';

const built = fileURLToPath(new URL('../../dist/src/sandbox/executor.js', import.meta.url));
const support = detectCgroups();
const cgroupParent = support.parents?.memory ?? null;

/** What belongs to `pid`: its run cgroups, its temp folders, the mounts inside them. */
function leftoversOf(pid: number, tmp: string = tmpdir()) {
  const roots = readdirSync(tmp).filter((n) => n.startsWith(`${WORK_ROOT_PREFIX}${pid}-`));
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[1] ?? '')
    .filter((point) => roots.some((r) => point.startsWith(join(tmp, r) + '/')));
  const cgroups = cgroupParent ? readdirSync(cgroupParent).filter((n) => n.startsWith(`code-agent-${pid}-`)) : [];
  return { roots, mounts, cgroups };
}

describe('leftovers of a killed service', () => {
  it('are swept by the next executor; a live process keeps its own', async () => {
    expect(existsSync(built), 'run npm run build first').toBe(true);
    // both services keep their work folders in a temp dir of this test's own: a test file starting
    // in another worker meanwhile sweeps the OS temp dir (its first executor), never this one
    const privateTmp = mkdtempSync(join(tmpdir(), 'sweep-test-'));
    chmodSync(privateTmp, 0o711); // the sandbox's user passes through it, like the OS temp dir
    try {
      await killedAndSwept(privateTmp);
    } finally {
      rmSync(privateTmp, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A service (the built executor in a child process) with TMPDIR set to `tmp`; `script` follows the import. */
function service(tmp: string, script: string, stdio: 'ignore' | 'pipe') {
  const source = `const { BubblewrapExecutor } = await import(${JSON.stringify(built)});\n${script}`;
  return spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', stdio, 'inherit'], env: { ...process.env, TMPDIR: tmp } });
}

/** A service killed with -9 mid-run, then a new service whose executor sweeps what it left. */
async function killedAndSwept(tmp: string): Promise<void> {
  const child = service(tmp, `const ex = new BubblewrapExecutor({ warmPool: 0 });\nawait ex.execute('import time\\ntime.sleep(60)', {});`, 'ignore');
  const pid = child.pid!;
  // wait until its run is under way: a mounted work dir (and a run cgroup where cgroups are writable)
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const l = leftoversOf(pid, tmp);
    if (l.mounts.length > 0 && (cgroupParent === null || l.cgroups.length > 0)) break;
    await sleep(100);
  }
  const during = leftoversOf(pid, tmp);
  expect(during.mounts.length).toBeGreaterThan(0);
  if (cgroupParent) expect(during.cgroups.length).toBeGreaterThan(0);

  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  await sleep(300); // --die-with-parent ends the sandbox
  expect(isAlive(pid)).toBe(false);
  expect(leftoversOf(pid, tmp).roots.length).toBeGreaterThan(0); // nothing cleaned up after a kill -9

  // the next service: its warnings, what it printed, and whether its own folder was there while it ran
  const next = service(
    tmp,
    [
      "const { readdirSync } = await import('node:fs');",
      "const { tmpdir } = await import('node:os');",
      'const warnings = [];',
      'const ex = new BubblewrapExecutor({ warmPool: 0, logger: { warn: (m) => warnings.push(m) } });',
      "const r = await ex.execute('print(\"after\")', {});",
      `const own = readdirSync(tmpdir()).some((n) => n.startsWith(${JSON.stringify(WORK_ROOT_PREFIX)} + process.pid + '-'));`,
      'await ex.close();',
      'process.stdout.write(JSON.stringify({ stdout: r.stdout, warnings, own }));',
    ].join('\n'),
    'pipe',
  );
  let out = '';
  next.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((r) => next.once('exit', r));
  const report = JSON.parse(out) as { stdout: string; warnings: string[]; own: boolean };
  expect(report.stdout).toBe('after\n');
  expect(leftoversOf(pid, tmp)).toEqual({ roots: [], mounts: [], cgroups: [] });
  expect(report.warnings.join('\n')).toMatch(
    /tidied up after a code-agent process that was stopped before it could \(removed [1-9]\d* work folders?, [1-9]\d* mounted work folders?(, \d+ resource groups? \(cgroups\))?\); nothing for you to do$/,
  );
  expect(report.own).toBe(true); // a live process's own folder is kept
}

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

