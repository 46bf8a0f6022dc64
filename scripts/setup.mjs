#!/usr/bin/env node
// `npm run setup`: idempotent. Makes sure the system parts exist (Debian bubblewrap, python3 and the
// sandbox's Python libraries), installs npm packages from the lock when they are missing or stale,
// and builds. As root it installs missing Debian packages with apt-get; otherwise it prints the
// exact command and exits 1.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = '/usr/bin/python3';
/** Debian package → how we check it is there. */
const SYSTEM_PARTS = [
  { pkg: 'bubblewrap', ok: () => existsSync('/usr/bin/bwrap') },
  { pkg: 'mount', ok: () => existsSync('/usr/bin/mount') || existsSync('/bin/mount') }, // the sandbox's tmpfs work dir
  { pkg: 'python3', ok: () => existsSync(PYTHON) },
  ...['numpy', 'pandas', 'matplotlib', 'scipy', 'sympy'].map((mod) => ({
    pkg: `python3-${mod}`,
    ok: () => existsSync(PYTHON) && spawnSync(PYTHON, ['-c', `import ${mod}`], { stdio: 'ignore' }).status === 0,
  })),
];

function step(text) {
  process.stdout.write(`[setup] ${text}\n`);
}

function run(cmd, args, env = process.env) {
  step(`${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env });
}

function ensureSystemParts() {
  const missing = SYSTEM_PARTS.filter((p) => !p.ok()).map((p) => p.pkg);
  if (missing.length === 0) {
    step('system parts present: bubblewrap, python3 and its sandbox libraries');
    return;
  }
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    process.stderr.write(`[setup] missing Debian packages: ${missing.join(', ')}\n[setup] run as root:\n  sudo sh -c '${command}'\n`);
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], env);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], env);
  const still = SYSTEM_PARTS.filter((p) => !p.ok()).map((p) => p.pkg);
  if (still.length > 0) {
    process.stderr.write(`[setup] still missing after apt-get: ${still.join(', ')}\n`);
    process.exit(1);
  }
}

function ensureNodeModules() {
  const lock = join(root, 'package-lock.json');
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) {
    step('npm packages up to date with package-lock.json');
    return;
  }
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

ensureSystemParts();
ensureNodeModules();
run('npm', ['run', '--silent', 'build']);
step('done. Configure an LLM (README: "Choosing an LLM"), then try: npx code-agent run "generate 100 random numbers and print their mean and standard deviation"');
