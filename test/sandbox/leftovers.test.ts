/** What a program leaves behind: nothing on the host, whatever names or depths it uses. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeExecutor, tempDir } from './helpers.js';

describe('sandbox leftovers', () => {
  it('removes a work dir nested deeper than PATH_MAX and with non-UTF-8 names', async () => {
    const workRoot = tempDir('sandbox-root-');
    const ex = makeExecutor({ workRoot });
    const r = await ex.execute(
      [
        'import os',
        "open(b'\\xff\\xfe.bin', 'wb').write(b'x' * 1000)",
        "n = 'a' * 250",
        'for i in range(20):',
        '    os.mkdir(n); os.chdir(n)',
        "open('deep.bin', 'wb').write(b'y' * 100000)",
        "print('ok')",
      ].join('\n'),
      { artifactDir: tempDir() },
    );
    expect(r.stdout).toBe('ok\n');
    await ex.settled(); // the teardown ends after the result
    const left = readdirSync(workRoot).filter((e) => e.startsWith('run-'));
    expect(left).toEqual([]);
  });

  it('returns one of two files whose names clean to the same path, without failing', async () => {
    const ex = makeExecutor();
    const dest = tempDir();
    const r = await ex.execute(
      "import os\nos.mkdir('a b')\nopen('a b/c', 'w').write('1')\nopen('a_b', 'w').write('2')\nopen('ok.txt', 'w').write('3')",
      { artifactDir: dest },
    );
    expect(r.success).toBe(true);
    const names = r.artifacts.map((a) => a.name).sort();
    expect(names).toContain('ok.txt');
    expect(names.filter((n) => n === 'a_b' || n === 'a_b/c')).toHaveLength(1);
  });

  it('does not show the host name', async () => {
    const r = await makeExecutor().execute('import socket\nprint(socket.gethostname())');
    expect(r.stdout).toBe('sandbox\n');
  });
});

describe('sandbox memory outside the address-space limit', () => {
  it('refuses SysV shared memory and memfd (they would escape RLIMIT_AS)', async () => {
    const r = await makeExecutor().execute(
      [
        'import ctypes, os',
        'libc = ctypes.CDLL(None, use_errno=True)',
        'sid = libc.shmget(0, ctypes.c_size_t(64 * 1024 * 1024), 0o1600)',
        "print('shmget', sid, ctypes.get_errno())",
        'try:',
        "    os.memfd_create('x')",
        "    print('memfd ok')",
        'except OSError as e:',
        "    print('memfd', e.errno)",
      ].join('\n'),
    );
    expect(r.stdout).toBe('shmget -1 1\nmemfd 1\n');
  });
});

describe('sandbox disk guard', () => {
  it('counts files whose names are not UTF-8', async () => {
    const ex = makeExecutor();
    const MIB = 1024 * 1024;
    const r = await ex.execute(
      'i = 0\nwhile True:\n    open(b"\\xff\\xfe%d" % i, "wb").write(b"x" * 1000000)\n    i += 1\n',
      { limits: { maxFileBytes: MIB, maxArtifacts: 2, maxArtifactBytes: MIB, wallTimeS: 15, cpuTimeS: 15 }, artifactDir: tempDir() },
    );
    expect(r).toMatchObject({ success: false, limitHit: 'work_dir_bytes', timedOut: false });
    expect(r.stderr).toContain('bytes written to the work dir');
  });
});
