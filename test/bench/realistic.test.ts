/**
 * bench/realistic: every checker accepts the output of its request's reference program and rejects
 * the output of the subtly wrong one (both run in the real sandbox, bubblewrap + /usr/bin/python3,
 * with the request's attached files); one request end to end through the real agent and sandbox
 * against the fake OpenAI-compatible server, in-process and through the built command.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { evaluateRequest } from '../../bench/realistic/evaluate.js';
import { formatReport, type RealisticSummary } from '../../bench/realistic/report.js';
import { CLASSIC_REQUESTS, FILE_REQUESTS, REQUESTS, requestsOfKind } from '../../bench/realistic/requests.js';
import { parseRealisticArgs } from '../../bench/realistic/args.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import type { RealisticRequest } from '../../bench/realistic/types.js';
import { CountingProvider } from '../../bench/shared/counting-provider.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { makeExecutor, tempDir } from '../sandbox/helpers.js';

const executor = makeExecutor({ limits: { wallTimeS: 30, cpuTimeS: 30 } });
const reference = (id: string, variant: '' | '.wrong') =>
  readFileSync(new URL(`../../bench/realistic/reference/${id}${variant}.py`, import.meta.url), 'utf8');

async function verdictOf(request: RealisticRequest, code: string) {
  const result = await executor.execute(code, { inputFiles: request.inputFiles, artifactDir: tempDir('realistic-ref-') });
  expect(result.success, `${request.id}: ${result.stderr}`).toBe(true);
  return request.check({ stdout: result.stdout, artifacts: result.artifacts }, { executor });
}

describe('the realistic request set', () => {
  it('has the 34 classic requests of five kinds and at least 22 about input files, with unique ids', () => {
    expect(new Set(REQUESTS.map((r) => r.id)).size).toBe(REQUESTS.length);
    expect(CLASSIC_REQUESTS).toHaveLength(34);
    const kinds = new Map<string, number>();
    for (const r of CLASSIC_REQUESTS) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    expect([...kinds.keys()].sort()).toEqual(['arithmetic', 'data', 'date', 'plot', 'text']);
    for (const n of kinds.values()) expect(n).toBeGreaterThanOrEqual(5);
    expect(FILE_REQUESTS.length).toBeGreaterThanOrEqual(22);
    for (const r of FILE_REQUESTS) expect(r.kind, r.id).toBe('files');
    expect(REQUESTS).toEqual([...CLASSIC_REQUESTS, ...FILE_REQUESTS]);
  });

  it('every files request has input files of tens to hundreds of lines, small enough to attach', () => {
    const shapes = new Set<string>();
    for (const r of FILE_REQUESTS) {
      expect(r.inputFiles?.length, r.id).toBeGreaterThan(0);
      for (const f of r.inputFiles!) {
        shapes.add(f.name.split('.').at(-1)!);
        const lines = f.content.toString('utf8').trimEnd().split('\n').length;
        expect(lines, `${r.id}: ${f.name}`).toBeGreaterThanOrEqual(20);
        expect(f.content.length, `${r.id}: ${f.name}`).toBeLessThan(100_000);
      }
    }
    expect([...shapes].sort()).toEqual(['csv', 'json', 'jsonl', 'log', 'tsv']);
    // nested JSON whose records sit under a key, pretty-printed: the first line is only "{"
    const json = FILE_REQUESTS.find((r) => r.id === 'json-country-most-items')!.inputFiles![0]!.content.toString('utf8');
    expect(json.split('\n')[0]).toBe('{');
    expect(Array.isArray((JSON.parse(json) as { orders: unknown }).orders)).toBe(true);
  });

  it('--kind selects the classic set, the files set or one kind; a bad kind is a usage error', () => {
    expect(requestsOfKind('classic')).toEqual(CLASSIC_REQUESTS);
    expect(requestsOfKind('files')).toEqual(FILE_REQUESTS);
    expect(requestsOfKind('date').every((r) => r.kind === 'date')).toBe(true);
    expect(requestsOfKind('all')).toEqual(REQUESTS);
    expect(parseRealisticArgs(['--kind', 'files']).kind).toBe('files');
    expect(parseRealisticArgs([]).kind).toBe('all');
    expect(() => parseRealisticArgs(['--kind', 'csv'])).toThrow(/--kind: one of all, classic, files/);
    expect(parseRealisticArgs(['--ids', 'tsv-reorder, first-20-primes']).ids).toEqual(['tsv-reorder', 'first-20-primes']);
    expect(parseRealisticArgs([]).ids).toBeUndefined();
    expect(() => parseRealisticArgs(['--ids', 'tsv-reorder,no-such-request'])).toThrow('--ids: no request has the id no-such-request');
    expect(() => parseRealisticArgs(['--ids', ' , '])).toThrow('--ids: give request ids separated by commas');
  });

  describe.each(REQUESTS.map((r) => [r.id, r] as const))('%s', (_id, request) => {
    it('passes the reference program and fails the wrong one', { timeout: 120_000 }, async () => {
      const good = await verdictOf(request, reference(request.id, ''));
      expect(good, good.reason).toMatchObject({ pass: true });
      const wrong = await verdictOf(request, reference(request.id, '.wrong'));
      expect(wrong.pass, `the wrong program passed: ${wrong.reason}`).toBe(false);
    });
  });

  it('fails a run that printed nothing and returned no file', async () => {
    for (const request of REQUESTS) {
      expect((await request.check({ stdout: '', artifacts: [] }, { executor })).pass, request.id).toBe(false);
    }
  });
});

describe('checkers read answers in the layouts programs print them', () => {
  const check = (id: string, stdout: string) => REQUESTS.find((r) => r.id === id)!.check({ stdout, artifacts: [] }, { executor });

  it('accepts other layouts of a right answer and rejects a wrong order or value in them', async () => {
    expect(await check('top-5-words', "[('the', 21), ('launch', 7), ('team', 6), ('app', 5), ('data', 4)]")).toMatchObject({ pass: true });
    expect(await check('top-5-words', "[('the', 21), ('team', 6), ('launch', 7), ('app', 5), ('data', 4)]")).toMatchObject({ pass: false });
    expect(await check('compound-interest', 'You will have $13,694.52 after 7 years.')).toMatchObject({ pass: true });
    expect(await check('compound-interest', 'You will have $13,694.5226 after 7 years.')).toMatchObject({ pass: false });
    const resampled = ['timestamp', ...['08:00:00    2', '09:00:00    3', '10:00:00    1', '11:00:00    1', '12:00:00    2', '13:00:00    1'].map((t) => `2024-06-03 ${t}`)];
    expect(await check('errors-per-hour', resampled.join('\n'))).toMatchObject({ pass: true });
    expect(await check('errors-per-hour', resampled.join('\n').replace('08:00:00    2', '08:00:00    3'))).toMatchObject({ pass: false });
    expect(await check('revenue-by-region', 'region\nEast     3107.56\nWest     2126.26\nNorth    1886.93\nSouth    1183.53\nName: revenue, dtype: float64')).toMatchObject({ pass: true });
    expect(await check('iso-week-number', 'IsoCalendarDate(year=2025, week=1, weekday=1)')).toMatchObject({ pass: true });
    expect(await check('iso-week-number', 'Week number of 2024-12-30: 53')).toMatchObject({ pass: false });
  });

  it('reads the files requests in other layouts: German amounts, unrounded floats, log or offset timestamps', async () => {
    expect(await check('semicolon-branch-totals', 'Berlin: 37.218,21\nHamburg: 27.138,48\nMünchen: 20.678,10\nKöln: 16.136,67')).toMatchObject({ pass: true });
    expect(await check('semicolon-branch-totals', 'Berlin: 37.218,21\nMünchen: 20.678,10\nHamburg: 27.138,48\nKöln: 16.136,67')).toMatchObject({ pass: false });
    expect(await check('jsonl-buyers-total', 'buyers: 24\ntotal: 4286.639999999999')).toMatchObject({ pass: true });
    expect(await check('jsonl-buyers-total', 'buyers: 45\ntotal: 4286.64')).toMatchObject({ pass: false });
    const hours = [7, 8, 12, 7, 14, 6, 4, 10, 9, 10, 10, 5];
    const asLog = hours.map((n, i) => `03/Jun/2024:${String(i + 6).padStart(2, '0')}    ${n}`).join('\n');
    expect(await check('access-api-per-hour', asLog)).toMatchObject({ pass: true });
    expect(await check('access-api-per-hour', asLog.replace('    14', '    20'))).toMatchObject({ pass: false });
    const days = ['2024-03-04 00:00:00+00:00    25', '2024-03-05 00:00:00+00:00    18', '2024-03-06 00:00:00+00:00    25', '2024-03-07 00:00:00+00:00    19', '2024-03-08 00:00:00+00:00    23'];
    expect(await check('tz-signups-per-day-utc', `signed_up_at\n${days.join('\n')}`)).toMatchObject({ pass: true });
    expect(await check('tz-signups-per-day-utc', `${days.join('\n')}\n2024-03-09 00:00:00+00:00    1`)).toMatchObject({ pass: false });
    // one labelled value per line, as the agent asks: the value on the line after the name's
    expect(await check('noheader-top-scorer', 'Name: Amira\nScore: 97')).toMatchObject({ pass: true });
    expect(await check('noheader-top-scorer', 'Name: Amira\nScore: 95')).toMatchObject({ pass: false });
    expect(await check('noheader-top-scorer', 'Name: Amira 2\nScore: 97')).toMatchObject({ pass: false });
  });
});

describe('one request end to end (real agent and sandbox, fake OpenAI server)', () => {
  const primes = REQUESTS.find((r) => r.id === 'first-20-primes')!;
  const py = (code: string) => `\`\`\`python\n${code}\n\`\`\`\n`;
  const crashes = 'print(", ".join(map(str, first_primes(20))))';
  let fake: FakeOpenAi | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function evaluate(replies: FakeReply[]): Promise<RealisticSummary> {
    fake = await startFakeOpenAi({ replies });
    const llm = new CountingProvider(new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }));
    const agent = new Agent({ llm, executor, store: new KeyvHistoryStore(new Map()), artifactRoot: tempDir(), maxRetries: 3, verify: 'off' });
    const result = await evaluateRequest({ agents: [{ verify: 'off', agent }], llm, executor, retries: 3, separate: false }, primes);
    return { provider: llm.name, retries: 3, verify: ['off'], separate: false, results: [result], timings: [] };
  }

  it('scores a crash fixed by the loop: wrong at retries 0 (❌), right at retries 3', { timeout: 60_000 }, async () => {
    const summary = await evaluate([py(crashes), py(reference('first-20-primes', ''))]);
    const [{ base, fixed }] = summary.results[0]!.byVerify;
    expect(base).toMatchObject({ pass: false, status: 'failed', calls: 1, attempts: 1 });
    expect(fixed).toMatchObject({ pass: true, status: 'success', calls: 2, attempts: 2 });
    expect(fixed.tokens).toBeGreaterThan(base.tokens);
    expect(fake!.requests[0]!.messages.at(-1)!.content).toBe(primes.requirement);
    const report = formatReport(summary);
    expect(report).toContain('Realistic requests: 1 requests (arithmetic 1), provider openai:fake-model');
    expect(report).toMatch(/verify off, retries 0 +0\/1 \(0\.0%\) +0 \(0\.0%; - of ✅\) +0 \(0 wrong\) +1 \(0 right\) /);
    expect(report).toMatch(/verify off, retries 3 +1\/1 \(100\.0%\) +0 \(0\.0%; 0\.0% of ✅\) +0 \(0 wrong\) +0 \(0 right\) .* 2\.00$/m);
    expect(report).toContain('turned a wrong answer into a right one 1 times, a right one into a wrong one 0 times');
    expect(report).toMatch(/^first-20-primes +FAIL ❌ +pass$/m);
  });

  it('counts a wrong answer shown as ✅ as a silent failure, whatever the run says', { timeout: 60_000 }, async () => {
    const summary = await evaluate([py(reference('first-20-primes', '.wrong'))]);
    const [{ base, fixed }] = summary.results[0]!.byVerify;
    expect(fixed).toMatchObject({ pass: false, status: 'success', calls: 1 });
    expect(base).toEqual(fixed);
    expect(fake!.requests).toHaveLength(1); // the fix loop never engaged
    const report = formatReport(summary);
    expect(report).toMatch(/verify off, retries 3 +0\/1 \(0\.0%\) +1 \(100\.0%; 100\.0% of ✅\)/);
    expect(report).toContain('✅ but wrong with verify off, retries 0: first-20-primes (no line holding exactly the first 20 primes');
    expect(report).toContain('✅ but wrong with verify off, retries 3: the same 1 as with verify off, retries 0');
    // one line per request: each setting's outcome, and why the last one failed
    expect(report).toMatch(/^first-20-primes +FAIL ✅ +FAIL ✅ +no line holding exactly the first 20 primes/m);
    // a run with max_retries 0 is its own first attempt: one row, no fix-loop figures
    const single = formatReport({ ...summary, retries: 0 });
    expect(single.match(/^verify off, retries 0 /gm)).toHaveLength(1);
    expect(single).toContain('no fix loop (max_retries 0)');
    expect(single).not.toContain('turned a wrong answer');
  });

  it('a files request reaches the model exactly as `code-agent run --file` sends it', { timeout: 90_000 }, async () => {
    requireBuiltCli();
    const join2 = FILE_REQUESTS.find((r) => r.inputFiles!.length === 2)!;
    const answer = py(reference(join2.id, ''));
    fake = await startFakeOpenAi({ replies: [answer] });
    const llm = new CountingProvider(new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }));
    const agent = new Agent({ llm, executor, store: new KeyvHistoryStore(new Map()), artifactRoot: tempDir(), maxRetries: 0, verify: 'off' });
    const result = await evaluateRequest({ agents: [{ verify: 'off', agent }], llm, executor, retries: 0, separate: false }, join2);
    expect(result.byVerify[0]!.fixed).toMatchObject({ pass: true, status: 'success' });
    const fromBench = fake.requests[0]!.messages;
    await fake.close();

    fake = await startFakeOpenAi({ replies: [answer] });
    const dir = tempDir('realistic-cli-');
    writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: 'off'\n  max_retries: 0\nsandbox:\n  timeout_s: 10\n`);
    for (const f of join2.inputFiles!) writeFileSync(join(dir, f.name), f.content);
    const files = join2.inputFiles!.flatMap((f) => ['--file', f.name]);
    const cli = await runCli(['run', '--json', ...files, join2.requirement], dir);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ success: true });
    expect(fake.requests[0]!.messages).toEqual(fromBench);
    expect(fromBench.at(-1)!.content).toContain(join2.inputFiles![1]!.name);
  });

  it('the built bench runs it from the command line, keeps --json and merges it', { timeout: 90_000 }, async () => {
    fake = await startFakeOpenAi({ replies: [py(reference('first-20-primes', '.wrong'))] });
    const json = join(tempDir(), 'one.json');
    const offset = String(REQUESTS.indexOf(primes));
    const args = ['--base-url', fake.url, '--model', 'fake-model', '--verify', 'off', '--retries', '1', '--offset', offset, '--limit', '1', '--json', json];
    const { stdout, stderr } = await node(['dist/bench/realistic.js', ...args]);
    expect(stderr).toContain('[1/1] first-20-primes (arithmetic): verify off: r0 FAIL ✅silent, r1 FAIL ✅silent');
    expect(stdout).toMatch(/verify off, retries 1 +0\/1 \(0\.0%\) +1 \(100\.0%; 100\.0% of ✅\)/);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as RealisticSummary;
    expect(saved.results.map((r) => r.id)).toEqual(['first-20-primes']);
    expect((await node(['dist/bench/realistic.js', '--merge', json])).stdout).toBe(stdout);
    // --ids keeps the results of those requests only
    const other = join(tempDir(), 'only.json');
    await node(['dist/bench/realistic.js', '--merge', json, '--ids', 'tsv-reorder', '--json', other]);
    expect((JSON.parse(readFileSync(other, 'utf8')) as RealisticSummary).results).toEqual([]);
    const same = join(tempDir(), 'same.json');
    await node(['dist/bench/realistic.js', '--merge', json, '--ids', 'first-20-primes', '--json', same]);
    expect(JSON.parse(readFileSync(same, 'utf8'))).toEqual(saved);
    const usage = await node(['dist/bench/realistic.js', '--verify', 'maybe']).catch((err: { code: number; stderr: string }) => err);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringMatching(/^realistic: --verify: one of off, checks, review, both, got maybe/) });
  });
});

function node(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, (err, stdout, stderr) => (err ? reject(Object.assign(err, { stdout, stderr })) : resolve({ stdout, stderr }))),
  );
}
