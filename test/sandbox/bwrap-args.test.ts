/** The shape of the sandbox command line, read in one place. */
import { describe, expect, it } from 'vitest';
import { buildCommand, SANDBOX_ENV } from '../../src/sandbox/bwrap-args.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';

const tools = { prlimit: '/usr/bin/prlimit', setpriv: '/usr/bin/setpriv', bwrap: '/usr/bin/bwrap' };
const spec = { tools, python: '/usr/bin/python3', runnerPath: '/src/runner.py', workDir: '/tmp/w', limits: DEFAULT_LIMITS };

describe('sandbox command line', () => {
  it('sets rlimits, drops to an unprivileged uid, and isolates with bwrap', () => {
    const [file, args] = buildCommand({ ...spec, hostId: 200123, isolated: true });
    expect(file).toBe('/usr/bin/prlimit');
    const line = args.join(' ');
    expect(line).toContain(`--as=${512 * 1024 * 1024} --cpu=10:11 --nproc=64 --fsize=${16 * 1024 * 1024} --nofile=256 --core=0 --`);
    expect(line).toContain('/usr/bin/setpriv --reuid 200123 --regid 200123 --clear-groups --inh-caps=-all --');
    for (const opt of ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session',
      '--clearenv', '--cap-drop ALL', '--remount-ro /', '--ro-bind /usr /usr', '--bind /tmp/w /work']) {
      expect(line).toContain(opt);
    }
    expect(line).not.toMatch(/--share-net|--bind \/ /);
    expect(args.slice(-7)).toEqual(['/usr/bin/python3', '-S', '/opt/code-agent/runner.py', '--exit-hint-fd', '7', '--status-fd', '6']);
  });

  it('skips setpriv when not root, and bwrap in unisolated mode', () => {
    const [, args] = buildCommand({ ...spec, hostId: null, isolated: false, nprocOffset: 5 });
    expect(args).not.toContain('/usr/bin/setpriv');
    expect(args).not.toContain('/usr/bin/bwrap');
    expect(args).not.toContain('--exit-hint-fd'); // no pid namespace to find the program in: the supervisor's status only
    expect(args).toContain('--nproc=69');
  });

  it('leaves memory to the run cgroup (no RLIMIT_AS) and keeps RLIMIT_NPROC above pids.max', () => {
    const [, args] = buildCommand({ ...spec, hostId: 200123, isolated: true, cgroup: true });
    expect(args.join(' ')).not.toContain('--as=');
    expect(args).toContain('--nproc=72');
  });

  it('leaves the rlimits to the job in a job mode (no prlimit), and runs compiled bytecode when given', () => {
    for (const jobMode of ['pool', 'job'] as const) {
      const [file, args] = buildCommand({ ...spec, runnerPath: '/srv/run/runner.pyc', hostId: 200123, isolated: true, cgroup: true, jobMode });
      expect(file).toBe('/usr/bin/setpriv');
      expect(args.join(' ')).not.toMatch(/prlimit|--nproc|--cpu=/);
      expect(args.join(' ')).toContain('--ro-bind /srv/run/runner.pyc /opt/code-agent/runner.pyc');
      expect(args.slice(-11)).toEqual(['-S', '/opt/code-agent/runner.pyc', '--checks-fd', '4', '--report-fd', '5', '--exit-hint-fd', '7', '--status-fd', '6', `--${jobMode}`]);
    }
  });

  it('builds the environment from nothing', () => {
    expect(Object.keys(SANDBOX_ENV).sort()).toEqual(
      ['HOME', 'LANG', 'LC_ALL', 'MALLOC_ARENA_MAX', 'MKL_NUM_THREADS', 'MPLBACKEND', 'MPLCONFIGDIR', 'OMP_NUM_THREADS',
        'OPENBLAS_NUM_THREADS', 'PATH', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'PYTHONUNBUFFERED'],
    );
  });
});
