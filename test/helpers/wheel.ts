/**
 * A tiny pure-Python wheel built on the spot (no network): the operator-package tests install it
 * with the real pip, as `npm run setup` installs a `sandbox.python_packages` pin.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installWheels } from '../../src/sandbox/python-install.js';
import { pythonSiteDirs } from '../../src/sandbox/python-packages.js';

/** A built wheel: its folder (for `--find-links`), its pin with the hash, and the value it prints. */
export interface TinyWheel {
  dir: string;
  pin: string;
  /** What `import <name>; print(<name>.GREETING)` prints. */
  greeting: string;
}

/** Builds `<name>-<version>-py3-none-any.whl` (a module `<name>` with `GREETING`) with Python's zipfile. */
export function buildTinyWheel(name: string, version: string): TinyWheel {
  const dir = mkdtempSync(join(tmpdir(), 'wheel-'));
  const greeting = `hello from ${name} ${version}`;
  const script = `
import base64, hashlib, sys, zipfile
name, version, greeting, out = sys.argv[1:5]
files = {
    f"{name}/__init__.py": f"GREETING = {greeting!r}\\n__version__ = {version!r}\\n",
    f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n",
    f"{name}-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    f"{name}-{version}.dist-info/top_level.txt": f"{name}\\n",
}
record = []
for path, text in files.items():
    data = text.encode()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record.append(f"{path},sha256={digest},{len(data)}")
record.append(f"{name}-{version}.dist-info/RECORD,,")
files[f"{name}-{version}.dist-info/RECORD"] = "\\n".join(record) + "\\n"
with zipfile.ZipFile(f"{out}/{name}-{version}-py3-none-any.whl", "w") as z:
    for path, text in files.items():
        z.writestr(path, text)
`;
  execFileSync('/usr/bin/python3', ['-c', script, name, version, greeting, dir]);
  const sha = createHash('sha256').update(readFileSync(join(dir, `${name}-${version}-py3-none-any.whl`))).digest('hex');
  return { dir, pin: `${name}==${version} --hash=sha256:${sha}`, greeting };
}

/**
 * A fresh python dir (`CODE_AGENT_PYTHON_DIR`, readable by the sandbox's uids) with `wheel`
 * installed as the operator's pins, the way setup does it.
 * @returns the environment variables that point an executor or the CLI at it
 */
export async function installOperatorWheel(wheel: TinyWheel): Promise<Record<string, string>> {
  const root = mkdtempSync(join(tmpdir(), 'python-dir-'));
  chmodSync(root, 0o755);
  const env = { CODE_AGENT_PYTHON_DIR: root };
  const dirs = pythonSiteDirs([wheel.pin], env);
  await installWheels({ lines: [wheel.pin], target: dirs.extra!, pipArgs: ['--no-index', '--find-links', wheel.dir] });
  return env;
}
