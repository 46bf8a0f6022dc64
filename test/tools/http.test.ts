/**
 * The HTTP tool from a real sandbox: ordinary Python HTTP code (urllib.request, requests,
 * pandas.read_csv) reaches an allowed host on 127.0.0.1 through the host-side broker, which adds
 * the host's configured header; every start mode (the broker's socket appears after a pooled
 * sandbox started); every call is recorded.
 */
import { describe, expect, it } from 'vitest';
import { START_MODES, makeExecutor } from '../sandbox/helpers.js';
import { httpBroker, httpsTargetServer, targetServer } from './helpers.js';

const TOKEN = 'Bearer rates-token-9f2c1e';

describe.each(START_MODES)('the HTTP tool, $start start', ({ options }) => {
  it('urllib, requests and pandas.read_csv reach an allowed host, which gets the header the host side adds', async () => {
    const target = await targetServer((req, res) => {
      res.setHeader('content-type', 'text/csv');
      res.end('day,rate\n2026-01-01,1.10\n2026-01-02,1.12\n');
    });
    const ex = makeExecutor(options);
    const tools = httpBroker({ allow: [target.host], headers: { [target.host]: { Authorization: TOKEN } } });
    const code = [
      'import urllib.request, requests, pandas as pd',
      `print(urllib.request.urlopen("${target.url}/a").read().decode().splitlines()[1])`,
      `r = requests.get("${target.url}/b", params={"q": "eur"})`,
      'print(r.status_code, r.text.splitlines()[2])',
      `print(pd.read_csv("${target.url}/c.csv")["rate"].sum())`,
    ].join('\n');
    const result = await ex.execute(code, { tools });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual(['2026-01-01,1.10', '200 2026-01-02,1.12', '2.22']);
    expect(target.seen.map((s) => s.url)).toEqual(['/a', '/b?q=eur', '/c.csv']);
    for (const s of target.seen) expect(s.headers.authorization).toBe(TOKEN);
    expect(result.toolCalls?.map((c) => c.summary.replace(/\d+ ms/, 'N ms'))).toEqual([
      `GET ${target.host}/a → 200, 41 B, N ms`,
      `GET ${target.host}/b → 200, 41 B, N ms`,
      `GET ${target.host}/c.csv → 200, 41 B, N ms`,
    ]);
    expect(result.toolCalls?.every((c) => c.ok && c.bytes === 41)).toBe(true);
  }, 60_000);
});

describe('the HTTP tool over https', () => {
  it('requests reaches an allowed https host through the broker, which adds the header outside the sandbox', async () => {
    const target = await httpsTargetServer((req, res) => res.end(JSON.stringify({ rates: [1.1, 1.2], path: req.url })));
    const ex = makeExecutor();
    const tools = httpBroker({ allow: [target.host], headers: { [target.host]: { Authorization: TOKEN } } }, { extraCa: target.cert });
    const code = `import requests, urllib.request, json\nprint(requests.get("${target.url}/v1/rates").json())\nprint(json.load(urllib.request.urlopen("${target.url}/v2"))["path"])`;
    const result = await ex.execute(code, { tools });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe("{'rates': [1.1, 1.2], 'path': '/v1/rates'}\n/v2\n");
    expect(target.seen.map((s) => [s.url, s.headers.authorization])).toEqual([['/v1/rates', TOKEN], ['/v2', TOKEN]]);
    expect(result.toolCalls?.map((c) => c.summary.split(' → ')[0])).toEqual([`GET ${target.host}/v1/rates`, `GET ${target.host}/v2`]);
  }, 60_000);

  it('an upstream certificate the broker does not trust is refused with a clear error', async () => {
    const target = await httpsTargetServer();
    const ex = makeExecutor();
    const tools = httpBroker({ allow: [target.host] }); // no ca_file: the self-signed certificate is not trusted
    const result = await ex.execute(`import requests\nr = requests.get("${target.url}/x")\nprint(r.status_code, r.text)`, { tools });
    expect(result.stdout).toMatch(/^502 code-agent tools: 127\.0\.0\.1: (SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT)/);
    expect(target.seen).toHaveLength(0); // the TLS handshake failed: no request reached it
  }, 60_000);
});
