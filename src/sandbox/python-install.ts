/**
 * Installs pinned wheels into a site dir (`npm run setup` calls this for the default wheels and the
 * operator's `sandbox.python_packages`). pip of the sandbox's own interpreter (Debian's
 * python3-pip: `/usr/bin/python3 -m pip`) installs with `--target` into a fresh folder, binary
 * wheels only, no dependencies (every package is pinned by itself), hashes required when every
 * line has one; the folder is made world-readable (sandbox uids read it) and renamed into place
 * when complete, so a run never sees a half-installed one.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COMPLETE_MARKER } from './python-packages.js';

/** Options of {@link installWheels}. */
export interface InstallOptions {
  /** pip requirement lines (`name==version [--hash=sha256:…]`). */
  lines: readonly string[];
  /** The site dir to create (its parent is created when missing). */
  target: string;
  /** The interpreter whose pip installs. Default `/usr/bin/python3`. */
  python?: string;
  /** More pip options, e.g. `['--no-index', '--find-links', dir]` to install from local files. */
  pipArgs?: readonly string[];
  /** Progress lines. */
  log?: (line: string) => void;
}

/** pip failed; the message has pip's own last lines. */
export class PythonInstallError extends Error {
  override name = 'PythonInstallError';
}

/**
 * Installs `lines` into `target` unless a finished install is there.
 * @returns true when it installed, false when `target` was already complete
 * @throws {PythonInstallError} when pip fails (nothing is left at `target`)
 */
export async function installWheels(options: InstallOptions): Promise<boolean> {
  const { lines, target } = options;
  if (existsSync(join(target, COMPLETE_MARKER))) return false;
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  const staging = `${target}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o755 });
  const requirements = `${staging}.txt`;
  writeFileSync(requirements, `${lines.join('\n')}\n`);
  const hashes = lines.every((l) => l.includes('--hash='));
  const args = [
    '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input',
    '--target', staging, '--no-deps', '--only-binary=:all:',
    ...(hashes ? ['--require-hashes'] : []),
    ...(options.pipArgs ?? []),
    '-r', requirements,
  ];
  options.log?.(`pip install --target ${target} ${lines.map((l) => l.split(' ')[0]).join(' ')}${hashes ? ' (hashes checked)' : ''}`);
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(options.python ?? '/usr/bin/python3', args, { maxBuffer: 16 << 20 }, (err, _out, stderr) => {
        if (!err) return resolve();
        const tail = stderr.trim().split('\n').slice(-6).join('\n');
        reject(new PythonInstallError(`pip could not install ${lines.map((l) => l.split(' ')[0]).join(', ')}: ${tail || err.message}`));
      });
    });
    makeReadable(staging);
    writeFileSync(join(staging, COMPLETE_MARKER), `${lines.join('\n')}\n`, { mode: 0o644 });
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return true;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(requirements, { force: true });
  }
}

/** a+rX on a tree: the sandbox runs as another uid than the one that installed. */
function makeReadable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) makeReadable(path);
    else chmodSync(path, statSync(path).mode | 0o444);
  }
}
