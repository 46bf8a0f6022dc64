/**
 * The HTTP tool end to end through the built `code-agent run`: "chart this quarter's exchange rates
 * from our internal rates API" against the fake OpenAI server and a fake rates API on 127.0.0.1
 * that wants a bearer token. The model is told the host; the program reaches it through the real
 * sandbox; the token arrives at the API from the host side; the terminal shows the 🔧 line; the
 * token is in no output, record or history.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { routedReplies } from '../helpers/verify-replies.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';

const TOKEN = 'rates-4f8e2b9c1d7a';
const REQUEST = "chart this quarter's exchange rates from our internal rates API";
const RATES = 'date,eur_usd\n2026-10-01,1.081\n2026-11-02,1.094\n2026-12-01,1.102\n';

let api: http.Server;
let apiPort = 0;
const seen: Array<{ url: string; authorization?: string }> = [];
let fake: FakeOpenAi | undefined;

beforeAll(async () => {
  requireBuiltCli();
  api = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end('missing token');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv' }).end(RATES);
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiPort = (api.address() as AddressInfo).port;
});
afterAll(async () => {
  await fake?.close();
  await new Promise((r) => api.close(r));
});

/** The program a model told about the host writes; a model told nothing writes one without network. */
const program = (port: number) => `\`\`\`python
import pandas as pd
import matplotlib.pyplot as plt
rates = pd.read_csv("http://127.0.0.1:${port}/v1/rates?quarter=2026Q4")
rates.plot(x="date", y="eur_usd", title="EUR/USD this quarter")
plt.savefig("rates.png")
print(len(rates), "rates, last", rates["eur_usd"].iloc[-1])
\`\`\``;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('code-agent run with the HTTP tool', () => {
  it('the program reaches the internal rates API with the token added on the host side; the terminal shows the 🔧 line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-tools-'));
    const code = (req: { messages: Array<{ content: string }> }) =>
      req.messages[0]!.content.includes(`127.0.0.1:${apiPort}`) ? program(apiPort) : '```python\nprint("no tools were described")\n```';
    fake = await startFakeOpenAi({ replies: [routedReplies({ code: [code] })] });
    writeFileSync(
      join(dir, 'config.yaml'),
      [
        'llm:', '  provider: openai', `  base_url: ${fake.url}`, '  model: fake-model', '  max_retries: 0',
        'sandbox:', '  timeout_s: 20', '  cpu_time_s: 20',
        'tools:', '  http:', `    allow: ["127.0.0.1:${apiPort}"]`,
        `    headers: { "127.0.0.1:${apiPort}": { Authorization: "Bearer \${RATES_TOKEN}" } }`,
      ].join('\n'),
    );
    const r = await runCli(['run', REQUEST], dir, '', { RATES_TOKEN: TOKEN });
    expect(r.stderr).not.toContain('Traceback');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3 rates, last 1.102');
    expect(r.stdout).toMatch(new RegExp(`\\[Agent\\] 🔧 GET 127\\.0\\.0\\.1:${apiPort}/v1/rates → 200, 64 B, \\d+ ms`));
    expect(seen.at(-1)).toEqual({ url: '/v1/rates?quarter=2026Q4', authorization: `Bearer ${TOKEN}` });
    // the model was told the host and that credentials are added for it
    const system = fake.requests[0]!.messages[0]!.content;
    expect(system).toContain('no network except the tools below');
    expect(system).toContain(`HTTP: the program may fetch these hosts, and only these: 127.0.0.1:${apiPort}.`);
    expect(system).not.toContain(TOKEN);
    // the token is nowhere the user or the history can see: output, artifacts, the store
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    for (const f of filesUnder(join(dir, 'data'))) expect(readFileSync(f).includes(TOKEN), f).toBe(false);
    for (const req of fake.requests) expect(JSON.stringify(req.messages)).not.toContain(TOKEN);

    // kept with the attempt in the history
    const store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'data', 'history.sqlite')}`);
    const [run] = await store.listRuns('cli:local', 1);
    await store.close();
    expect(run!.attempts.at(-1)!.result!.toolCalls).toEqual([expect.objectContaining({ tool: 'http', ok: true, bytes: 64 })]);

    const json = await runCli(['run', '--json', REQUEST], dir, '', { RATES_TOKEN: TOKEN });
    expect(JSON.parse(json.stdout).toolCalls).toEqual([
      { tool: 'http', summary: expect.stringMatching(/^GET 127\.0\.0\.1:\d+\/v1\/rates → 200, 64 B, \d+ ms$/), ok: true, durationMs: expect.any(Number), bytes: 64 },
    ]);
  }, 120_000);
});
