#!/usr/bin/env node
// `npm run setup`: idempotent. Makes sure the system parts exist (Debian bubblewrap, python3 and the
// sandbox's Python libraries), installs npm packages from the lock when they are missing or stale,
// removes node-llama-cpp binaries this machine cannot use, builds, and fetches the default local
// model into the user cache. As root it installs missing Debian packages with apt-get; otherwise it
// prints the exact command and exits 1.
//
// The sandbox's Python environment (README "The sandbox's Python"): Debian's python3 with the data
// packages and fonts (apt-get), then, after the build, the pinned wheels Debian lacks and the
// operator's `sandbox.python_packages`, installed with Debian's pip into read-only site dirs
// (src/sandbox/python-packages.ts says where; `CODE_AGENT_PYTHON_DIR` chooses another place).
//
// The tests' Matrix homeserver: Synapse from PyPI, pinned with hashes, in a virtualenv of its own
// (python3-venv; scripts/synapse.mjs says where; `CODE_AGENT_SYNAPSE_DIR` chooses another place).
//
// Flags (after `npm run setup --`), or the environment:
//   --gpu[=cuda|vulkan|all]  / CODE_AGENT_GPU   keep node-llama-cpp's GPU builds (default: CUDA only
//                                               when an NVIDIA driver is loaded; none otherwise)
//   --no-model               / CODE_AGENT_SETUP_MODEL=none   do not fetch the default local model
//   --config=F               / CODE_AGENT_CONFIG   the config whose sandbox.python_packages to install (default config.yaml)
//   --no-synapse             / CODE_AGENT_SETUP_SYNAPSE=none   do not install the tests' Synapse
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchDefaultModel } from './default-model.mjs';
import { unusableBinaries, wantedGpu } from './llama-binaries.mjs';
import { debianFonts, debianModules } from './python-parts.mjs';
import { installSynapse } from './synapse.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run setup [-- FLAGS]
  --gpu[=cuda|vulkan|all]  keep node-llama-cpp's GPU builds (CODE_AGENT_GPU)
  --no-model               do not fetch the default local model (CODE_AGENT_SETUP_MODEL=none)
  --no-synapse             do not install the tests' Synapse (CODE_AGENT_SETUP_SYNAPSE=none)
  --config=F               the config whose sandbox.python_packages to install (CODE_AGENT_CONFIG; default config.yaml)`;
// a mistyped flag (say --no-models) must not go on to download 1.1 GB: only the flags above are taken
const KNOWN_FLAG = /^--(gpu(=(cuda|vulkan|all))?|no-model|no-synapse|config=.+)$/;
const flags = process.argv.slice(2);
if (flags.some((f) => f === '--help' || f === '-h')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = flags.filter((f) => !KNOWN_FLAG.test(f));
if (unknown.length) {
  console.error(`setup: unknown flag ${unknown.join(', ')}\n${USAGE}`);
  process.exit(2);
}
const PYTHON = '/usr/bin/python3';
const SYNAPSE = !process.argv.includes('--no-synapse') && !['none', '0', 'no'].includes(process.env.CODE_AGENT_SETUP_SYNAPSE ?? '');
/** Debian package → how we check it is there. */
const SYSTEM_PARTS = [
  { pkg: 'bubblewrap', ok: () => existsSync('/usr/bin/bwrap') },
  { pkg: 'mount', ok: () => existsSync('/usr/bin/mount') || existsSync('/bin/mount') }, // the sandbox's tmpfs work dir
  { pkg: 'python3', ok: () => existsSync(PYTHON) },
  // systemd-analyze: the tests verify deploy/code-agent-slack.service with it
  { pkg: 'systemd', ok: () => existsSync('/usr/bin/systemd-analyze') },
  // the sandbox's data packages (the Debian part of DEFAULT_MODULES), Debian's pip for the wheels, fonts
  ...debianModules(root).map(({ module, debian }) => ({
    pkg: debian,
    ok: () => existsSync(PYTHON) && spawnSync(PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0,
  })),
  { pkg: 'python3-pip', ok: () => existsSync(PYTHON) && spawnSync(PYTHON, ['-m', 'pip', '--version'], { stdio: 'ignore' }).status === 0 },
  ...debianFonts(root).map((pkg) => ({ pkg, ok: () => dpkgInstalled(pkg) })),
  // queue mode and the shared history stores: the tests start their own servers on free ports
  { pkg: 'redis-server', ok: () => existsSync('/usr/bin/redis-server') },
  { pkg: 'postgresql', ok: () => postgresInstalled() },
  // the virtualenv of the tests' Synapse (Matrix homeserver)
  ...(SYNAPSE ? [{ pkg: 'python3-venv', ok: () => dpkgInstalled('python3-venv') }] : []),
];

/** True when dpkg has `pkg` installed. */
function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** True when some /usr/lib/postgresql/<version>/bin/postgres exists (Debian's layout). */
function postgresInstalled() {
  const dir = '/usr/lib/postgresql';
  return existsSync(dir) && readdirSync(dir).some((v) => existsSync(join(dir, v, 'bin', 'postgres')));
}

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
    step(`system parts present: bubblewrap, python3 with its sandbox packages and fonts, redis-server, postgresql, systemd-analyze${SYNAPSE ? ', python3-venv' : ''}`);
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

const BINARIES = join(root, 'node_modules', '@node-llama-cpp');

/** GPU builds asked for whose package is not installed (removed by an earlier setup without --gpu). */
function missingGpuBuilds(gpu) {
  if (gpu.length === 0 || !existsSync(BINARIES)) return false;
  const own = `${process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  return gpu.some((g) => !readdirSync(BINARIES).some((n) => n.startsWith(`${own}-${g}`)));
}

function ensureNodeModules(gpu) {
  const lock = join(root, 'package-lock.json');
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs && !missingGpuBuilds(gpu)) {
    step('npm packages up to date with package-lock.json');
    return;
  }
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function pruneLlamaBinaries(gpu) {
  if (!existsSync(BINARIES)) return;
  const remove = unusableBinaries(readdirSync(BINARIES), { platform: process.platform, arch: process.arch, gpu });
  for (const name of remove) rmSync(join(BINARIES, name), { recursive: true, force: true });
  if (remove.length) {
    step(`removed node-llama-cpp builds this machine does not use: ${remove.join(', ')} (GPU builds: npm run setup -- --gpu)`);
  }
}

/**
 * The wheels Debian lacks (pyarrow) and the operator's `sandbox.python_packages` (config.yaml, or
 * `--config F`/`CODE_AGENT_CONFIG`), each into its site dir, from the build (dist/).
 */
async function installPythonWheels() {
  const dist = (p) => import(join(root, 'dist', 'src', ...p.split('/')));
  const { loadConfig } = await dist('config/load.js');
  const { DEFAULT_WHEELS, pythonSiteDirs, siteDirReady } = await dist('sandbox/python-packages.js');
  const { installWheels } = await dist('sandbox/python-install.js');
  const configArg = process.argv.find((a) => a.startsWith('--config='))?.slice('--config='.length);
  const config = await loadConfig(configArg);
  const pins = config.sandbox.python_packages;
  const dirs = pythonSiteDirs(pins);
  if (Object.values(dirs).every((d) => siteDirReady(d))) {
    step(`sandbox Python packages present: ${Object.values(dirs).join(', ')}`);
    return;
  }
  const parent = dirname(dirs.wheels);
  const writable = spawnSync('sh', ['-c', `mkdir -p "$1" 2>/dev/null && test -w "$1"`, 'sh', parent]).status === 0;
  if (!writable) {
    process.stderr.write(`[setup] cannot write ${parent} (the sandbox's Python packages): run setup as root, or set CODE_AGENT_PYTHON_DIR to a folder every user can read\n`);
    process.exit(1);
  }
  const t0 = Date.now();
  const log = (line) => step(line);
  const done = [];
  try {
    done.push(await installWheels({ lines: DEFAULT_WHEELS, target: dirs.wheels, log }));
    if (dirs.extra) done.push(await installWheels({ lines: pins, target: dirs.extra, log }));
  } catch (err) {
    process.stderr.write(`[setup] ${err.message}\n`);
    process.exit(1);
  }
  step(`sandbox Python packages installed in ${((Date.now() - t0) / 1000).toFixed(1)} s (${done.filter(Boolean).length} site dir(s)): ${Object.values(dirs).join(', ')}`);
}

/** Synapse for the Matrix tests, in its own virtualenv (scripts/synapse.mjs), unless --no-synapse. */
function ensureSynapse() {
  if (!SYNAPSE) return step("the tests' Synapse not installed (--no-synapse)");
  const t0 = Date.now();
  try {
    const { venv, installed } = installSynapse(step);
    step(installed ? `Synapse installed in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${venv}` : `Synapse present: ${venv}`);
  } catch (err) {
    process.stderr.write(`[setup] ${err.message}\n`);
    process.exit(1);
  }
}

function defaultModel() {
  const skip = process.argv.includes('--no-model') || ['none', '0', 'no'].includes(process.env.CODE_AGENT_SETUP_MODEL ?? '');
  if (skip) return step('default local model not fetched (--no-model)');
  return fetchDefaultModel(root, step).then(step);
}

const gpu = wantedGpu();
ensureSystemParts();
ensureNodeModules(gpu);
pruneLlamaBinaries(gpu);
run('npm', ['run', '--silent', 'build']);
await installPythonWheels();
ensureSynapse();
await defaultModel();
step('done. Try: npx code-agent run "implement quicksort and sort a sample list"');
