/**
 * The isolation check run on first use: are bubblewrap, prlimit (and setpriv as root) there,
 * and can bwrap create user namespaces here? On failure the error says why and how to fix it.
 */
import { access, constants as fsc } from 'node:fs/promises';
import type { SandboxTools } from './bwrap-args.js';
import { SandboxUnavailableError } from './types.js';

/** Where the helper programs are looked for, in order. */
export const TOOL_DIRS = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin'];

const HOW_TO_FIX_USERNS =
  'enable unprivileged user namespaces: `sysctl -w kernel.unprivileged_userns_clone=1` (Debian/Ubuntu) ' +
  'or `sysctl -w user.max_user_namespaces=15000`; in a container, allow them (e.g. docker ' +
  '--security-opt seccomp=unconfined, or run with --privileged); on Ubuntu 24.04+ also ' +
  '`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`';

/** @returns the first executable `name` in {@link TOOL_DIRS}, or null. */
export async function findTool(name: string): Promise<string | null> {
  for (const dir of TOOL_DIRS) {
    const path = `${dir}/${name}`;
    try {
      await access(path, fsc.X_OK);
      return path;
    } catch {
      /* next */
    }
  }
  return null;
}

/**
 * Finds the helper programs.
 * @throws {SandboxUnavailableError} naming the missing one and the package that provides it
 */
export async function findTools(): Promise<SandboxTools> {
  const [bwrap, prlimit, setpriv] = await Promise.all([findTool('bwrap'), findTool('prlimit'), findTool('setpriv')]);
  if (bwrap === null) {
    throw new SandboxUnavailableError(
      'bubblewrap (bwrap) is not installed, so untrusted code cannot be isolated. ' +
        'Fix: `apt-get install bubblewrap` (Debian/Ubuntu) or `dnf install bubblewrap`.',
    );
  }
  if (prlimit === null || setpriv === null) {
    throw new SandboxUnavailableError(
      `${prlimit === null ? 'prlimit' : 'setpriv'} is not installed; it sets the sandbox limits. ` +
        'Fix: `apt-get install util-linux`.',
    );
  }
  return { bwrap, prlimit, setpriv };
}

/**
 * Explains why the self-test (a `pass` program run through the real command line) failed.
 * @param output what the self-test printed (bwrap's own words end up on stderr)
 * @returns the error to throw, with why and how to fix it
 */
export function explainProbeFailure(output: string, python: string): SandboxUnavailableError {
  const said = output.trim().split('\n').slice(-3).join(' / ') || 'no output';
  if (/Can't find source path|Can't (mount|bind)/i.test(said)) {
    return new SandboxUnavailableError(
      `bubblewrap cannot reach the work root (${said}). Fix: choose a work root whose parent folders ` +
        'are traversable by other users (e.g. `chmod o+x` on each), or leave it unset to use the OS temp dir.',
    );
  }
  if (/namespace|uid map|Operation not permitted|Permission denied|setting up|clone/i.test(said)) {
    return new SandboxUnavailableError(
      `bubblewrap cannot create its namespaces here (${said}). Fix: ${HOW_TO_FIX_USERNS}.`,
    );
  }
  if (/No such file|execvp/i.test(said)) {
    return new SandboxUnavailableError(
      `the sandbox could not start ${python} (${said}). The interpreter must live under /usr ` +
        '(only /usr is visible inside): `apt-get install python3`, or set sandbox.python.',
    );
  }
  return new SandboxUnavailableError(`the sandbox self-test failed (${said}).`);
}
