/** Attacks: each asserts the host is untouched AND the status is right. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExecutor, processesWith, sleep, tempDir, START_MODES } from './helpers.js';

describe.each(START_MODES)('sandbox attacks ($start)', ({ options }) => {
  const ex = makeExecutor(options);

  let server: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.end('hello from the host\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('cannot reach a TCP server on the host loopback', async () => {
    const r = await ex.execute(
      `import socket\ntry:\n    s = socket.create_connection(("127.0.0.1", ${port}), timeout=2)\n    print("CONNECTED", s.recv(100))\nexcept OSError as e:\n    print("blocked", e)\n    raise\n`,
    );
    expect(r.stdout).toContain('blocked');
    expect(r.stdout).not.toContain('CONNECTED');
    expect(r.success).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(connections).toBe(0);
  });

  it('has no network to the outside, and fails fast', async () => {
    const r = await ex.execute(
      'import socket\ns = socket.create_connection(("1.1.1.1", 53), timeout=3)\nprint("CONNECTED")\n',
    );
    expect(r.stdout).not.toContain('CONNECTED');
    expect(r.stderr).toMatch(/Network is unreachable|OSError/);
    expect(r).toMatchObject({ success: false, exitCode: 1, timedOut: false, limitHit: null });
    expect(r.durationMs).toBeLessThan(2000);
    const dns = await ex.execute('import socket\nsocket.getaddrinfo("example.com", 80)\n');
    expect(dns.success).toBe(false);
    expect(dns.durationMs).toBeLessThan(3000);
  });

  it('cannot read a secret from the parent environment', async () => {
    const secret = `sekrit-${Math.random().toString(36).slice(2)}`;
    process.env.CODE_AGENT_TEST_SECRET = secret;
    try {
      const r = await ex.execute(
        [
          'import os, glob',
          'print(dict(os.environ))',
          'for p in sorted(glob.glob("/proc/*/environ")) + ["/proc/1/environ", "/proc/self/environ"]:',
          '    try:',
          '        print(p, open(p, "rb").read())',
          '    except OSError as e:',
          '        print(p, "error", e)',
          'for p in ["/proc/1/cmdline", "/proc/self/cmdline"]:',
          '    print(p, open(p, "rb").read())',
        ].join('\n'),
      );
      expect(r.success).toBe(true);
      expect(r.stdout).toContain('/proc/1/environ');
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect(r.stdout).not.toContain('CODE_AGENT_TEST_SECRET');
    } finally {
      delete process.env.CODE_AGENT_TEST_SECRET;
    }
  });

  it('cannot write to /, /etc, /usr, /dev or the host home', async () => {
    const name = `sandbox-escape-${Date.now()}`;
    const targets = ['/', '/etc', '/usr', '/usr/lib', '/dev', homedir(), '/root', '/tmp/..', '/work/..'].map((d) =>
      join(d, name),
    );
    const r = await ex.execute(
      [
        'import sys',
        'failed = 0',
        `for p in ${JSON.stringify(targets)}:`,
        '    try:',
        '        open(p, "w").write("pwned")',
        '        print("wrote", p)',
        '    except OSError as e:',
        '        failed += 1',
        '        print("denied", p, e)',
        `sys.exit(0 if failed == ${targets.length} else 1)`,
      ].join('\n'),
    );
    for (const t of [...targets, join(tmpdir(), name)]) expect(existsSync(t)).toBe(false);
    expect(r.stdout).not.toContain('wrote');
    expect(r.success).toBe(true); // every write was denied
    expect(r.stdout).toContain('denied /usr/');
    expect(r.stdout).toContain('denied /etc/');
  });

  it('kills background children that outlive the program (setsid, double fork)', async () => {
    const marker = `${Math.floor(Math.random() * 1e6)}.4242`;
    const outside = mkdtempSync(join(tmpdir(), 'sandbox-marker-'));
    const code = [
      'import os, time',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork() == 0:',
      `        os.execv("/bin/sleep", ["sleep", "${marker}"])`,
      '    os._exit(0)',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork() == 0:',
      '        time.sleep(1.5)',
      '        open("late-marker.txt", "w").write("alive")',
      `        open("${outside}/late-marker.txt", "w").write("escaped")`,
      '        os._exit(0)',
      '    os._exit(0)',
      'time.sleep(0.3)',
      'print("parent done")',
    ].join('\n');
    const dir = tempDir();
    const r = await ex.execute(code, { artifactDir: dir });
    expect(r).toMatchObject({ success: true, stdout: 'parent done\n' });
    await sleep(2500);
    expect(processesWith(marker)).toEqual([]);
    expect(existsSync(join(dir, 'late-marker.txt'))).toBe(false);
    expect(existsSync(join(outside, 'late-marker.txt'))).toBe(false);
    rmSync(outside, { recursive: true });
  });

  it('skips an artifact that is a symlink to a host file and does not leak its content', async () => {
    const hostDir = mkdtempSync(join(tmpdir(), 'sandbox-host-'));
    const secretFile = join(hostDir, 'secret.txt');
    const secret = `host-secret-${Date.now()}`;
    writeFileSync(secretFile, secret, { mode: 0o644 });
    const dir = tempDir();
    const r = await ex.execute(
      [
        'import os',
        `os.symlink(${JSON.stringify(secretFile)}, "leak.txt")`,
        `os.symlink(${JSON.stringify(hostDir)}, "leakdir")`,
        'os.symlink("/etc/passwd", "passwd.txt")',
        'os.mkfifo("fifo")',
        'open("real.txt", "w").write("mine")',
      ].join('\n'),
      { artifactDir: dir },
    );
    expect(r.success).toBe(true);
    expect(r.artifacts.map((a) => a.name)).toEqual(['real.txt']);
    for (const a of r.artifacts) expect(readFileSync(a.path, 'utf8')).not.toContain(secret);
    expect(existsSync(join(dir, 'leak.txt'))).toBe(false);
    expect(readFileSync(secretFile, 'utf8')).toBe(secret);
    rmSync(hostDir, { recursive: true });
  });

  it('cannot fill host RAM through /tmp or /dev/shm (size-capped tmpfs)', async () => {
    const r = await ex.execute(
      [
        'import errno',
        'for d in ["/tmp", "/dev/shm"]:',
        '    try:',
        '        for i in range(20):',
        '            open(f"{d}/f{i}", "wb").write(b"x" * (15 * 1024 * 1024))',
        '        print("filled", d)',
        '    except OSError as e:',
        '        print("full", d, errno.errorcode[e.errno])',
      ].join('\n'),
      { limits: { wallTimeS: 10 } },
    );
    expect(r.stdout).toContain('full /tmp ENOSPC');
    expect(r.stdout).toContain('full /dev/shm ENOSPC');
    expect(r.success).toBe(true);
  });

  it('cannot create nested user namespaces (no capabilities regained inside)', async () => {
    const r = await ex.execute(
      'import subprocess\np = subprocess.run(["/usr/bin/unshare", "-Ur", "id"], capture_output=True, text=True)\nprint(p.returncode, p.stdout, p.stderr)\n',
    );
    expect(r.success).toBe(true);
    expect(r.stdout).not.toContain('uid=0');
    expect(r.stdout).toMatch(/unshare failed/);
  });

  it('sees no host files beyond the read-only system paths', async () => {
    const r = await ex.execute('import os\nprint(sorted(os.listdir("/")))\nprint(os.path.exists("/root"), os.path.exists("/home"))\n');
    expect(r.success).toBe(true);
    expect(r.stdout).toContain('False False');
    expect(r.stdout).not.toContain("'root'");
  });
});
