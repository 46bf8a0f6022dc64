/**
 * Verification (agent.verify): checks derived from the requirement and run with the program, the
 * review of a successful run, retries that can help, and the honest `unverified` status. The real
 * openai client against the fake OpenAI server, the real sandbox.
 */
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type VerifyMode } from '../../src/agent/loop/index.js';
import type { AgentEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { isChecksRequest, isCodeRequest, routedReplies } from '../helpers/verify-replies.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const PRIMES_BELOW_20 = 'print(",".join(str(p) for p in [2, 3, 5, 7, 11, 13, 17, 19]))';
const FIRST_20_PRIMES =
  'ps = []\nn = 2\nwhile len(ps) < 20:\n    if all(n % p for p in ps):\n        ps.append(n)\n    n += 1\nprint(",".join(map(str, ps)))';
const PRIME_CHECKS = py(
  'values = [int(v) for v in OUTPUT.strip().split(",")]\nassert len(values) == 20, "20 numbers"\nassert values[-1] == 71, "the 20th prime is 71"',
);

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** An agent whose LLM answers code requests from `code`, checks requests with `checks`, reviews with `review`. */
async function setup(
  script: { code: FakeReply[]; checks?: string | string[]; review?: string[] },
  options: { verify?: VerifyMode; maxRetries?: number } = {},
) {
  fake = await startFakeOpenAi({ replies: [routedReplies({ ...script, checks: typeof script.checks === 'string' ? [script.checks] : script.checks })] });
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 5 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('verify-artifacts-'),
    maxRetries: options.maxRetries ?? 3,
    verify: options.verify ?? 'checks',
  });
  const events: AgentEvent[] = [];
  return { agent, fake, events, onEvent: (e: AgentEvent) => events.push(e), codeRequests: () => fake!.requests.filter(isCodeRequest) };
}

describe('checks derived from the requirement', () => {
  it('catches the silently wrong first 20 primes, feeds expected vs actual back, and confirms the fix', async () => {
    const { agent, events, onEvent, codeRequests } = await setup({ code: [py(PRIMES_BELOW_20), py(FIRST_20_PRIMES)], checks: PRIME_CHECKS });
    const run = await agent.run('cli:t', 'compute the first 20 prime numbers and print them as a comma-separated list', { onEvent });

    expect(run.status).toBe('success');
    expect(run.checks?.asserts).toEqual(['assert len(values) == 20, "20 numbers"', 'assert values[-1] == 71, "the 20th prime is 71"']);
    const first = run.attempts[0]!;
    expect(first.result?.success).toBe(true); // it ran…
    expect(first.result?.checks?.results[0]).toMatchObject({ passed: false, detail: 'got 8, expected == 20' }); // …but was wrong
    expect(run.attempts[1]!.result?.checks?.results.every((r) => r.passed)).toBe(true);
    const fix = codeRequests()[1]!.messages.at(-1)!.content;
    expect(fix).toContain('got 8, expected == 20');
    expect(fix).toContain('does exactly what the request asks');
    // the checks request saw the requirement, never the program
    const checksRequest = fake!.requests.find(isChecksRequest)!;
    expect(JSON.stringify(checksRequest.messages)).not.toContain('join(str(p)');
    expect(events.map((e) => e.type).filter((t) => t !== 'code_delta')).toEqual([
      'generating', 'generated', 'deriving_checks', 'checks', 'executing', 'executed', 'answer', 'improving',
      'generating', 'generated', 'executing', 'executed', 'done',
    ]);
  });

  it('keeps the best attempt and shows the run as unverified when no attempt passes the checks', async () => {
    const { agent } = await setup(
      { code: [py(PRIMES_BELOW_20), py('print(",".join(str(i) for i in range(20)))'), py('raise RuntimeError("worse")')], checks: PRIME_CHECKS },
      { maxRetries: 2 },
    );
    const run = await agent.run('cli:t', 'compute the first 20 prime numbers and print them as a comma-separated list');

    expect(run.status).toBe('unverified');
    expect(run.error).toBe('1 of 2 checks failed: assert values[-1] == 71, "the 20th prime is 71" (got 19, expected == 71)');
    // attempt 1 passed no check, attempt 2 one, attempt 3 crashed: attempt 2 is the run's answer,
    // appended as its last attempt (its result copied, not executed again)
    expect(run.attempts).toHaveLength(4);
    const last = run.attempts.at(-1)!;
    expect(last).toMatchObject({ trigger: 'rerun', keptFrom: 2, code: run.attempts[1]!.code });
    expect(last.result).toEqual(run.attempts[1]!.result);
  });

  it('never turns a crash into a pass: a program that fails is not checked', async () => {
    const { agent } = await setup({ code: [py('print("2,3,5")\nraise SystemExit(3)')], checks: py('assert True, "always"') }, { maxRetries: 0 });
    const run = await agent.run('cli:t', 'print primes');
    expect(run.status).toBe('failed');
    expect(run.attempts[0]!.result?.checks).toBeUndefined();
  });

  it('says the checks could not run when the program ends before them, and is not confirmed', async () => {
    const { agent } = await setup({ code: [py('import os\nprint("2,3,5")\nos._exit(0)')], checks: py('assert True, "always"') }, { maxRetries: 0 });
    const run = await agent.run('cli:t', 'print primes');
    expect(run.status).toBe('unverified');
    expect(run.error).toContain('the checks did not run');
  });

  it('writes broken checks again once (a helper they never defined), and re-runs the same program with them', async () => {
    const { agent, events, onEvent, codeRequests } = await setup({
      code: [py(FIRST_20_PRIMES)],
      checks: [py('assert OUTPUT.split(",") == prime_numbers(20), "the primes"'), PRIME_CHECKS],
    });
    const run = await agent.run('cli:t', 'compute the first 20 prime numbers and print them as a comma-separated list', { onEvent });
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1); // no code attempt spent on a broken check
    expect(codeRequests()).toHaveLength(1);
    expect(run.checks?.repairOf).toContain('uses prime_numbers, which neither the request nor the program defines');
    expect(events.filter((e) => e.type === 'executing')).toHaveLength(2);
  });

  it('writes checks again that took a word of the request for a function (NameError), and the right answer ends ✅ with one attempt', async () => {
    const { agent, codeRequests } = await setup({
      code: [py('import math\nprint(math.factorial(12))')],
      checks: [py('assert factorial(12) == 479001600, "12!"'), py('assert OUTPUT.strip() == "479001600", "12!"')],
    });
    const run = await agent.run('cli:t', 'compute the factorial of 12');
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
    expect(codeRequests()).toHaveLength(1);
    expect(run.checks?.repairOf).toContain('uses factorial');
  });

  it('keeps a NameError for a function the request names as the program\'s failure', async () => {
    const { agent } = await setup(
      { code: [py('def add(a, b):\n    return a + b'), py('def add_numbers(a, b):\n    return a + b')], checks: py('assert add_numbers(2, 3) == 5, "2 + 3"') },
      { maxRetries: 1 },
    );
    const run = await agent.run('cli:t', 'write a function add_numbers(a, b) that returns the sum');
    expect(run.status).toBe('success');
    expect(run.attempts[0]!.result?.checks?.results[0]).toMatchObject({ passed: false, detail: "NameError: name 'add_numbers' is not defined" });
    expect(run.checks?.repairOf).toBeUndefined();
  });

  it('derives the checks before the first execution even when the first reply had no code', async () => {
    const { agent, events, onEvent } = await setup({ code: ['Sure, I can do that.', py(PRIMES_BELOW_20), py(FIRST_20_PRIMES)], checks: PRIME_CHECKS });
    const run = await agent.run('cli:t', 'compute the first 20 prime numbers and print them as a comma-separated list', { onEvent });
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.result?.checks?.results.every((r) => r.passed))).toEqual([undefined, false, true]);
    expect(events.map((e) => e.type).indexOf('checks')).toBeLessThan(events.map((e) => e.type).indexOf('executing'));
  });

  it('compares OUTPUT without the final newline print adds, so print("hello world") passes OUTPUT == "hello world"', async () => {
    const { agent } = await setup({ code: [py('print("hello world")')], checks: py('assert OUTPUT == "hello world", "the greeting"') });
    const run = await agent.run('cli:t', 'print hello world');
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
  });

  it('ignores asserts that read nothing of the program (checks that make up their own data)', async () => {
    const { agent, codeRequests } = await setup({
      code: [py('import random\nxs = [random.random() for _ in range(100)]\nmean = sum(xs) / len(xs)\nprint("Mean:", mean)')],
      checks: py('import random\ndata = [random.gauss(50, 10) for _ in range(100)]\nmean = sum(data) / len(data)\nassert mean == 50, "mean is 50"'),
    });
    const run = await agent.run('cli:t', 'generate 100 random numbers and print their mean');
    expect(run.status).toBe('success');
    expect(codeRequests()).toHaveLength(1);
    expect(run.attempts[0]!.result?.checks).toMatchObject({ results: [], ignored: ['assert mean == 50, "mean is 50"'] });
  });

  it('confirms by exit code when nothing can be checked for certain', async () => {
    const { agent, events, onEvent } = await setup({ code: [py('import random\nprint(random.random())')], checks: '```python\n# no checks\n```' });
    const run = await agent.run('cli:t', 'print a random number', { onEvent });
    expect(run.status).toBe('success');
    expect(run.checks?.asserts).toEqual([]);
    expect(events.find((e) => e.type === 'checks')).toMatchObject({ asserts: [] });
  });

  it("checks a function on the request's doctest examples when the model writes no checks: a wrong one is caught, a right one that prints nothing is ✅", async () => {
    const request = [
      'def truncate_number(number: float) -> float:',
      '    """ Return the decimal part of the number.',
      '    >>> truncate_number(3.5)',
      '    0.5',
      '    >>> truncate_number(7.25)',
      '    0.25',
      '    """',
      '',
      "Show it working on the docstring's examples.",
    ].join('\n');
    const wrong = py('def truncate_number(number):\n    return round(number % 1, 1)');
    const right = py('def truncate_number(number):\n    return number - int(number)');
    const { agent } = await setup({ code: [wrong, right], checks: '```python\n# no checks\n```' });
    const run = await agent.run('cli:t', request);
    expect(run.checks?.asserts).toEqual([
      `assert truncate_number(3.5) == 0.5, "the request's example: truncate_number(3.5)"`,
      `assert truncate_number(7.25) == 0.25, "the request's example: truncate_number(7.25)"`,
    ]);
    // the first prints nothing, and 7.25 gives 0.2: judged by the example, not by its empty output
    expect(run.attempts[0]!.result?.checks?.results.map((r) => r.passed)).toEqual([true, false]);
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(2);
    expect(run.attempts[1]!.result?.stdout).toBe('');
  });

  it('checks that copy the function under test judge the program, not their copy', async () => {
    const request = 'def strlen(string: str) -> int:\n    """ Return length of given string\n    >>> strlen(\'abc\')\n    3\n    """\n';
    // the model's checks define strlen themselves (right), then assert on it: the program's is wrong
    const copying = py('def strlen(string):\n    return len(string)\n\nassert strlen("") == 0, "empty string"');
    const { agent } = await setup({ code: [py('def strlen(string):\n    return len(string) - 1')], checks: copying }, { maxRetries: 0 });
    const run = await agent.run('cli:t', request);
    expect(run.checks?.code).not.toContain('return len(string)');
    expect(run.attempts[0]!.result?.checks?.results).toMatchObject([
      { check: `assert strlen('abc') == 3, "the request's example: strlen('abc')"`, passed: false },
      { check: 'assert strlen("") == 0, "empty string"', passed: false },
    ]);
    expect(run.status).toBe('unverified');
  });

  it('derives the checks again after feedback and reports the asserts that were dropped', async () => {
    const { agent, events, onEvent } = await setup({
      code: [py('print("1,2,3")'), py('print("1 2 3")')],
      checks: [
        py('values = OUTPUT.strip().split(",")\nassert len(values) == 3, "three values"\nassert OUTPUT.count(",") == 2, "comma-separated"'),
        py('values = OUTPUT.split()\nassert len(values) == 3, "three values"'),
      ],
    });
    const run = await agent.run('cli:t', 'print 1, 2 and 3 as a comma-separated list');
    expect(run.status).toBe('success');
    const improved = await agent.improve(run, 'separate them with spaces instead', { onEvent });
    expect(improved.status).toBe('success');
    expect(improved.checks?.dropped).toEqual(['assert OUTPUT.count(",") == 2, "comma-separated"']);
    expect(events.find((e) => e.type === 'checks')).toMatchObject({ dropped: ['assert OUTPUT.count(",") == 2, "comma-separated"'] });
  });
});

describe('retries that can help', () => {
  it('stops when a new attempt fails the same checks with the same values (no progress)', async () => {
    const { agent, codeRequests } = await setup({ code: [py(PRIMES_BELOW_20), py('print(",".join(map(str, [2, 3, 5, 7, 11, 13, 17, 19])))')], checks: PRIME_CHECKS });
    const run = await agent.run('cli:t', 'compute the first 20 prime numbers and print them as a comma-separated list');
    expect(run.status).toBe('unverified');
    expect(codeRequests()).toHaveLength(2); // not 4: the third and fourth attempts were not spent
    expect(run.error).toBe('a new attempt failed the same checks in the same way (assert len(values) == 20, "20 numbers": got 8, expected == 20): no progress');
    expect(run.attempts.at(-1)).toMatchObject({ keptFrom: 1 });
  });

  it('never executes identical code twice: tells the model, samples differently, and stops on a second repeat', async () => {
    const same = py('print(1 / 0)');
    const { agent, events, onEvent, codeRequests } = await setup({ code: [same] }, { verify: 'off' });
    const run = await agent.run('cli:t', 'divide', { onEvent });

    expect(run.status).toBe('failed');
    expect(run.attempts.map((a) => a.repeatOf)).toEqual([undefined, 1, 1]);
    expect(run.attempts.filter((a) => a.result)).toHaveLength(1); // executed once
    expect(events.filter((e) => e.type === 'executing')).toHaveLength(1);
    expect(run.error).toContain('repeated an earlier program twice');
    expect(run.error).toContain('ZeroDivisionError');
    const requests = codeRequests();
    expect(requests).toHaveLength(3); // stopped before spending the third retry
    // after a repeat: a fresh conversation (no earlier program to copy), what failed, sampled at 0.8
    expect(requests[2]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(requests[2]!.messages[1]!.content).toContain('A first program for this request did not work');
    expect(requests[2]!.messages[1]!.content).toContain('ZeroDivisionError');
    expect(requests[2]!.body?.temperature).toBe(0.8);
  });

  it('stops at once and says to attach a missing input file the requirement names', async () => {
    const code = py('import pandas as pd\nprint(pd.read_csv("sales.csv").groupby("region").revenue.sum())');
    const { agent, codeRequests } = await setup({ code: [code] }, { verify: 'off' });
    const run = await agent.run('cli:t', 'read the CSV file sales.csv (columns region, month, revenue) and print total revenue per region');
    expect(run.status).toBe('failed');
    expect(run.attempts).toHaveLength(1);
    expect(codeRequests()).toHaveLength(1);
    expect(run.error).toContain('needs the file sales.csv, which was not given');
    expect(run.error).toContain('--file sales.csv');
  });

  it('does not stop for a missing file the request asks the program to create (reading it first is a bug to fix)', async () => {
    const { agent } = await setup({
      code: [py('print(len(open("results.txt").readlines()))'), py('open("results.txt", "w").write("x\\n" * 10)\nprint(len(open("results.txt").readlines()))')],
    }, { verify: 'off' });
    const run = await agent.run('cli:t', 'create a file results.txt with 10 lines, then read it back and print its line count');
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(2);
    expect(run.attempts[1]!.result?.stdout).toBe('10\n');
  });

  it('stops at once when the program needs a network module that is not installed', async () => {
    const { agent } = await setup({ code: [py('import yfinance\nprint(yfinance.Ticker("AAPL").info)')] }, { verify: 'off' });
    const run = await agent.run('cli:t', 'print the price of AAPL');
    expect(run.status).toBe('failed');
    expect(run.attempts).toHaveLength(1);
    expect(run.error).toMatch(/module yfinance, which is not installed, and the sandbox has no network/);
    expect(run.error).toMatch(/Available: Python's standard library and these packages: .*openpyxl, .*pandas/); // probed in the sandbox
  });

  it('stops at once when the program reaches for the network (requests is installed, the network is not)', async () => {
    const { agent } = await setup({ code: [py('import requests\nprint(requests.get("https://example.com").status_code)')] }, { verify: 'off' });
    const run = await agent.run('cli:t', 'print the status code of example.com');
    expect(run.status).toBe('failed');
    expect(run.attempts).toHaveLength(1);
    expect(run.error).toMatch(/tried to reach the network/);
  });

  it('gives a missing non-network module one rewrite, then stops when it is needed again', async () => {
    const { agent } = await setup({ code: [py('import polars\nprint(1)'), py('import polars as pl\nprint(2)')] }, { verify: 'off' });
    const run = await agent.run('cli:t', 'sum with polars');
    expect(run.attempts).toHaveLength(2);
    expect(run.status).toBe('failed');
    expect(run.error).toContain('the module polars, which is not installed');
    expect(run.error).toContain('sandbox.python_packages');
  });
});

describe('review', () => {
  it('turns a defect found in a successful run into an improve attempt', async () => {
    const { agent, events, onEvent, codeRequests } = await setup(
      { code: [py('print(sorted([3, 1, 2]))'), py('print(sorted([3, 1, 2], reverse=True))')], review: ['DEFECT: sorted ascending, expected descending [3, 2, 1]', 'OK'] },
      { verify: 'review' },
    );
    const run = await agent.run('cli:t', 'sort 3, 1, 2 in descending order and print the list', { onEvent });
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.trigger)).toEqual(['requirement', 'review']);
    expect(run.attempts[0]!.review).toMatchObject({ ok: false, defect: 'sorted ascending, expected descending [3, 2, 1]' });
    expect(codeRequests()[1]!.messages.at(-1)!.content).toContain('A reviewer found this defect');
    expect(events.filter((e) => e.type === 'reviewed').map((e) => (e as { ok: boolean }).ok)).toEqual([false, true]);
  });

  it('shows a run whose review still finds a defect after the retries as unverified, with the defect', async () => {
    const { agent } = await setup({ code: [py('print("a")'), py('print("b")')], review: ['DEFECT: prints a letter, expected a number'] }, { verify: 'review', maxRetries: 1 });
    const run = await agent.run('cli:t', 'print a number');
    expect(run.status).toBe('unverified');
    expect(run.error).toBe('the review found a defect: prints a letter, expected a number');
  });
});
