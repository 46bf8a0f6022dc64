/** When isolation cannot be set up: refuse with why and how to fix, unless unisolated mode is allowed. */
import { chmodSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainProbeFailure } from '../../src/sandbox/probe.js';
import { SandboxUnavailableError } from '../../src/sandbox/types.js';
import { makeExecutor, tempDir } from './helpers.js';

/** A python the host has but the sandbox cannot see (only /usr is bound inside): the self-test fails. */
function pythonOutsideUsr(): string {
  const dir = tempDir('sandbox-py-');
  const link = join(dir, 'python3');
  symlinkSync('/usr/bin/python3', link);
  return link;
}

describe('sandbox unavailable', () => {
  it('refuses to run and says why and how to fix', async () => {
    const ex = makeExecutor({ python: pythonOutsideUsr() });
    const err = await ex.execute('print(1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxUnavailableError);
    expect((err as Error).message).toMatch(/under \/usr/);
  });

  it('explains namespace and missing-tool failures', () => {
    const userns = explainProbeFailure('bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.', '/usr/bin/python3');
    expect(userns).toBeInstanceOf(SandboxUnavailableError);
    expect(userns.message).toContain('kernel.unprivileged_userns_clone=1');
    expect(userns.message).toContain('user.max_user_namespaces');
    const uidmap = explainProbeFailure('bwrap: setting up uid map: Permission denied', '/usr/bin/python3');
    expect(uidmap.message).toContain('sysctl');
  });

  it('runs unisolated (rlimits only) when allowed, warning on every run', async () => {
    const warnings: string[] = [];
    const ex = makeExecutor({ python: pythonOutsideUsr(), allowUnisolated: true, logger: { warn: (m) => warnings.push(m) } });
    const secret = `sekrit-${Date.now()}`;
    process.env.CODE_AGENT_TEST_SECRET = secret;
    try {
      const a = await ex.execute('import os\nprint(dict(os.environ))\nopen("x.txt", "w").write("1")\n');
      expect(a.success).toBe(true);
      expect(a.stdout).not.toContain(secret);
      expect(a.artifacts.map((x) => x.name)).toEqual(['x.txt']);
      const b = await ex.execute('import sys\nsys.exit(2)\n');
      expect(b.exitCode).toBe(2);
      const c = await ex.execute('while True:\n    pass\n', { limits: { wallTimeS: 1 } });
      expect(c).toMatchObject({ timedOut: true, limitHit: 'wall_time' });
    } finally {
      delete process.env.CODE_AGENT_TEST_SECRET;
    }
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/WITHOUT isolation/);
  });
});

describe('sandbox work root', () => {
  it('explains a work root the sandbox uid cannot reach', () => {
    const e = explainProbeFailure("bwrap: Can't find source path /root/x/run-1: Permission denied", '/usr/bin/python3');
    expect(e.message).toMatch(/work root/);
  });

  it('refuses a work root inside a private folder, saying why', async () => {
    const priv = tempDir('sandbox-private-');
    chmodSync(priv, 0o700);
    const ex = makeExecutor({ workRoot: join(priv, 'root') });
    const err = await ex.execute('pass').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxUnavailableError);
    expect((err as Error).message).toMatch(/work root/);
  });
});
