/**
 * The credential in a response's headers, and headers spelled another way (turn 5, T5), from a real
 * sandboxed program against real servers on 127.0.0.1. The configured credential holds `/`, `+`
 * and `=`. A server echoes it (a) as a `Content-Encoding` value and in other header values, (c)
 * compressed under `Transfer-Encoding: gzip, chunked`, (d) URL-quoted with any of its characters
 * encoded, quoted twice and three times, as JSON `\u` escapes, JavaScript `\x` escapes, HTML
 * references, base64 of a quoted form, and in a redirect's `Location`. The program prints every
 * view of what it got (each decoding it could try); none holds a piece of the credential, nor do
 * the stderr and the call records that become the thread and the history. (b) Override headers
 * and configured header names, written with underscores or in another case, never reach the server.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeExecutor } from '../sandbox/helpers.js';
import { httpBroker, targetServer } from './helpers.js';

const TOKEN = 'Zm9v/YmFy+YmF6=cXV4Qk';
const AUTH = `Bearer ${TOKEN}`;

/** Every 5-character piece of the token, in lower case: none may be in what the program printed. */
const PIECES = Array.from({ length: TOKEN.length - 4 }, (_, i) => TOKEN.slice(i, i + 5).toLowerCase());
const leaked = (text: string) => PIECES.filter((p) => text.toLowerCase().includes(p));

const quote = (text: string, safe = '') => [...Buffer.from(text)].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) || safe.includes(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
const unicode = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** What the echo server answers per path, from the request's Authorization value. */
function echo(req: http.IncomingMessage, res: http.ServerResponse, port: number): void {
  const auth = String(req.headers.authorization);
  const token = auth.split(' ')[1]!;
  const path = req.url ?? '/';
  if (path === '/content-encoding') {
    res.writeHead(200, { 'content-encoding': auth, 'content-type': 'text/plain' });
    return void res.end('ok');
  }
  if (path === '/header-values') {
    res.writeHead(200, { 'x-quoted': quote(auth), 'x-twice': quote(quote(token)), 'x-json': unicode(token), 'x-link': `<https://example.com/?t=${quote(token, '/')}>` });
    return void res.end('ok');
  }
  if (path === '/transfer-encoding') {
    res.writeHead(200, { 'transfer-encoding': 'gzip, chunked', 'content-type': 'text/plain' });
    return void res.end(gzipSync(`token=${auth}`));
  }
  if (path === '/location') {
    res.writeHead(302, { location: `http://127.0.0.1:${port}/next?token=${quote(token)}&again=${quote(quote(token))}` });
    return void res.end();
  }
  const bodies: Record<string, string> = {
    '/quoted': `${quote(token)} ${quote(token, '/')} ${quote(token, '/+')} ${quote(auth).replaceAll('%20', '+')}`,
    '/quoted-lower': quote(token).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    '/twice': `${quote(quote(token))} ${quote(quote(quote(token)))}`,
    '/json': `${JSON.stringify({ t: unicode(token) }).slice(1, -1)} ${unicode(token)} ${JSON.stringify(JSON.stringify({ t: token }))}`,
    '/javascript': [...token].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
    '/html': [...token].map((c) => `&#${c.charCodeAt(0)};`).join('') + ' ' + [...token].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    '/base64-quoted': [0, 1, 2].map((shift) => quote(Buffer.from(`${'x'.repeat(shift)}${token} and more`).toString('base64'))).join(' '),
    '/hex': Buffer.from(`x${token}`).toString('hex'),
  };
  res.end(bodies[path] ?? 'no such path');
}

const PATHS = ['/content-encoding', '/header-values', '/transfer-encoding', '/location', '/quoted', '/quoted-lower', '/twice', '/json', '/javascript', '/html', '/base64-quoted', '/hex'];

/** Python that fetches each path without following redirects, and prints every view of the status line, headers and body it can decode. */
const PROGRAM = (base: string) => `import base64, binascii, codecs, gzip, html, re, urllib.error, urllib.parse, urllib.request, zlib
class Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None
opener = urllib.request.build_opener(Stay)
def views(t):
    out = [t, urllib.parse.unquote_plus(t), html.unescape(t)]
    u = t
    for _ in range(3):
        u = urllib.parse.unquote(u)
        out.append(u)
    for s in (t, u):
        try:
            out.append(codecs.decode(s, "unicode_escape"))
            out.append(codecs.decode(codecs.decode(s, "unicode_escape"), "unicode_escape"))
        except Exception:
            pass
    for s in list(out):
        for run in re.findall(r"[A-Za-z0-9+/_=-]{8,}", s):
            for shift in range(4):
                part = run[shift:]
                for dec in (base64.b64decode, base64.urlsafe_b64decode):
                    try:
                        out.append(dec(part + "=" * (-len(part) % 4)).decode("latin1"))
                    except Exception:
                        pass
        for run in re.findall(r"[0-9a-fA-F]{8,}", s):
            for shift in range(2):
                part = run[shift:]
                try:
                    out.append(binascii.unhexlify(part[: len(part) - len(part) % 2]).decode("latin1"))
                except Exception:
                    pass
    return out
for path in ${JSON.stringify(PATHS)}:
    try:
        r = opener.open("${base}" + path)
        status, reason, headers, body = r.status, r.reason, str(r.headers), r.read()
    except urllib.error.HTTPError as e:
        status, reason, headers, body = e.code, e.reason, str(e.headers), e.read()
    print("PATH", path, status)
    for blob in (body,):
        for d in (gzip.decompress, zlib.decompress):
            try:
                print(d(blob).decode("latin1"))
            except Exception:
                pass
    for text in (str(reason), headers, body.decode("latin1")):
        for v in views(text):
            print(v)
`;

describe('the credential in headers, transfer encodings and escaped forms (T5)', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it('comes back in no form, on no path: stdout, stderr, the call records', async () => {
    const server = await targetServer(echo);
    const tools = httpBroker({ allow: [server.host], headers: { [server.host]: { Authorization: AUTH } } });
    const result = await ex.execute(PROGRAM(server.url), { tools });
    expect(result.stderr).toBe('');
    for (const path of PATHS) expect(result.stdout).toContain(`PATH ${path} `);
    expect(result.stdout).toContain('PATH /content-encoding 502');
    expect(result.stdout).toContain('it is encoded in a way the broker cannot read');
    expect(result.stdout).toContain('PATH /transfer-encoding 200');
    expect(result.stdout).toContain('token=[redacted]'); // decoded, then redacted
    expect(server.seen.map((s) => s.headers.authorization)).toEqual(PATHS.map(() => AUTH)); // the credential did go to the server each time
    expect(leaked(result.stdout)).toEqual([]);
    expect(leaked(result.stderr)).toEqual([]);
    expect(leaked(JSON.stringify(result.toolCalls))).toEqual([]);
    expect(result.toolCalls?.find((c) => c.summary.includes('/content-encoding'))?.summary).toContain('502');
  }, 60_000);
});

describe('headers spelled another way (T5)', () => {
  const ex = makeExecutor({ warmPool: 0, spareSlots: 0 });

  it('an override header, or a configured header\'s name, in any case and with _ for -, never reaches the server', async () => {
    const server = await targetServer();
    const tools = httpBroker({ allow: [server.host], headers: { [server.host]: { 'X-Api-Key': 'configured-key-123' } } });
    const spellings = ['X_HTTP_Method_Override', 'x_http_method', 'X-Method_Override', 'x-http-method-OVERRIDE'];
    const code = `import urllib.request
for name in ${JSON.stringify(spellings)}:
    r = urllib.request.urlopen(urllib.request.Request("${server.url}/items/1", headers={name: "DELETE", "X_Api_Key": "the-programs-own", "x-api_KEY": "the-programs-own"}))
    print(r.status)
`;
    const result = await ex.execute(code, { tools });
    expect(result.stdout).toBe('200\n200\n200\n200\n');
    expect(server.seen).toHaveLength(4);
    for (const seen of server.seen) {
      const names = Object.keys(seen.headers).map((k) => k.replaceAll('_', '-'));
      expect(names.filter((n) => /method/.test(n))).toEqual([]);
      expect(names.filter((n) => n === 'x-api-key')).toEqual(['x-api-key']);
      expect(seen.headers['x-api-key']).toBe('configured-key-123');
    }
  }, 60_000);

  it('an override header naming an allowed method still goes through', async () => {
    const server = await targetServer();
    const result = await ex.execute(`import urllib.request\nprint(urllib.request.urlopen(urllib.request.Request("${server.url}/", headers={"X_HTTP_Method_Override": "GET"})).status)\n`, { tools: httpBroker({ allow: [server.host] }) });
    expect(result.stdout).toBe('200\n');
    expect(server.seen[0]!.headers['x_http_method_override']).toBe('GET');
  }, 60_000);
});
