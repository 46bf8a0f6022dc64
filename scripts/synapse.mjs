// The tests' Matrix homeserver: Synapse from PyPI, in a virtualenv of its own that `npm run setup`
// makes (Debian's python3 and python3-venv) from scripts/synapse-requirements.txt, every package
// pinned with its sha256. test/helpers/synapse.ts starts it from there. Plain ES module: setup runs
// it before anything is built.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The matrix-synapse release the requirements pin (scripts/synapse-lock.mjs writes them from it). */
export const SYNAPSE_VERSION = '1.163.2';

/** The pinned requirements, with hashes. */
export const requirementsFile = join(dirname(fileURLToPath(import.meta.url)), 'synapse-requirements.txt');

/** Where the virtualenvs live unless `CODE_AGENT_SYNAPSE_DIR` says otherwise (machine-wide, like the sandbox's wheels). */
export const DEFAULT_SYNAPSE_DIR = '/usr/local/lib/code-agent/synapse';

/** Written last into a finished virtualenv. */
const COMPLETE_MARKER = '.code-agent-complete';

/**
 * The virtualenv for the current requirements: `<dir>/matrix-synapse-<version>-<12 hex of the
 * requirements' sha256>`, `<dir>` being `$CODE_AGENT_SYNAPSE_DIR` or {@link DEFAULT_SYNAPSE_DIR}.
 * A changed pin gets a new folder. It may not exist yet.
 */
export function synapseVenv(env = process.env) {
  const key = createHash('sha256').update(readFileSync(requirementsFile)).digest('hex').slice(0, 12);
  return join(env.CODE_AGENT_SYNAPSE_DIR?.trim() || DEFAULT_SYNAPSE_DIR, `matrix-synapse-${SYNAPSE_VERSION}-${key}`);
}

/** The virtualenv's python when setup finished installing Synapse into it, else undefined. */
export function synapsePython(env = process.env) {
  const venv = synapseVenv(env);
  return existsSync(join(venv, COMPLETE_MARKER)) ? join(venv, 'bin', 'python') : undefined;
}

/**
 * Makes the virtualenv unless a finished one is there: a fresh venv (with Debian's bundled pip),
 * then pip installs the requirements, binary wheels only, hashes required, no resolving.
 * @param log progress lines
 * @returns `{ venv, installed }`: installed is false when it was already there
 * @throws when the folder cannot be written, or venv or pip fails (the half-made venv is removed)
 */
export function installSynapse(log, env = process.env) {
  const venv = synapseVenv(env);
  if (synapsePython(env)) return { venv, installed: false };
  const parent = dirname(venv);
  const writable = spawnSync('sh', ['-c', 'mkdir -p "$1" 2>/dev/null && test -w "$1"', 'sh', parent]).status === 0;
  if (!writable) {
    throw new Error(`cannot write ${parent} (the tests' Synapse): run setup as root, or set CODE_AGENT_SYNAPSE_DIR to a folder you can write`);
  }
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  const python = join(venv, 'bin', 'python');
  try {
    log(`python3 -m venv ${venv}`);
    execFileSync('/usr/bin/python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    log(`pip install matrix-synapse==${SYNAPSE_VERSION} and its pinned dependencies (hashes checked)`);
    execFileSync(python, [
      '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input',
      '--no-deps', '--only-binary=:all:', '--require-hashes', '-r', requirementsFile,
    ], { stdio: 'inherit' });
    const version = execFileSync(python, ['-c', 'import synapse; print(synapse.__version__)'], { encoding: 'utf8' }).trim();
    if (version !== SYNAPSE_VERSION) throw new Error(`installed Synapse says it is ${version}, not ${SYNAPSE_VERSION}`);
    writeFileSync(join(venv, COMPLETE_MARKER), `matrix-synapse==${SYNAPSE_VERSION}\n`, { mode: 0o644 });
    return { venv, installed: true };
  } catch (err) {
    rmSync(venv, { recursive: true, force: true });
    throw err;
  }
}
