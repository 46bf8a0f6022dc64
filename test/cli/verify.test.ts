/**
 * Verification end to end through the built `code-agent run`: the fake OpenAI server (real openai
 * client), the real sandbox, the contract's exit codes and `--json` fields.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, type CliResult } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { isCodeRequest, routedReplies, type RoutedScript } from '../helpers/verify-replies.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const PRIMES_REQUEST = 'compute the first 20 prime numbers and print them as a comma-separated list';
const PRIME_CHECKS = py('values = [int(v) for v in OUTPUT.strip().split(",")]\nassert len(values) == 20, "20 numbers"\nassert values[-1] == 71, "the 20th prime is 71"');
const PRIMES_BELOW_20 = py('print(",".join(str(p) for p in [2, 3, 5, 7, 11, 13, 17, 19]))');
const FIRST_20_PRIMES = py('ps = []\nn = 2\nwhile len(ps) < 20:\n    if all(n % p for p in ps):\n        ps.append(n)\n    n += 1\nprint(",".join(map(str, ps)))');

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
beforeAll(requireBuiltCli);

/** `code-agent run <args>` in a fresh folder (verify: checks, the default) against the fake server. */
async function cli(args: string[], script: RoutedScript, files: Record<string, string> = {}): Promise<CliResult & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cli-verify-'));
  fake = await startFakeOpenAi({ replies: [routedReplies(script)] });
  writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nsandbox:\n  timeout_s: 5\n`);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return { ...(await runCli(args, dir)), dir };
}

describe('code-agent run with verification (the default)', () => {
  it('first 20 primes: the check catches the primes below 20, the fix is confirmed, exit 0', async () => {
    const r = await cli(['run', PRIMES_REQUEST], { code: [PRIMES_BELOW_20, FIRST_20_PRIMES], checks: [PRIME_CHECKS] });
    expect(r.code).toBe(0);
    // the checks call is announced before it starts (on a local model it takes as long as the code)
    const lines = r.stdout.split('\n');
    expect(lines.indexOf('[Agent] Deriving checks from the request…')).toBeGreaterThan(-1);
    expect(lines.indexOf('[Agent] Deriving checks from the request…')).toBeLessThan(lines.indexOf('[Agent] Checks derived from the request: 2'));
    // the whole checks' source is shown: the asserts read `values`, which the line before them sets from OUTPUT
    const shown = lines.indexOf('[Agent] Checks derived from the request: 2');
    expect(lines.slice(shown + 1, shown + 4)).toEqual([
      '  values = [int(v) for v in OUTPUT.strip().split(",")]',
      '  assert len(values) == 20, "20 numbers"',
      '  assert values[-1] == 71, "the 20th prime is 71"',
    ]);
    expect(r.stdout).toContain('not confirmed: 2 of 2 checks failed: assert len(values) == 20, "20 numbers" (got 8, expected == 20)');
    expect(r.stdout).toContain('✗ assert values[-1] == 71, "the 20th prime is 71": got 19, expected == 71');
    expect(r.stdout).toContain('checks 2/2 passed');
    expect(r.stdout).toContain('[Agent] Success after 2 attempts');
  });

  it('the first answer is printed as not yet confirmed, and its verdict is said before the end', async () => {
    const r = await cli(['run', PRIMES_REQUEST], { code: [PRIMES_BELOW_20, FIRST_20_PRIMES], checks: [PRIME_CHECKS] });
    const lines = r.stdout.split('\n');
    const pending = lines.indexOf("[Agent] ⏳ Attempt 1's answer (above) is not yet confirmed: it is being checked.");
    expect(pending).toBeGreaterThan(lines.indexOf('2,3,5,7,11,13,17,19'));
    const verdict = lines.indexOf("[Agent] ↪️ Attempt 1's answer (above) was not confirmed: the run's answer is attempt 2's (below).");
    expect(verdict).toBeGreaterThan(pending);
    expect(lines[verdict + 1]).toBe('[Agent] Success after 2 attempts');
    expect(lines.filter((l) => l.includes('⏳'))).toHaveLength(1); // once per call, not per attempt
  });

  it('--json: an unconfirmed run is success with exit 0 as before, outcome "unverified", the checks and why', async () => {
    const r = await cli(['run', '--json', '--max-retries', '1', PRIMES_REQUEST], { code: [PRIMES_BELOW_20, py('print("2,3")')], checks: [PRIME_CHECKS] });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ success: true, outcome: 'unverified', attempts: 2, stdout: '2,3,5,7,11,13,17,19\n' }); // the kept attempt 1 is not counted twice
    expect(json.error).toMatch(/^2 of 2 checks failed/);
    expect(json.checks.asserts).toHaveLength(2);
    expect(json.checks.results[0]).toMatchObject({ passed: false, detail: 'got 8, expected == 20' });
    expect(r.stderr).toContain('[Agent] ⚠️ Ran, but not confirmed after 2 attempts');
  });

  it('a missing input file: stops at once and names the --file flag; with --file the same request works', async () => {
    const request = 'read the CSV file sales.csv (columns region, month, revenue) and print total revenue per region';
    const code = py('import pandas as pd\nprint(pd.read_csv("sales.csv").groupby("region")["revenue"].sum().to_dict())');
    const missing = await cli(['run', '--json', request], { code: [code] });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ outcome: 'failed', attempts: 1 });
    expect(JSON.parse(missing.stdout).error).toContain('attach sales.csv to your request (in a terminal: code-agent run --file sales.csv');
    expect(fake!.requests.filter(isCodeRequest)).toHaveLength(1);
    await fake!.close();

    const given = await cli(['run', '--json', '--file', 'sales.csv', request], { code: [code] }, { 'sales.csv': 'region,month,revenue\nN,1,10\nS,1,5\nN,2,7\n' });
    expect(given.code).toBe(0);
    expect(JSON.parse(given.stdout).stdout).toContain("{'N': 17, 'S': 5}");
    // the LLM is told the file by the name the program finds, with its profile (columns and types)
    const first = fake!.requests.filter(isCodeRequest)[0]!.messages[1]!.content;
    expect(first).toContain('(Input files available in the current working directory: sales.csv)');
    expect(first).toContain("columns: 'region' (str), 'month' (int), 'revenue' (int)");
  });

  it('--file names a missing path with exit 2, before any LLM call', async () => {
    const r = await cli(['run', '--file', 'nope.csv', 'sum the file'], { code: [py('print(1)')] });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--file nope.csv: no such file');
    expect(fake!.requests).toHaveLength(0);
  });

  it('requests.get: stops at once, says the sandbox has no network (requests is installed, as a dependency of Debian packages)', async () => {
    const r = await cli(['run', 'print the status code of https://example.com'], { code: [py('import requests\nprint(requests.get("https://example.com").status_code)')] });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Failed after 1 attempt: the program tried to reach the network, and the sandbox has no network/);
    expect(fake!.requests.filter(isCodeRequest)).toHaveLength(1);
  });

  it('identical code twice: not executed again, and the run stops when the model repeats itself', async () => {
    const r = await cli(['run', '--max-retries', '3', 'divide one by zero safely'], { code: [py('print(1 / 0)')] });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[Agent] Attempt 2 is the same program as attempt 1: not executed again');
    expect(r.stdout).toContain('repeated an earlier program twice and found no other fix');
    expect(r.stdout.match(/Executing code in the sandbox/g)).toHaveLength(1);
    expect(fake!.requests.filter(isCodeRequest)).toHaveLength(3);
  });
});
