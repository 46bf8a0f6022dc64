/** The Python folders in the command line: read-only binds, and the runner told where they are. */
import { describe, expect, it } from 'vitest';
import { buildCommand } from '../../src/sandbox/bwrap-args.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/executor.js';

const tools = { prlimit: '/usr/bin/prlimit', setpriv: '/usr/bin/setpriv', bwrap: '/usr/bin/bwrap' };
const spec = { tools, python: '/usr/bin/python3', runnerPath: '/src/runner.py', workDir: '/tmp/w', limits: DEFAULT_LIMITS, hostId: 200123 };
const pythonDirs = { wheels: '/py/wheels-abc', extra: '/py/extra-def', fontCache: '/tmp/ca-1/mpl' };

describe('Python folders in the sandbox command', () => {
  it('binds each read-only (never read-write) and passes the sandbox paths to the runner, operator’s first', () => {
    const [, args] = buildCommand({ ...spec, isolated: true, pythonDirs });
    const line = args.join(' ');
    expect(line).toContain('--ro-bind /py/extra-def /opt/code-agent/extra');
    expect(line).toContain('--ro-bind /py/wheels-abc /opt/code-agent/site');
    expect(line).toContain('--ro-bind /tmp/ca-1/mpl /opt/code-agent/mpl');
    for (const host of Object.values(pythonDirs)) {
      expect(args.filter((a, i) => a === host && args[i - 1] === '--bind')).toEqual([]);
    }
    expect(line).toMatch(/--path \/opt\/code-agent\/extra --path \/opt\/code-agent\/site --font-cache \/opt\/code-agent\/mpl/);
    // the binds come before `--remount-ro /` and the work dir stays the only read-write bind
    expect(args.indexOf('/opt/code-agent/site')).toBeLessThan(args.lastIndexOf('--remount-ro'));
    expect(args.filter((a) => a === '--bind')).toHaveLength(1);
  });

  it('none of it without folders; host paths when unisolated', () => {
    const [, plain] = buildCommand({ ...spec, isolated: true });
    expect(plain.join(' ')).not.toMatch(/code-agent\/(site|extra|mpl)|--path|--font-cache/);
    const [, unisolated] = buildCommand({ ...spec, isolated: false, pythonDirs });
    expect(unisolated.join(' ')).toMatch(/--path \/py\/extra-def --path \/py\/wheels-abc --font-cache \/tmp\/ca-1\/mpl/);
  });
});
