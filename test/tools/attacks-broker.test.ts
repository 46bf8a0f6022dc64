/**
 * Attacks on the broker itself from a real sandbox: its folder and CA, another execution's broker,
 * the JSON routes with bad input, and exhaustion (many connections, slowloris, an endless upload).
 * Each asserts nothing was changed or reached, and that the host and the execution ended in time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Toolbox } from '../../src/tools/toolbox.js';
import { makeExecutor } from '../sandbox/helpers.js';
import { httpBroker, targetServer } from './helpers.js';

describe('broker attacks (from the sandbox)', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0, limits: { wallTimeS: 10, cpuTimeS: 10 } });

  it('the tools folder, its socket and ca.pem cannot be written, replaced or listed; no CA key is reachable', async () => {
    const target = await targetServer();
    const code = [
      'import os, glob',
      'd = os.environ["CODE_AGENT_TOOLS"]',
      'def tryit(name, f):',
      '    try:',
      '        f()',
      '        print(name, "DONE")',
      '    except OSError as e:',
      '        print(name, "refused")',
      'tryit("write ca", lambda: open(d + "/ca.pem", "a").write("x"))',
      'tryit("unlink sock", lambda: os.unlink(d + "/broker.sock"))',
      'tryit("rename ca", lambda: os.rename(d + "/ca.pem", d + "/x.pem"))',
      'tryit("new file", lambda: open(d + "/evil", "w"))',
      'tryit("list", lambda: os.listdir(d))',
      'tryit("chmod", lambda: os.chmod(d + "/ca.pem", 0o666))',
      'tryit("symlink", lambda: os.symlink("/tmp", d + "/link"))',
      'keys = [p for top in ("/run", "/tmp", "/work", "/opt") for p in glob.glob(top + "/**", recursive=True) if p.endswith((".key", "-key.pem")) or "PRIVATE " + "KEY" in (open(p, errors="ignore").read(1 << 16) if os.path.isfile(p) else "")]',
      'print("keys", keys)',
      'print("sockets", sorted(p for p in (glob.glob("/run/**/*.sock", recursive=True) + glob.glob("/tmp/**/*.sock", recursive=True) + glob.glob("/work/**/*.sock", recursive=True) + glob.glob("/opt/**/*.sock", recursive=True))))',
    ].join('\n');
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host] }) });
    expect(result.stdout).toBe([
      'write ca refused', 'unlink sock refused', 'rename ca refused', 'new file refused', 'list refused', 'chmod refused', 'symlink refused',
      'keys []', 'sockets []', '', // not even its own socket can be found by listing
    ].join('\n'));
  }, 60_000);

  it("the program's checks cannot call a tool the program could: once it ended, every call is refused and recorded", async () => {
    const target = await targetServer((_req, res) => res.end('7'));
    const code = `import urllib.request\nprint(urllib.request.urlopen("${target.url}/count").read().decode())`;
    const checks = [
      'import os, socket, urllib.request',
      // a route straight on the socket, past the relay
      's = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(os.environ["CODE_AGENT_TOOLS"] + "/broker.sock")',
      's.sendall(b"POST /sql HTTP/1.1\\r\\nHost: b\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\n{}"); ROUTE = s.recv(200)',
      'assert OUTPUT == "7", "seven"',
      // the same host the program fetched, now with a POST that would change something
      `urllib.request.urlopen(urllib.request.Request("${target.url}/orders", data=b"x", method="POST"))`,
    ].join('\n');
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], methods: ['GET', 'POST'] }), checks });
    expect(result.stdout).toBe('7\n');
    expect(target.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /count']);
    expect(result.checks?.results).toMatchObject([
      { check: 'assert OUTPUT == "7", "seven"', passed: true },
      { passed: false, detail: expect.stringContaining('HTTP Error 403: code-agent tools: the checks may not call tools') },
    ]);
    expect(result.toolCalls?.map((c) => c.summary.replace(/\d+ ms/, 'T ms'))).toEqual([
      expect.stringMatching(/^GET 127\.0\.0\.1:\d+\/count → 200, 1 B, T ms$/),
      'POST /sql → refused: made by the checks (T ms)',
      expect.stringMatching(/^POST http:\/\/127\.0\.0\.1:\d+\/orders → refused: made by the checks \(T ms\)$/),
    ]);
  }, 60_000);

  it('a call of the checks whose body comes after its headers is read whole, then refused: the checks see the refusal, never a closed connection', async () => {
    const target = await targetServer();
    const checks = [
      'import os, socket, time',
      'assert OUTPUT == "7", "seven"',
      's = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(os.environ["CODE_AGENT_TOOLS"] + "/broker.sock")',
      `s.sendall(b"POST ${target.url}/orders HTTP/1.1\\r\\nHost: ${target.host}\\r\\nContent-Length: 4\\r\\nConnection: close\\r\\n\\r\\n"); time.sleep(0.5)`,
      'try:\n    s.sendall(b"body"); SENT = "body sent"\nexcept OSError as e:\n    SENT = type(e).__name__',
      'ANSWER = b"".join(iter(lambda: s.recv(4096), b""))',
      // checks report a failing statement with its error: this one carries what the call saw
      'raise RuntimeError(SENT + " | " + ANSWER.split(b"\\r\\n")[0].decode() + " | " + ANSWER.split(b"\\r\\n\\r\\n")[-1].decode().strip())',
    ].join('\n');
    const result = await ex.execute('print(7)', { tools: httpBroker({ allow: [target.host], methods: ['GET', 'POST'] }), checks });
    expect(result.checks?.results).toEqual([
      { check: 'assert OUTPUT == "7", "seven"', passed: true },
      expect.objectContaining({ passed: false, detail: expect.stringMatching(/^RuntimeError: body sent \| HTTP\/1\.1 403 [^|]+\| code-agent tools: the checks may not call tools/) }),
    ]);
    expect(target.seen).toHaveLength(0);
  }, 60_000);

  it("two concurrent executions: neither sees the other's broker socket or can reach its tools", async () => {
    const a = await targetServer();
    const b = await targetServer();
    const code = (other: number) => [
      'import glob, os, time, urllib.request',
      'print(sorted(p for p in (glob.glob("/run/**/*.sock", recursive=True) + glob.glob("/tmp/**/*.sock", recursive=True) + glob.glob("/work/**/*.sock", recursive=True) + glob.glob("/opt/**/*.sock", recursive=True))))',
      'try:',
      `    urllib.request.urlopen("http://127.0.0.1:${other}/cross", timeout=3)`,
      '    print("REACHED")',
      'except Exception as e:',
      '    print("refused", getattr(e, "code", None))',
      'time.sleep(1)',
    ].join('\n');
    const [ra, rb] = await Promise.all([
      ex.execute(code(b.port), { tools: httpBroker({ allow: [a.host] }) }),
      ex.execute(code(a.port), { tools: httpBroker({ allow: [b.host] }) }),
    ]);
    for (const r of [ra, rb]) expect(r.stdout).toBe('[]\nrefused 403\n');
    expect(a.seen).toHaveLength(0);
    expect(b.seen).toHaveLength(0);
  }, 60_000);

  it('bad calls to the JSON routes get clear errors and the broker keeps serving: malformed JSON, a huge body, other route names, GET', async () => {
    const box = new Toolbox(parseConfig({ tools: { sql: { sources: { shop: { url: 'sqlite:///nonexistent/shop.db' } } } } }, {}).tools);
    const code = [
      'import http.client, json, os, socket',
      'class C(http.client.HTTPConnection):',
      '    def connect(self):',
      '        self.sock = socket.socket(socket.AF_UNIX); self.sock.connect(os.environ["CODE_AGENT_TOOLS"] + "/broker.sock")',
      'def call(method, path, body=None):',
      '    c = C("broker", timeout=5)',
      '    try:',
      '        c.request(method, path, body=body)',
      '        r = c.getresponse()',
      '        print(r.status, json.loads(r.read()).get("error", "")[:60])',
      '    except Exception as e:',
      '        print("ERROR", type(e).__name__)',
      'call("POST", "/sql", b"{not json")',
      'call("POST", "/sql", b"[" + b"1," * 600000 + b"1]")',
      'call("POST", "/__proto__", b"{}")',
      'call("POST", "/constructor", b"{}")',
      'call("POST", "/http", b"{}")',
      'call("POST", "/sql/../sql", b"{}")',
      'call("GET", "/sql")',
      'call("POST", "/sql", json.dumps({"source": {"__proto__": 1}, "query": ["x"], "params": "x"}).encode())',
      'call("POST", "/sql", b"null")',
      'call("POST", "/sql", json.dumps({"source": "shop", "query": "SELECT 1"}).encode())',
    ].join('\n');
    const result = await ex.execute(code, { tools: box.brokerFor('cli:local') });
    await box.close();
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['400', '413', '404', '404', '404', '404', '405', '400', '400', '422']);
    expect(result.stdout).not.toContain('nonexistent'); // the source's path stays on the host
  }, 60_000);

  it('slowloris, hundreds of idle connections and an endless upload end with the execution; the next execution is served', async () => {
    const target = await targetServer();
    const code = [
      'import os, socket, threading, time',
      'path = os.environ["CODE_AGENT_TOOLS"] + "/broker.sock"',
      'held = []',
      'for i in range(200):',
      '    s = socket.socket(socket.AF_UNIX); s.connect(path)',
      `    s.sendall(b"GET ${target.url}/slow HTTP/1.1\\r\\nX-a: " + b"a" * 1000)  # never ends its headers`,
      '    held.append(s)',
      'up = socket.socket(socket.AF_UNIX); up.connect(path)',
      `up.sendall(b"GET ${target.url}/upload HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n")`,
      'def pump():',
      '    try:',
      '        while True:',
      '            up.sendall(b"4000\\r\\n" + b"x" * 0x4000 + b"\\r\\n")',
      '    except OSError:',
      '        print("upload cut", flush=True)',
      'threading.Thread(target=pump, daemon=True).start()',
      'time.sleep(2)',
      'print("held", len(held), flush=True)',
      'time.sleep(60)  # outlives the wall limit',
    ].join('\n');
    const started = Date.now();
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], max_response_mb: 1 }), limits: { wallTimeS: 4 } });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.stdout).toContain('held 200\n');
    expect(target.seen.map((s) => s.url)).not.toContain('/upload'); // an over-cap body is never forwarded
    const next = await ex.execute(`import urllib.request\nprint(urllib.request.urlopen("${target.url}/after").read().decode())`, { tools: httpBroker({ allow: [target.host] }) });
    expect(next.stdout).toBe(`hello from ${target.port}\n`);
    expect(readFileSync('/proc/self/status', 'utf8')).toMatch(/State:\s+[RS]/); // the host process is alive and well
  }, 60_000);

  it('many unfinished request bodies at once are not all buffered on the host: past one response cap in all they are refused (413)', async () => {
    const target = await targetServer();
    const code = [
      'import os, socket, time',
      'path = os.environ["CODE_AGENT_TOOLS"] + "/broker.sock"',
      'conns = []',
      'for i in range(30):',
      '    s = socket.socket(socket.AF_UNIX); s.connect(path); s.settimeout(0.2)',
      '    try:',
      `        s.sendall(b"GET ${target.url}/up HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n" + (b"4000\\r\\n" + b"x" * 0x4000 + b"\\r\\n") * 50)  # 800 KB each, never ended`,
      '    except OSError:',
      '        pass  # the broker refused it and stopped reading',
      '    conns.append(s)',
      'time.sleep(1)',
      'answered = 0',
      'for s in conns:',
      '    try:',
      '        s.settimeout(0.1)',
      '        if s.recv(100).startswith(b"HTTP/1.1 413"): answered += 1',
      '    except OSError:',
      '        pass',
      'print("refused", answered)',
    ].join('\n');
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host], max_response_mb: 1 }), limits: { wallTimeS: 30 } });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('refused 29\n'); // the first is within the cap and still waits for its end
    expect(target.seen).toHaveLength(0);
  }, 90_000);
});
