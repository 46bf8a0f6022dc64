/**
 * Attacks on the HTTP tool from a real sandbox, against real servers on 127.0.0.1: each asserts the
 * program got a clear, fast error and that the server it aimed at was NOT reached.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeExecutor } from '../sandbox/helpers.js';
import { httpBroker, httpsTargetServer, targetServer } from './helpers.js';

const SECRET = 'Bearer top-secret-4b1d9a7e';

/** Python that GETs `url` with requests and prints `status body` (an exception's text otherwise). */
const get = (url: string, extra = '') => `import requests\ntry:\n    r = requests.get("${url}"${extra})\n    print(r.status_code, r.text.strip())\nexcept Exception as e:\n    print("ERROR", type(e).__name__, e)\n`;

describe('HTTP tool attacks', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it('another port of an allowed host is refused, and that port is not reached', async () => {
    const allowed = await targetServer();
    const other = await targetServer();
    const result = await ex.execute(get(`http://127.0.0.1:${other.port}/x`), { tools: httpBroker({ allow: [allowed.host] }) });
    expect(result.stdout).toBe(`403 code-agent tools: http://127.0.0.1:${other.port} is not in tools.http.allow (allowed: ${allowed.host})\n`);
    expect(other.seen).toHaveLength(0);
    expect(result.toolCalls?.[0]).toMatchObject({ ok: false, summary: expect.stringContaining('refused: http://127.0.0.1') });
  }, 30_000);

  it('another host name (even one resolving to an allowed address) is refused', async () => {
    const target = await targetServer();
    const result = await ex.execute(get(`http://localhost:${target.port}/x`), { tools: httpBroker({ allow: [target.host] }) });
    expect(result.stdout).toContain(`403 code-agent tools: http://localhost:${target.port} is not in tools.http.allow`);
    expect(target.seen).toHaveLength(0);
  }, 30_000);

  it('a redirect from an allowed host to a disallowed one is refused at the second hop', async () => {
    const hidden = await targetServer();
    const allowed = await targetServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${hidden.port}/secret` });
      res.end();
    });
    const code = `${get(`${allowed.url}/start`)}import urllib.request\ntry:\n    urllib.request.urlopen("${allowed.url}/again")\nexcept Exception as e:\n    print("urllib:", e)\n`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [allowed.host] }) });
    expect(result.stdout).toContain(`403 code-agent tools: http://127.0.0.1:${hidden.port} is not in tools.http.allow`);
    expect(result.stdout).toContain(`urllib: HTTP Error 403: code-agent tools: http://127.0.0.1:${hidden.port} is not in tools.http.allow`);
    expect(allowed.seen.map((s) => s.url)).toEqual(['/start', '/again']);
    expect(hidden.seen).toHaveLength(0);
  }, 30_000);

  it('a name resolving to a loopback address is refused unless the address itself is listed', async () => {
    const target = await targetServer();
    const refused = await ex.execute(get(`http://localhost:${target.port}/x`), { tools: httpBroker({ allow: [`localhost:${target.port}`] }) });
    expect(refused.stdout).toMatch(new RegExp(`^403 code-agent tools: localhost:${target.port} is refused: it resolves to (127\\.0\\.0\\.1|::1), a loopback, private or link-local address that tools.http.allow does not list`));
    expect(target.seen).toHaveLength(0);
    // listed: the operator named the address itself (localhost may also resolve to ::1, listed too)
    const allowed = await ex.execute(get(`http://localhost:${target.port}/y`), {
      tools: httpBroker({ allow: [`localhost:${target.port}`, target.host, `[::1]:${target.port}`] }),
    });
    expect(allowed.stdout).toBe(`200 hello from ${target.port}\n`);
    expect(target.seen.map((s) => s.url)).toEqual(['/y']);
  }, 30_000);

  it('a name resolving to the cloud metadata address (169.254.169.254) or a private range is refused before any connection', async () => {
    const names: Record<string, string> = { 'metadata.example.com': '169.254.169.254', 'intranet.example.com': '10.1.2.3', 'mapped.example.com': '::ffff:127.0.0.1' };
    const tools = httpBroker({ allow: ['*.example.com'] }, { resolve: async (host) => [names[host] ?? '203.0.113.9'] });
    const code = Object.keys(names).map((n) => get(`http://${n}/latest/meta-data/`)).join('');
    const result = await ex.execute(code, { tools });
    expect(result.stdout.trim().split('\n')).toEqual([
      '403 code-agent tools: metadata.example.com:80 is refused: it resolves to 169.254.169.254, a loopback, private or link-local address that tools.http.allow does not list',
      '403 code-agent tools: intranet.example.com:80 is refused: it resolves to 10.1.2.3, a loopback, private or link-local address that tools.http.allow does not list',
      '403 code-agent tools: mapped.example.com:80 is refused: it resolves to 127.0.0.1, a loopback, private or link-local address that tools.http.allow does not list',
    ]);
  }, 30_000);

  it('the connection goes to the address that was checked: a name that changes its answer (DNS rebinding) does not reach the new one', async () => {
    const first = await targetServer();
    const second = http.createServer((_req, res) => res.end('rebound'));
    const seenBySecond: string[] = [];
    second.on('request', (req) => seenBySecond.push(req.url ?? ''));
    await new Promise<void>((r) => second.listen(first.port, '127.0.0.2', r));
    expect((second.address() as AddressInfo).port).toBe(first.port);
    let lookups = 0;
    const tools = httpBroker(
      { allow: [`rebind.example.com:${first.port}`, first.host] },
      { resolve: async () => (++lookups === 1 ? ['127.0.0.1'] : ['127.0.0.2']) },
    );
    const result = await ex.execute(get(`http://rebind.example.com:${first.port}/x`), { tools });
    second.close();
    expect(result.stdout).toBe(`200 hello from ${first.port}\n`);
    expect(lookups).toBe(1);
    expect(seenBySecond).toHaveLength(0);
  }, 30_000);

  it("a Host header of the program's own does not redirect the request (http, and inside an https tunnel)", async () => {
    const plain = await targetServer();
    const tls = await httpsTargetServer();
    const code = `import requests\nprint(requests.get("${plain.url}/a", headers={"Host": "evil.example.com"}).status_code)\nprint(requests.get("${tls.url}/b", headers={"Host": "evil.example.com"}).status_code)`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [plain.host, tls.host] }, { extraCa: tls.cert }) });
    expect(result.stdout).toBe('200\n200\n');
    expect(plain.seen.map((s) => s.headers.host)).toEqual([plain.host]);
    expect(tls.seen.map((s) => s.headers.host)).toEqual([tls.host]);
  }, 30_000);

  it('methods other than GET and HEAD are refused by default, and the server is not reached', async () => {
    const target = await targetServer();
    const code = `import requests\nr = requests.post("${target.url}/orders", json={"x": 1})\nprint(r.status_code, r.text.strip())\nprint(requests.head("${target.url}/h").status_code)`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host] }) });
    expect(result.stdout).toBe('405 code-agent tools: POST is not allowed (tools.http.methods allows GET, HEAD)\n200\n');
    expect(target.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['HEAD /h']);
  }, 30_000);

  it('a 1 GB response is cut at the cap: the program gets a clear 502 quickly, the server could not send it all', async () => {
    let sent = 0;
    const GB = 1024 ** 3;
    const target = await targetServer((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 120);
      res.writeHead(200, { 'content-type': 'application/octet-stream' }); // no length: streamed
      const pump = () => {
        while (sent < GB) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = Math.min(sent, GB)));
      pump();
    });
    const started = Date.now();
    const result = await ex.execute(get(`${target.url}/huge`), { tools: httpBroker({ allow: [target.host], max_response_mb: 1 }) });
    expect(result.stdout).toBe(`502 code-agent tools: the response from 127.0.0.1 is larger than the cap of 1048576 bytes (tools.http.max_response_mb); it was cut\n`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(sent).toBeLessThan(64 * 1024 * 1024); // the upstream connection was closed near the cap
    expect(result.toolCalls?.[0]).toMatchObject({ ok: false, bytes: 0 });
  }, 30_000);

  it('responses past what an execution may receive in all (tools.http.max_total_mb) are cut', async () => {
    const target = await targetServer((_req, res) => res.end(Buffer.alloc(800 * 1024, 97)));
    const code = `import urllib.request\nfor i in range(2):\n    try:\n        print(len(urllib.request.urlopen("${target.url}/%d" % i).read()))\n    except Exception as e:\n        print(e)`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], max_response_mb: 1, max_total_mb: 1.5 }) });
    expect(result.stdout).toBe(`819200\nHTTP Error 502: code-agent tools: the response from 127.0.0.1 is larger than the cap of 753664 bytes (what is left of tools.http.max_total_mb); it was cut\n`);
  }, 30_000);

  it('a server that does not answer is given up on at the time cap with a 504', async () => {
    const target = await targetServer(() => undefined); // never answers
    const result = await ex.execute(get(`${target.url}/slow`), { tools: httpBroker({ allow: [target.host], timeout_s: 0.5 }) });
    expect(result.stdout).toBe('504 code-agent tools: no complete answer from 127.0.0.1 within 500 ms (tools.http.timeout_s)\n');
  }, 30_000);

  it('calls past tools.http.max_calls are refused with a 429', async () => {
    const target = await targetServer();
    const code = `import urllib.request\nfor i in range(3):\n    try:\n        print(urllib.request.urlopen("${target.url}/%d" % i).status)\n    except Exception as e:\n        print(e, e.read().decode().strip())`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], max_calls: 2 }) });
    expect(result.stdout).toBe('200\n200\nHTTP Error 429: code-agent tools: this execution already made 2 http calls, the most allowed (tools.http.max_calls) code-agent tools: this execution already made 2 http calls, the most allowed (tools.http.max_calls)\n');
    expect(target.seen).toHaveLength(2);
  }, 30_000);

  it('https to a host that is not allowed is refused at CONNECT, before any TLS', async () => {
    const target = await targetServer();
    const result = await ex.execute(get(`https://127.0.0.1:${target.port}/x`), { tools: httpBroker({ allow: ['api.example.com'] }) });
    expect(result.stdout).toMatch(/^ERROR ProxyError .*403 .*is not in tools\.http\.allow/);
    expect(target.seen).toHaveLength(0);
  }, 30_000);

  it('the sandbox still has no network: a direct connection (no proxy) reaches nothing', async () => {
    const target = await targetServer();
    const code = `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${target.port}), timeout=2)\n    print("connected")\nexcept OSError as e:\n    print("refused", e.errno)\n${get(target.url, ', proxies={"http": None, "https": None}')}`;
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host] }) });
    expect(result.stdout).toMatch(/^refused \d+\nERROR ConnectionError/);
    expect(target.seen).toHaveLength(0);
  }, 30_000);

  it("the host's credentials are absent from the sandbox's environment, files and output, even when the server echoes them", async () => {
    const target = await targetServer((req, res) => {
      res.setHeader('x-echo', String(req.headers.authorization));
      res.end(`you sent ${req.headers.authorization}; token ${String(req.headers.authorization).split(' ')[1]}`);
    });
    const code = [
      'import os, requests',
      `r = requests.get("${target.url}/echo", headers={"Authorization": "mine"})`,
      'print(r.text, r.headers["x-echo"])',
      'needle = "top-" + "secret"  # not written whole here: main.py itself is searched',
      'found = []',
      'for top in ("/run", "/work", "/tmp", "/opt", "/proc/self"):',
      '    for root, dirs, files in os.walk(top):',
      '        dirs[:] = [d for d in dirs if not (root.startswith("/proc") and d in ("task", "fd", "map_files", "net"))]',
      '        for f in files:',
      '            try:',
      '                with open(os.path.join(root, f), "rb") as fh:',
      `                    if needle.encode() in fh.read(1 << 20): found.append(os.path.join(root, f))`,
      '            except OSError:',
      '                pass',
      'print("files:", found)',
      'print("env:", [k for k, v in os.environ.items() if needle in v])',
    ].join('\n');
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], headers: { [target.host]: { Authorization: SECRET } } }) });
    expect(target.seen[0]!.headers.authorization).toBe(SECRET); // it did arrive, replacing the program's own
    expect(result.stdout).toBe('you sent [redacted]; token [redacted] [redacted]\nfiles: []\nenv: []\n');
    expect(JSON.stringify(result)).not.toContain('top-secret');
  }, 60_000);
});
