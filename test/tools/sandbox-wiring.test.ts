/** How the sandbox's command line carries the tools: a read-only bind of the broker's folder, no network. */
import { describe, expect, it } from 'vitest';
import { buildCommand, SANDBOX_TOOLS_DIR, SANDBOX_TOOLS_PACKAGE_DIR } from '../../src/sandbox/bwrap-args.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/executor.js';

const spec = {
  tools: { prlimit: '/usr/bin/prlimit', bwrap: '/usr/bin/bwrap', setpriv: '/usr/bin/setpriv' },
  python: '/usr/bin/python3',
  runnerPath: '/x/runner.py',
  workDir: '/x/run-1',
  limits: DEFAULT_LIMITS,
  hostId: null,
  isolated: true,
};

describe('the sandbox command with tools', () => {
  it('binds the slot folder read-only, tells the runner where it is, and keeps every namespace new', () => {
    const [, args] = buildCommand({ ...spec, toolsDir: '/x/run-1.tools', pythonDirs: { tools: '/x/pylib' } });
    const at = args.indexOf('/x/run-1.tools');
    expect(args.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/x/run-1.tools', SANDBOX_TOOLS_DIR]);
    expect(args.slice(args.indexOf('/x/pylib') - 1, args.indexOf('/x/pylib') + 2)).toEqual(['--ro-bind', '/x/pylib', SANDBOX_TOOLS_PACKAGE_DIR]);
    expect(args.slice(args.indexOf('--tools-dir'), args.indexOf('--tools-dir') + 2)).toEqual(['--tools-dir', SANDBOX_TOOLS_DIR]);
    expect(args).toContain('--unshare-all');
    expect(args).not.toContain('--share-net');
    expect(args.filter((a) => a === '--bind')).toHaveLength(1); // the work dir only is writable
  });

  it('without a tools folder there is no bind and no --tools-dir', () => {
    const [, args] = buildCommand(spec);
    expect(args).not.toContain('--tools-dir');
    expect(args).not.toContain(SANDBOX_TOOLS_DIR);
  });
});
