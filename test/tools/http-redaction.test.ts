/**
 * Nothing of a configured credential comes back to the program: a real server on 127.0.0.1 echoes
 * the request's Authorization and Cookie values in its status line, a header name and value, and
 * its body in every form a server may encode them (case, JSON, percent, hex, base64 at each
 * alignment, chunks of one byte), and a real sandboxed program prints all it gets. Also: method
 * override headers, and a refused request with a body.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { makeExecutor } from '../sandbox/helpers.js';
import { Redactor, credentialParts } from '../../src/tools/http/redact.js';
import { httpBroker, httpsTargetServer, targetServer } from './helpers.js';

const TOKEN = 'Xq7Zk2Wv9Lp4Rt8N';
const COOKIE_VALUE = 'Hm3Jd8Qy5Tb1Vc6K';
const HEADERS = { Authorization: `Bearer ${TOKEN}`, Cookie: `session=${COOKIE_VALUE}; theme=dark` };

/** Every 5-character piece of the two credentials, in lower case: none may be in what the program saw. */
const PIECES = [TOKEN, COOKIE_VALUE].flatMap((s) => Array.from({ length: s.length - 4 }, (_, i) => s.slice(i, i + 5).toLowerCase()));
const leaked = (text: string) => PIECES.filter((p) => text.toLowerCase().includes(p));

/** What the echo server answers per path, from the request's credentials. */
function echo(req: http.IncomingMessage, res: http.ServerResponse): void {
  const auth = String(req.headers.authorization);
  const cookie = /session=([^;]+)/.exec(String(req.headers.cookie))?.[1] ?? '';
  const path = req.url ?? '/';
  const b64 = (shift: number, text: string, urlSafe = false) => Buffer.from(`${'x'.repeat(shift)}${text} and more`).toString(urlSafe ? 'base64url' : 'base64');
  if (path === '/reason') {
    res.writeHead(200, auth, { 'content-type': 'text/plain' });
    return void res.end('ok');
  }
  if (path === '/header') {
    res.setHeader(`x-${auth.split(' ')[1]}`, '1');
    res.setHeader('x-echo', `${auth}; ${cookie}`);
    return void res.end('ok');
  }
  if (path === '/chunks') {
    res.writeHead(200, { 'content-type': 'text/plain' }); // chunked: one byte a chunk
    const text = `token=${auth}`;
    let i = 0;
    const next = () => (i < text.length ? res.write(text[i++], next) : res.end());
    return next();
  }
  const bodies: Record<string, string> = {
    '/plain': `${auth} ${auth.toUpperCase()} ${auth.toLowerCase()} ${cookie}`,
    '/json': JSON.stringify({ auth, cookie, path: `/x/${cookie}/` }),
    '/percent': `${encodeURIComponent(auth)} ${encodeURIComponent(auth).replaceAll('%20', '+')} ${[...Buffer.from(auth)].map((b) => `%${b.toString(16)}`).join('')}`,
    '/hex': `${Buffer.from(auth).toString('hex')} ${Buffer.from(cookie).toString('hex').toUpperCase()}`,
    '/base64': [0, 1, 2, 3, 4].flatMap((shift) => [b64(shift, auth), b64(shift, cookie, true), b64(shift, TOKEN)]).join('\n'),
  };
  res.end(bodies[path] ?? 'no such path');
}

const PROGRAM = (base: string) => `import base64, binascii, re, urllib.request
for path in ["/reason", "/header", "/chunks", "/plain", "/json", "/percent", "/hex", "/base64"]:
    r = urllib.request.urlopen("${base}" + path)
    body = r.read()
    print(path, r.status, r.reason, dict(r.headers), body.decode(errors="replace"))
    for run in re.findall(rb"[A-Za-z0-9+/_-]{8,}", body):
        for alphabet in (None, b"-_"):
            try:
                print("decoded", base64.b64decode(run + b"=" * (-len(run) % 4), altchars=alphabet))
            except (binascii.Error, ValueError):
                pass
        try:
            print("unhexed", binascii.unhexlify(run))
        except (binascii.Error, ValueError):
            pass
`;

describe('credentials echoed back', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it('reach the program in no form: status line, header names and values, bodies of any chunking and encoding', async () => {
    const target = await targetServer(echo);
    const result = await ex.execute(PROGRAM(target.url), { tools: httpBroker({ allow: [target.host], headers: { [target.host]: HEADERS } }) });
    expect(target.seen[0]!.headers.authorization).toBe(HEADERS.Authorization); // the host sent them
    expect(result.stdout).toContain('/reason 200 OK {');
    expect(result.stdout).toContain('/chunks 200 OK');
    expect(result.stdout).toMatch(/'x-echo': '\[redacted\]; \[redacted\]'/);
    expect(result.stdout.match(/decoded b'/g)?.length ?? 0).toBeGreaterThan(10); // the base64 around them still decodes
    expect(leaked(result.stdout)).toEqual([]);
    expect(leaked(JSON.stringify(result))).toEqual([]);
  }, 60_000);
});

describe('Redactor', () => {
  it('splits a header value into its parts: the credential after its scheme, Basic\'s password, each cookie', () => {
    expect(credentialParts('Bearer abcdef123')).toEqual(['Bearer abcdef123', 'abcdef123']);
    const basic = `Basic ${Buffer.from('ana:pa55word!').toString('base64')}`;
    expect(credentialParts(basic)).toEqual(expect.arrayContaining(['ana:pa55word!', 'pa55word!']));
    expect(credentialParts('session=s3ss10n-id; theme=dark')).toEqual(expect.arrayContaining(['session=s3ss10n-id', 's3ss10n-id', 'theme=dark']));
  });

  it('leaves text without a credential as it was, and the text around one', () => {
    const r = new Redactor([`Bearer ${TOKEN}`]);
    const plain = Buffer.from('nothing to see here, just data');
    expect(r.redact(plain)).toBe(plain);
    expect(r.redactText(`a ${TOKEN.toLowerCase()} b`)).toBe('a [redacted] b');
  });
});

describe('method override headers', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });
  const program = (url: string) => `import urllib.request
for name in ("X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override"):
    req = urllib.request.Request("${url}/orders/3", headers={name: "DELETE"})
    print(urllib.request.urlopen(req).status)
req = urllib.request.Request("${url}/orders/3", headers={"X-HTTP-Method-Override": "HEAD"})
print(urllib.request.urlopen(req).status)
`;

  it('are dropped when the method they name is not allowed, and sent when it is', async () => {
    const target = await targetServer();
    const refused = await ex.execute(program(target.url), { tools: httpBroker({ allow: [target.host] }) });
    expect(refused.stdout).toBe('200\n200\n200\n200\n');
    const overrides = (i: number) => Object.keys(target.seen[i]!.headers).filter((h) => h.includes('method'));
    expect([0, 1, 2].map(overrides)).toEqual([[], [], []]);
    expect(target.seen[3]!.headers['x-http-method-override']).toBe('HEAD'); // HEAD is allowed
    await ex.execute(program(target.url), { tools: httpBroker({ allow: [target.host], methods: ['GET', 'HEAD', 'DELETE'] }) });
    expect(target.seen[4]!.headers['x-http-method-override']).toBe('DELETE');
  }, 60_000);
});

describe('a refused request with a body', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it.each(['http', 'https'] as const)('over %s, always reaches the program as the refusal, never as a reset connection, and never reaches the server', async (scheme) => {
    const target = scheme === 'http' ? await targetServer() : await httpsTargetServer();
    const code = `import requests, urllib.request
s = requests.Session()
seen = []
sizes = [1, 64 * 1024, 256 * 1024, 1024 * 1024, 3 * 1024 * 1024]
for i in range(20):
    body = b"x" * (sizes[i % len(sizes)] + i)
    try:
        if i % 2:
            r = s.post("${target.url}/upload", data=body)
            seen.append(r.status_code)
        else:
            urllib.request.urlopen(urllib.request.Request("${target.url}/upload", data=body, method="PUT"))
    except urllib.error.HTTPError as e:
        seen.append(e.code)
    except Exception as e:
        seen.append(type(e).__name__)
print(sorted(set(map(str, seen))), len(seen))
`;
    const options = 'cert' in target ? { extraCa: target.cert } : {};
    const result = await ex.execute(code, { tools: httpBroker({ allow: [target.host] }, options) });
    expect(result.stdout).toBe("['405'] 20\n");
    expect(target.seen).toHaveLength(0);
  }, 60_000);
});
