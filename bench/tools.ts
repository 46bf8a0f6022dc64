/**
 * Tool-call latency benchmark. Build with `npm run build`, run with `npm run bench:tools` (as root,
 * like the sandbox benchmark). A local server (a separate Node process, 2 KB JSON answers) is
 * called N times by the same Python client code twice: directly from the host (`/usr/bin/python3`,
 * no proxy), and from a sandboxed program through the HTTP tool (the relay in the sandbox, the
 * host-side broker, its checks and forwarding). Each request is timed inside Python; the first
 * `WARMUP` are left out. Prints p50 and p99 of both and the added latency, for:
 * - `urllib.request.urlopen` (a new connection per request, as pandas.read_csv(url) does);
 * - a `requests.Session` (one kept-alive connection);
 * - https with a `requests.Session` (the broker terminates TLS with its CA and opens its own).
 * `BENCH_RUNS` (default 200) sets the requests per variant.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BubblewrapExecutor } from '../src/sandbox/executor.js';
import { httpToolSchema } from '../src/config/tools-schema.js';
import { HttpPolicy } from '../src/tools/http/policy.js';
import { ToolBroker } from '../src/tools/broker.js';
import { selfSignedFor } from '../test/fakes/self-signed.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 20;

const SERVER = `
const http = require('node:http'), https = require('node:https');
const body = JSON.stringify({ rates: Array.from({ length: 60 }, (_, i) => ({ day: i, eur_usd: 1 + i / 1000 })) });
const handle = (_q, s) => { s.setHeader('content-type', 'application/json'); s.end(body); };
const [key, cert] = JSON.parse(process.argv[1]);
const a = http.createServer(handle).listen(0, '127.0.0.1', () => {
  const b = https.createServer({ key, cert }, handle).listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify([a.address().port, b.address().port]) + '\\n'));
});`;

/** Python that times `RUNS + WARMUP` requests and prints the times (ms) as JSON. */
const client = (kind: 'urllib' | 'session', url: string, cafile?: string) => `
import json, time, urllib.request, requests
times = []
s = requests.Session()
${cafile ? `s.verify = ${JSON.stringify(cafile)}` : ''}
for i in range(${RUNS + WARMUP}):
    t0 = time.perf_counter()
    ${kind === 'urllib' ? `urllib.request.urlopen(${JSON.stringify(url)}).read()` : `s.get(${JSON.stringify(url)}).content`}
    times.append((time.perf_counter() - t0) * 1000)
print(json.dumps(times[${WARMUP}:]))
`;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

function onHost(code: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', ['-c', code], { env: { PATH: '/usr/bin:/bin', HOME: '/tmp' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (c) => (c === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`host python exit ${c}`))));
  });
}

async function main(): Promise<void> {
  const pair = selfSignedFor('127.0.0.1');
  const server = spawn(process.execPath, ['-e', SERVER, JSON.stringify([pair.key, pair.cert])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [httpPort, httpsPort] = await new Promise<[number, number]>((r) => server.stdout.once('data', (d: Buffer) => r(JSON.parse(d.toString()))));
  const executor = new BubblewrapExecutor({ warmPool: 0, limits: { wallTimeS: 120, cpuTimeS: 120 } });
  const broker = new ToolBroker({
    http: new HttpPolicy(httpToolSchema.parse({ allow: [`127.0.0.1:${httpPort}`, `127.0.0.1:${httpsPort}`], max_calls: 10 * RUNS }), { extraCa: pair.cert }),
  });
  const caFile = join(tmpdir(), `bench-tools-ca-${process.pid}.pem`);
  writeFileSync(caFile, pair.cert);
  try {
    const variants: Array<[string, string, string]> = [
      ['http, urllib (new connection each)', client('urllib', `http://127.0.0.1:${httpPort}/rates`), client('urllib', `http://127.0.0.1:${httpPort}/rates`)],
      ['http, requests.Session (kept alive)', client('session', `http://127.0.0.1:${httpPort}/rates`), client('session', `http://127.0.0.1:${httpPort}/rates`)],
      ['https, requests.Session (kept alive)', client('session', `https://127.0.0.1:${httpsPort}/rates`, caFile), client('session', `https://127.0.0.1:${httpsPort}/rates`)],
    ];
    console.log(`tool-call latency, ${RUNS} requests per variant after ${WARMUP} warm-up, ms (p50 / p99):`);
    for (const [name, direct, sandboxed] of variants) {
      const host = await onHost(direct);
      const result = await executor.execute(sandboxed, { tools: broker });
      if (!result.success) throw new Error(`${name}: the sandboxed client failed: ${result.stderr.slice(-2000)}`);
      const tool = JSON.parse(result.stdout) as number[];
      const f = (x: number) => x.toFixed(2).padStart(6);
      console.log(
        `  ${name.padEnd(38)} direct ${f(pct(host, 50))} / ${f(pct(host, 99))}   through the tool ${f(pct(tool, 50))} / ${f(pct(tool, 99))}   added ${f(pct(tool, 50) - pct(host, 50))} / ${f(pct(tool, 99) - pct(host, 99))}`,
      );
    }
  } finally {
    server.kill();
    rmSync(caFile, { force: true });
    await executor.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
