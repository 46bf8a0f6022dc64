/**
 * Attacks on the HTTP tool's proxy from a real sandbox, speaking raw bytes to the broker's socket
 * (no client library to tidy the request): each asserts the server aimed at was NOT reached, the
 * secret did not come back, and the broker stayed within its caps.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeExecutor } from '../sandbox/helpers.js';
import { httpBroker, targetServer } from './helpers.js';

const SECRET = 'Bearer top-secret-4b1d9a7e';

/**
 * Python sending each raw request (bytes literals) on its own connection to the broker's socket and
 * printing the first line of each answer (or `closed`).
 */
const raw = (requests: string[]) => [
  'import os, re, socket',
  'def send(data):',
  '    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)',
  '    s.settimeout(1)',
  '    s.connect(os.path.join(os.environ["CODE_AGENT_TOOLS"], "broker.sock"))',
  '    s.sendall(data)',
  '    out = b""',
  '    try:',
  '        while True:',
  '            c = s.recv(65536)',
  '            if not c: break',
  '            out += c',
  '    except socket.timeout:',
  '        pass',
  '    s.close()',
  '    return out',
  ...requests.map((r) => `print(" ".join(x.decode() for x in re.findall(rb"^HTTP/1\\.1 \\d{3}", send(${r}), re.M)) or "closed")`),
].join('\n');

describe('HTTP proxy attacks (raw requests on the broker socket)', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0, limits: { wallTimeS: 15 } });

  it('host spellings of an unlisted host or port are refused: decimal/hex/octal IPv4, IPv6, userinfo, trailing dot, wildcards', async () => {
    const allowed = await targetServer();
    const hidden = await targetServer();
    const p = hidden.port;
    const targets = [
      `http://2130706433:${p}/dec`, `http://0x7f000001:${p}/hex`, `http://0177.0.0.1:${p}/oct`, `http://127.1:${p}/short`,
      `http://[::ffff:127.0.0.1]:${p}/mapped`, `http://[::1]:${p}/v6`, `http://127.0.0.1:${allowed.port}@127.0.0.1:${p}/userinfo`,
      `http://127.0.0.1.:${p}/dot`, `http://LOCALHOST:${p}/upper`, `http://example.com.evil:${p}/`, `http://evil-example.com:${p}/`,
      `http://example.com:${p}/bare`, `http://a.example.com:${p}/wild-other-port`,
    ];
    const requests = targets.map((t) => `b"GET ${t} HTTP/1.1\\r\\nHost: ${allowed.host}\\r\\nConnection: close\\r\\n\\r\\n"`);
    // an allowed absolute URI with the Host header naming the hidden port, and a CONNECT to the allowed address on the hidden port
    requests.push(`b"GET ${allowed.url}/ok HTTP/1.1\\r\\nHost: ${hidden.host}\\r\\nConnection: close\\r\\n\\r\\n"`);
    requests.push(`b"CONNECT ${hidden.host} HTTP/1.1\\r\\nHost: ${allowed.host}\\r\\n\\r\\n"`);
    requests.push(`b"CONNECT ${allowed.host}@${hidden.host} HTTP/1.1\\r\\n\\r\\n"`);
    const result = await ex.execute(raw(requests), { tools: httpBroker({ allow: [allowed.host, '*.example.com'] }, { resolve: async () => ['203.0.113.9'] }) });
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(requests.length);
    expect(lines.slice(0, targets.length).every((l) => /^HTTP\/1\.1 (400|403)$/.test(l))).toBe(true);
    expect(lines[targets.length]).toBe('HTTP/1.1 200');
    expect(lines.slice(targets.length + 1).every((l) => /^HTTP\/1\.1 (400|403)$/.test(l))).toBe(true);
    expect(hidden.seen).toHaveLength(0);
    expect(allowed.seen.map((s) => [s.url, s.headers.host])).toEqual([['/ok', allowed.host]]);
  }, 60_000);

  it('smuggling and pipelining do not reach another host: duplicate Content-Length, chunked + Content-Length, CR/LF in the target, two hosts on one connection', async () => {
    const allowed = await targetServer();
    const hidden = await targetServer();
    const smuggled = `GET ${hidden.url}/smuggled HTTP/1.1\\r\\nHost: ${hidden.host}\\r\\n\\r\\n`;
    const requests = [
      `b"GET ${allowed.url}/a HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 0\\r\\nContent-Length: ${smuggled.length - 8}\\r\\n\\r\\n${smuggled}"`,
      `b"GET ${allowed.url}/b HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\nContent-Length: 5\\r\\n\\r\\n0\\r\\n\\r\\n${smuggled}"`,
      `b"GET ${allowed.url}/c\\r\\nHost: ${hidden.host} HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n"`,
      `b"GET ${allowed.url}/d HTTP/1.1\\r\\nHost: x\\r\\nX-A: 1\\r\\n\\rX-B: ${hidden.host}\\r\\n\\r\\n"`,
      // pipelined: the allowed host, then the hidden one, on one connection
      `b"GET ${allowed.url}/e HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n${smuggled.replace('HTTP/1.1', 'HTTP/1.1')}"`,
    ];
    const result = await ex.execute(`${raw(requests)}\nimport time; time.sleep(0.5)`, { tools: httpBroker({ allow: [allowed.host] }) });
    // the broker's parser refuses the ambiguous framings; the CR/LF target reaches the allowed host only;
    // of the pipelined pair only the allowed request is answered 200
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(0, 4)).toEqual(['HTTP/1.1 400', 'HTTP/1.1 400', 'HTTP/1.1 200', 'HTTP/1.1 400']);
    expect(lines[4]).toMatch(/^HTTP\/1\.1 200( HTTP\/1\.1 40\d)?$/);
    expect(hidden.seen).toHaveLength(0);
    expect(allowed.seen.every((s) => s.headers.host === allowed.host)).toBe(true);
    expect(allowed.seen.map((s) => s.url)).not.toContain('/smuggled');
  }, 60_000);

  it('a server that gzips its echo of the credential (ignoring Accept-Encoding: identity) does not hand it to the program', async () => {
    const target = await targetServer((req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
      res.end(gzipSync(`you sent ${req.headers.authorization}`));
    });
    const code = `import requests, urllib.request, gzip\nr = requests.get("${target.url}/echo")\nprint(r.status_code, r.text)\nraw = urllib.request.urlopen("${target.url}/again").read()\ntry:\n    raw = gzip.decompress(raw)\nexcept OSError:\n    pass\nprint(raw.decode())`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], headers: { [target.host]: { Authorization: SECRET } } }) });
    expect(target.seen).toHaveLength(2);
    expect(target.seen[0]!.headers.authorization).toBe(SECRET);
    expect(result.stdout).toBe('200 you sent [redacted]\nyou sent [redacted]\n');
    expect(JSON.stringify(result)).not.toContain('top-secret');
  }, 60_000);

  it('a server honouring Range requests does not hand the echoed credential over piece by piece', async () => {
    // each 4-byte piece is too short to be recognised as the secret; put together they would be it
    const target = await targetServer((req, res) => {
      const body = Buffer.from(`you sent ${req.headers.authorization}`);
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
      if (!range) return res.end(body);
      res.writeHead(206, { 'content-range': `bytes ${range[1]}-${range[2]}/${body.length}` });
      res.end(body.subarray(Number(range[1]), Number(range[2]) + 1));
    });
    const code = `import urllib.request\nout = b""\nfor i in range(0, 60, 4):\n    req = urllib.request.Request("${target.url}/echo", headers={"Range": "bytes=%d-%d" % (i, i + 3), "If-Range": "x"})\n    out += urllib.request.urlopen(req).read()\nprint(out.decode())`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], headers: { [target.host]: { Authorization: SECRET } } }) });
    expect(target.seen.length).toBeGreaterThan(0);
    expect(target.seen.every((s) => s.headers.range === undefined && s.headers['if-range'] === undefined)).toBe(true);
    expect(result.stdout).toContain('you sent [redacted]');
    expect(JSON.stringify(result)).not.toContain('top-secret');
    expect(JSON.stringify(result).replace(/you sent \[redacted\]/g, '')).not.toMatch(/secret|4b1d/);
  }, 60_000);

  it('concurrent requests do not get past tools.http.max_total_mb', async () => {
    const target = await targetServer((_req, res) => setTimeout(() => res.end(Buffer.alloc(512 * 1024, 97)), 300));
    const code = [
      'import threading, urllib.request',
      'got = []',
      'def one(i):',
      '    try:',
      `        got.append(len(urllib.request.urlopen("${target.url}/%d" % i).read()))`,
      '    except Exception as e:',
      '        got.append(0)',
      'ts = [threading.Thread(target=one, args=(i,)) for i in range(8)]',
      '[t.start() for t in ts]',
      '[t.join() for t in ts]',
      'print(sum(got))',
    ].join('\n');
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], max_response_mb: 1, max_total_mb: 1 }) });
    expect(Number(result.stdout.trim())).toBeLessThanOrEqual(1024 * 1024);
    expect(result.toolCalls?.reduce((n, c) => n + c.bytes, 0)).toBeLessThanOrEqual(1024 * 1024);
  }, 60_000);
});

describe('HTTP proxy attacks (credentials and redirects)', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it("an entry without a port gets its credentials over https only: http://<host>/ on port 80 is served without them", async () => {
    const seen: Array<string | undefined> = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.end('plain');
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(80, '127.0.0.1', resolve));
    try {
      const result = await ex.execute(`import requests\nprint(requests.get("http://127.0.0.1/x").text)`, {
        tools: httpBroker({ allow: ['127.0.0.1'], headers: { '127.0.0.1': { Authorization: SECRET } } }),
      });
      expect(result.stdout).toBe('plain\n');
      expect(seen).toEqual([undefined]);
    } finally {
      server.close();
    }
  }, 30_000);

  it('redirects (301, 307, 308, relative, file:, ftp:, gopher:) reach nothing but allowed hosts', async () => {
    const hidden = await targetServer();
    const locations: Record<string, string> = {
      '/301': `http://127.0.0.1:${hidden.port}/a`,
      '/307': `//127.0.0.1:${hidden.port}/b`,
      '/308': `http://127.0.0.1:${hidden.port}@evil/c`,
      '/rel': '/landed',
      '/file': 'file:///etc/passwd',
      '/ftp': `ftp://127.0.0.1:${hidden.port}/d`,
      '/gopher': `gopher://127.0.0.1:${hidden.port}/e`,
    };
    const allowed = await targetServer((req, res) => {
      const to = locations[req.url ?? ''];
      if (!to) return res.end('landed');
      res.writeHead(Number(req.url!.slice(1)) || 302, { location: to });
      res.end();
    });
    const code = [
      'import requests, urllib.request',
      `for p in ${JSON.stringify(Object.keys(locations))}:`,
      '    for name, fetch in (("requests", lambda u: requests.get(u).text), ("urllib", lambda u: urllib.request.urlopen(u, timeout=5).read().decode())):',
      '        try:',
      `            out = fetch("${allowed.url}" + p)`,
      '        except Exception as e:',
      '            out = type(e).__name__',
      '        print(p, name, out[:40].strip())',
    ].join('\n');
    const result = await ex.execute(code, { tools: httpBroker({ allow: [allowed.host] }), limits: { wallTimeS: 20 } });
    expect(result.stdout).toContain('/rel requests landed\n/rel urllib landed\n');
    expect(result.stdout).not.toMatch(/root:|hello from/);
    expect(hidden.seen).toHaveLength(0);
  }, 60_000);

  it('a server echoing the credential escaped (JSON with \\/, percent-encoded) or a Basic password decoded does not hand it to the program', async () => {
    const token = 'Bearer ab/cd+ef==top-secret-9';
    const basic = `Basic ${Buffer.from('svc:hunter2-secret').toString('base64')}`;
    const target = await targetServer((req, res) => {
      const auth = String(req.headers.authorization);
      if (req.url === '/php') res.end(JSON.stringify({ auth }).replaceAll('/', '\\/'));
      else res.end(`next=${encodeURIComponent(auth)}`);
    });
    const other = await targetServer((req, res) => res.end(`password ${Buffer.from(String(req.headers.authorization).split(' ')[1]!, 'base64').toString().split(':')[1]}`));
    const code = `import urllib.request\nfor u in ("${target.url}/php", "${target.url}/url", "${other.url}/basic"):\n    print(urllib.request.urlopen(u).read().decode())`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host, other.host], headers: { [target.host]: { Authorization: token }, [other.host]: { Authorization: basic } } }) });
    expect(target.seen[0]!.headers.authorization).toBe(token);
    expect(result.stdout).toBe('{"auth":"[redacted]"}\nnext=[redacted]\npassword [redacted]\n');
    expect(result.stdout).not.toMatch(/top-secret|hunter2|ab%2Fcd/);
  }, 30_000);
});
