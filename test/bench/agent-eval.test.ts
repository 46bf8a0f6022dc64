/**
 * bench/agent-eval: one HumanEval problem through the real agent (fake OpenAI-compatible server,
 * real sandbox) and the hidden tests, the report's counts, and merging shard summaries.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { parseEvalArgs } from '../../bench/agent-eval/args.js';
import { loadProblems, type Problem } from '../../bench/agent-eval/dataset.js';
import { UsageError } from '../../bench/shared/errors.js';
import { evaluateProblem, type ProblemResult } from '../../bench/agent-eval/evaluate.js';
import { mergeSummaries, readSummaries } from '../../bench/agent-eval/merge.js';
import { formatReport, type EvalSummary } from '../../bench/agent-eval/report.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { makeExecutor, tempDir } from '../sandbox/helpers.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\`\n`;
const problem: Problem = loadProblems().find((p) => p.task_id === 'HumanEval/0')!;
const solution = `${problem.prompt}${problem.canonical_solution}\nprint(has_close_elements([1.0, 2.0, 3.0], 0.5))`;
/** Runs cleanly, prints something plausible, but is wrong: the agent sees a success. */
const silentlyWrong = `${problem.prompt}    return False\nprint(has_close_elements([1.0, 2.0, 3.0], 0.5))`;
const crashes = `${problem.prompt}    return undefined_helper(numbers)\nprint(has_close_elements([1.0, 2.0, 3.0], 0.5))`;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function evaluate(replies: FakeReply[], separate = false): Promise<ProblemResult> {
  fake = await startFakeOpenAi({ replies });
  const executor = makeExecutor({ limits: { wallTimeS: 10, cpuTimeS: 10 } });
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor,
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir(),
    maxRetries: 3,
    verify: 'off',
  });
  return evaluateProblem(agent, executor, problem, { retries: 3, separate, workDir: tempDir() });
}

const summaryOf = (results: ProblemResult[], over: Partial<EvalSummary> = {}): EvalSummary => ({
  provider: 'fake',
  retries: 3,
  separate: false,
  examples: 'show',
  results,
  timings: [],
  ...over,
});

describe('agent-eval on a HumanEval problem', () => {
  it('counts a crash repaired by the fix loop as a failure turned into a pass', { timeout: 30_000 }, async () => {
    const r = await evaluate([py(crashes), py(solution)]);
    expect(r.taskId).toBe('HumanEval/0');
    expect(r.base).toMatchObject({ pass: false, attempts: 1 });
    expect(r.fixed).toMatchObject({ pass: true, attempts: 2 });
    expect(r.fixed.tokens).toBeGreaterThan(r.base.tokens);
    // the requirement is the prompt plus the ask to show the docstring's examples
    expect(fake!.requests[0]!.messages.at(-1)!.content).toContain("show it working on the docstring's examples");
    const report = formatReport(summaryOf([r]));
    expect(report).toContain('turned a failure into a pass: 1 of 1 first-attempt failures (100.0%)');
    expect(report).toMatch(/max_retries 0 +0\/1 \(0\.0%\)/);
    expect(report).toMatch(/max_retries 3 +1\/1 \(100\.0%\)/);
  });

  it('fails a silently wrong function on the hidden tests although the run succeeded', { timeout: 30_000 }, async () => {
    const r = await evaluate([py(silentlyWrong)]);
    expect(r.fixed).toMatchObject({ pass: false, attempts: 1 });
    expect(r.base.pass).toBe(false);
    expect(fake!.requests).toHaveLength(1); // the fix loop never engaged
  });

  it('runs max_retries 0 on its own with --separate', { timeout: 30_000 }, async () => {
    const r = await evaluate([py(solution), py(silentlyWrong)], true);
    expect(r.fixed.pass).toBe(true);
    expect(r.base.pass).toBe(false);
    expect(fake!.requests).toHaveLength(2);
  });
});

describe('merging shard summaries', () => {
  const result = (taskId: string, base: boolean, fixed: boolean): ProblemResult => ({
    taskId,
    base: { pass: base, tokens: 100, seconds: 1, attempts: 1 },
    fixed: { pass: fixed, tokens: fixed === base ? 100 : 300, seconds: 2, attempts: fixed === base ? 1 : 2 },
  });

  it('reports the shards as one run, in order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-merge-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, JSON.stringify(summaryOf([result('HumanEval/0', true, true), result('HumanEval/1', false, true)])));
    writeFileSync(b, JSON.stringify(summaryOf([result('HumanEval/2', false, false)])));
    const merged = mergeSummaries(readSummaries([a, b]));
    expect(merged.results.map((r) => r.taskId)).toEqual(['HumanEval/0', 'HumanEval/1', 'HumanEval/2']);
    const report = formatReport(merged);
    expect(report).toContain('3 problems');
    expect(report).toContain('turned a failure into a pass: 1 of 2 first-attempt failures (50.0%)');
    expect(report).toContain('gain: +1 solved (33.3% → 66.7%)');
    // HumanEval/1 needed 300 tokens with the fix loop: not solved within 200, solved within 500
    expect(report).toMatch(/≤ 500 +1\/3 \(33\.3%\) +2\/3 \(66\.7%\)/);
  });

  it('cuts a fix loop off at the token budget', () => {
    const results = [result('HumanEval/0', false, true)];
    results[0]!.fixed.tokens = 1500;
    const report = formatReport(summaryOf(results));
    expect(report).toMatch(/≤ 1000 +0\/1 \(0\.0%\) +0\/1 \(0\.0%\)/);
    expect(report).toMatch(/≤ 2000 +0\/1 \(0\.0%\) +1\/1 \(100\.0%\)/);
  });

  it('refuses shards run with different settings, or overlapping', () => {
    const a = { file: 'a.json', summary: summaryOf([result('HumanEval/0', true, true)]) };
    const b = { file: 'b.json', summary: summaryOf([result('HumanEval/1', true, true)], { examples: 'assert' }) };
    expect(() => mergeSummaries([a, b])).toThrow('--merge: b.json has examples "assert", but a.json has "show"');
    expect(() => mergeSummaries([a, { ...a, file: 'c.json' }])).toThrow('HumanEval/0 is in both a.json and c.json');
    expect(() => readSummaries([join(tmpdir(), 'no-such-eval.json')])).toThrow(/cannot read .*no-such-eval\.json/);
  });

  it('parses --merge and rejects stray arguments', () => {
    expect(parseEvalArgs(['--merge', 'a.json', 'b.json']).merge).toEqual(['a.json', 'b.json']);
    expect(() => parseEvalArgs(['--merge'])).toThrow('--merge: give the --json files');
    expect(() => parseEvalArgs(['a.json'])).toThrow('unexpected argument a.json');
    expect(() => parseEvalArgs(['--limit', 'ten'])).toThrow('--limit: expected a whole number, got ten');
    expect(() => parseEvalArgs(['--bogus'])).toThrow(UsageError);
  });
});

describe('the dataset and usage errors', () => {
  it('loads the 164 problems kept in the repo', () => {
    const problems = loadProblems();
    expect(problems).toHaveLength(164);
    expect(problems.at(-1)!.task_id).toBe('HumanEval/163');
  });

  it('names the file and the line of a bad dataset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-data-'));
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"task_id":"x"}\n{oops\n');
    expect(() => loadProblems(bad)).toThrow(UsageError);
    expect(() => loadProblems(bad)).toThrow(`${bad}:2: not a JSON line`);
    expect(() => loadProblems(join(dir, 'none.jsonl.gz'))).toThrow(`HumanEval dataset not found at ${join(dir, 'none.jsonl.gz')}`);
  });

  it('the built bench prints a usage error as one line and exits 2', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, ['dist/bench/agent-eval.js', ...args], (err, _stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
        );
      });
    for (const args of [['--dataset', '/nonexistent/HumanEval.jsonl.gz'], ['--merge', '/nonexistent/a.json'], ['--bogus']]) {
      const { code, stderr } = await run(args);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^agent-eval: /);
      expect(stderr).not.toContain('    at ');
    }
  });
});

describe('the built bench against an OpenAI-compatible server', () => {
  it('keeps every finished problem in --json when stopped mid-run, and --merge reports them', { timeout: 60_000 }, async () => {
    const first = loadProblems()[0]!;
    fake = await startFakeOpenAi({ replies: [py(`${first.prompt}${first.canonical_solution}`), { hang: true }] });
    const json = join(tempDir(), 'partial.json');
    const bench = spawn(process.execPath, ['dist/bench/agent-eval.js', '--base-url', fake.url, '--model', 'fake-model', '--limit', '2', '--verify', 'off', '--json', json], {
      stdio: 'ignore',
    });
    try {
      const deadline = Date.now() + 45_000;
      while (!(existsSync(json) && fake.requests.length >= 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(fake.requests).toHaveLength(2); // the second problem's request hangs
    } finally {
      bench.kill('SIGKILL');
    }
    const partial = JSON.parse(readFileSync(json, 'utf8')) as EvalSummary;
    expect(partial.results.map((r) => [r.taskId, r.base.pass, r.fixed.pass])).toEqual([['HumanEval/0', true, true]]);
    const report = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['dist/bench/agent-eval.js', '--merge', json], (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    expect(report).toContain('1 problems, provider openai:fake-model');
    expect(report).toMatch(/max_retries 0 +1\/1 \(100\.0%\)/);
  });
});
