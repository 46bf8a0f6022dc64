/**
 * `sandbox.python_packages`: the operator's pins installed the way `npm run setup` does (the real
 * pip, hashes checked) into their own site dir, importable in the sandbox; a pin that is missing or
 * another version stops the executor's check with the pin named; a wrong hash installs nothing.
 * No network: the wheel is built here.
 */
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installWheels, PythonInstallError } from '../../src/sandbox/python-install.js';
import { COMPLETE_MARKER, pythonSiteDirs } from '../../src/sandbox/python-packages.js';
import { SandboxUnavailableError } from '../../src/sandbox/types.js';
import { buildTinyWheel, installOperatorWheel } from '../helpers/wheel.js';
import { makeExecutor } from './helpers.js';

const LIMITS = { wallTimeS: 60, cpuTimeS: 60 };
const saved = process.env.CODE_AGENT_PYTHON_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.CODE_AGENT_PYTHON_DIR;
  else process.env.CODE_AGENT_PYTHON_DIR = saved;
});

describe('operator packages', () => {
  it('an installed pin imports in the sandbox and the probe lists it', async () => {
    const wheel = buildTinyWheel('tinyopkg', '1.2.0');
    Object.assign(process.env, await installOperatorWheel(wheel));
    const ex = makeExecutor({ limits: LIMITS, pythonPackages: [wheel.pin] });
    await ex.check();
    const env = await ex.environment();
    expect(env.pins).toEqual([{ pin: wheel.pin, name: 'tinyopkg', version: '1.2.0', modules: ['tinyopkg'] }]);
    expect(env.siteDirs.extraReady).toBe(true);
    const r = await ex.execute('import tinyopkg, sys\nprint(tinyopkg.GREETING)\nprint(tinyopkg.__file__)');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${wheel.greeting}\n/opt/code-agent/extra/tinyopkg/__init__.py\n`);
  });

  it('a pin that was never installed stops the check, naming it and what to do', async () => {
    process.env.CODE_AGENT_PYTHON_DIR = mkdtempSync(join(tmpdir(), 'python-dir-'));
    const ex = makeExecutor({ limits: LIMITS, pythonPackages: ['notthere==0.1'] });
    const err = await ex.check().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxUnavailableError);
    expect((err as Error).message).toMatch(/sandbox\.python_packages: notthere==0\.1: not installed\. Run `npm run setup`/);
  });

  it('another version than the pin counts as broken, saying which is there', async () => {
    const wheel = buildTinyWheel('tinyvpkg', '2.0.0');
    const root = mkdtempSync(join(tmpdir(), 'python-dir-'));
    chmodSync(root, 0o755);
    process.env.CODE_AGENT_PYTHON_DIR = root;
    // 2.0.0 installed where the 2.0.1 pin is looked for (a folder changed by hand)
    const target = pythonSiteDirs(['tinyvpkg==2.0.1']).extra!;
    await installWheels({ lines: [wheel.pin], target, pipArgs: ['--no-index', '--find-links', wheel.dir] });
    const ex = makeExecutor({ limits: LIMITS, pythonPackages: ['tinyvpkg==2.0.1'] });
    await expect(ex.check()).rejects.toThrow(/tinyvpkg==2\.0\.1: version 2\.0\.0 is installed, not 2\.0\.1/);
  });

  it('a wrong hash installs nothing', async () => {
    const wheel = buildTinyWheel('tinyhpkg', '1.0.0');
    const root = mkdtempSync(join(tmpdir(), 'python-dir-'));
    const bad = `tinyhpkg==1.0.0 --hash=sha256:${'0'.repeat(64)}`;
    const target = pythonSiteDirs([bad], { CODE_AGENT_PYTHON_DIR: root }).extra!;
    const err = await installWheels({ lines: [bad], target, pipArgs: ['--no-index', '--find-links', wheel.dir] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PythonInstallError);
    expect((err as Error).message).toMatch(/HASHES|hash/i);
    expect(existsSync(join(target, COMPLETE_MARKER))).toBe(false);
    expect(existsSync(target)).toBe(false);
  });
});
