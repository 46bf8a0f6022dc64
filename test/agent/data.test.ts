/**
 * Runs on input files, end to end: the real openai client against the fake OpenAI server, the real
 * sandbox. The profile is in the prompt, the data goes back after a failure on its structure, checks
 * come in the code's reply, and an answer no check can pin is compared with independent programs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import type { AgentEvent, AgreementEvent, ProfiledEvent } from '../../src/agent/run/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';
import { FROM_FIELDS_INSTRUCTION, INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/agreement.js';
import { DATA_ANSWER_INSTRUCTION, PERIOD_INSTRUCTION } from '../../src/agent/replies/prompts.js';
import { NOTHING_PRINTED_FEEDBACK, ONLY_MISSING_FEEDBACK } from '../../src/agent/loop/conversation.js';
import { PRINTED_NOTHING, PRINTED_NOTHING_AT_ALL, PRINTED_ONLY_MISSING } from '../../src/agent/verification/verdict.js';
import { NO_CHART_FEEDBACK } from '../../src/agent/requirements/index.js';
import { HISTORY_STREAM_CHARS } from '../../src/agent/run/kept-output.js';
import { readFileSync } from 'node:fs';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const withChecks = (code: string, checks: string) => `${py(code)}\n\nChecks:\n\`\`\`checks\n${checks}\n\`\`\``;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const isIndependent = (r: FakeRequest) => r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false;
const isAttempt = (r: FakeRequest) => !isIndependent(r) && !isChecksRequest(r);

/** An agent whose LLM answers attempts from `code`, independent programs from `independent`, checks requests from `checks`. */
async function setup(script: { code: string[]; independent?: string[]; checks?: string[] }, maxRetries = 3) {
  const next = { code: 0, independent: 0, checks: 0 };
  const pick = (list: string[], kind: keyof typeof next) => list[Math.min(next[kind]++, list.length - 1)]!;
  fake = await startFakeOpenAi({
    replies: [],
    respond: (req) =>
      isIndependent(req) ? pick(script.independent ?? ['(none)'], 'independent') : isChecksRequest(req) ? pick(script.checks ?? ['# no checks'], 'checks') : pick(script.code, 'code'),
  });
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('data-artifacts-'),
    maxRetries,
  });
  const events: AgentEvent[] = [];
  return { agent, fake, events, onEvent: (e: AgentEvent) => events.push(e) };
}

const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });

/** An agent with verification off against the fake LLM at `url`. */
const verifyOffAgent = (url: string, maxRetries?: number) =>
  new Agent({
    llm: new OpenAiProvider({ baseUrl: url, model: 'fake-model', maxRetries: 0 }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('data-artifacts-'),
    verify: 'off',
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  });

// A1: nested JSON under a top-level key, pretty-printed (its first line is `{`)
const ORDERS = JSON.stringify(
  {
    orders: [
      { id: 1, customer: { country: 'NO' }, lines: [{ sku: 'a', qty: 2 }, { sku: 'b', qty: 5 }] },
      { id: 2, customer: { country: 'SE' }, lines: [{ sku: 'a', qty: 3 }] },
      { id: 3, customer: { country: 'SE' }, lines: [{ sku: 'c', qty: 1 }] },
    ],
  },
  null,
  2,
);
const FLAT_GUESS = 'import json\ndata = json.load(open("orders.json"))\ntotals = {}\nfor o in data:\n    c = o["customer"]["country"]\n    totals[c] = totals.get(c, 0) + sum(l["qty"] for l in o["lines"])\nprint(max(totals, key=totals.get))';
const RIGHT_ORDERS = FLAT_GUESS.replace('for o in data:', 'for o in data["orders"]:');

// A2: an access log; the wrong regex counts the size column too
const LOG = Array.from({ length: 40 }, (_, i) => {
  const status = [200, 404, 500, 403, 301][i % 5]!;
  const bytes = i % 2 === 0 ? 404 : 1200 + i; // sizes that look like a 4xx status
  return `10.0.0.${i % 7} - - [10/Oct/2024:13:55:${String(i).padStart(2, '0')} +0000] "GET /p${i} HTTP/1.1" ${status} ${bytes} "-" "curl/8"`;
}).join('\n') + '\n';
const WRONG_COUNT = 'import re\nprint(len(re.findall(r" 4\\d\\d ", open("access.log").read())))';
const RIGHT_COUNT =
  'import re\nn = 0\nfor line in open("access.log"):\n    m = re.match(r\'^(\\S+) \\S+ \\S+ \\[[^\\]]+\\] "[^"]*" (\\d{3}) \', line)\n    if m and m.group(2).startswith("4"):\n        n += 1\nprint(n)';

describe('the agent looks at the data', () => {
  it('A1: shows the nested structure with the request, and the data again after a failure on it', async () => {
    const { agent, fake, events, onEvent } = await setup({ code: [py(FLAT_GUESS), py(RIGHT_ORDERS)], independent: [py(RIGHT_ORDERS)] });
    const run = await agent.run('cli:t', 'Which country ordered the most items?', { inputFiles: [file('orders.json', ORDERS)], onEvent });

    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.result?.stdout.trim())).toEqual(['', 'NO']);
    const attempts = fake.requests.filter(isAttempt);
    // the profile is in the first user message of every attempt
    for (const req of attempts) {
      expect(req.messages[1]!.content).toContain('--- orders.json: JSON');
      expect(req.messages[1]!.content).toContain('record shape: {id: int, customer: {country: str}, lines: [{sku: str, qty: int}]}');
    }
    // the failure on the structure comes back with the data's profile
    const fix = attempts[1]!.messages.at(-1)!.content;
    expect(fix).toContain('TypeError: string indices must be integers');
    expect(fix).toContain('The failure is about the structure of the input data');
    expect(fix).toContain("records: data['orders'], a list of 3 objects");
    const profiled = events.find((e): e is ProfiledEvent => e.type === 'profiled')!;
    expect(profiled.files).toEqual([{ name: 'orders.json', summary: 'object with key "orders": 3 records {id, customer{country}, lines[{sku, qty}]}' }]);
    expect(events.findIndex((e) => e.type === 'profiled')).toBeLessThan(events.findIndex((e) => e.type === 'generating'));
    // no check could pin "NO": an independent program, given no program, agreed
    expect(run.agreement).toMatchObject({ outcome: 'agreed', attempt: 2 });
    expect(fake.requests.filter(isIndependent)[0]!.messages.map((m) => m.content).join('\n')).not.toContain('for o in data');
    // on files, the independent program is steered to parse the records into their fields
    expect(fake.requests.filter(isIndependent)[0]!.messages.at(-1)!.content).toContain(FROM_FIELDS_INSTRUCTION);
  });

  it('A2: a wrong count that two independent programs contradict ends ⚠️ with both values, never ✅', async () => {
    const { agent, fake, events, onEvent } = await setup({ code: [py(WRONG_COUNT)], independent: [py(RIGHT_COUNT), py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)], onEvent });

    expect(fake.requests[0]!.messages[1]!.content).toContain('format: Apache/nginx combined log');
    expect(run.status).toBe('unverified');
    const wrong = run.attempts[0]!.result!.stdout.trim();
    expect(wrong).not.toBe('16');
    expect(run.error).toBe(`two independent programs printed «16» where this one printed «${wrong}»; two against one: their answer is the run's answer, unconfirmed (the attempt's is candidate 2)`);
    expect(run.attempts.at(-1)!.result!.stdout.trim()).toBe('16'); // their answer is the run's, unconfirmed
    const agreement = events.find((e): e is AgreementEvent => e.type === 'agreement')!;
    expect(agreement).toMatchObject({ outcome: 'disagreed', answer: wrong, others: ['16', '16'] });
    expect(fake.requests.filter(isAttempt)).toHaveLength(1); // no attempt spent: the same model cannot say which is right
  });

  it('B2: the same program printing more than the run record keeps agrees with itself (the whole outputs are compared, not the kept cut)', async () => {
    // 3,000 lines of distinct values: longer than HISTORY_STREAM_CHARS, so the record keeps head and tail only
    const long = 'rows = [l.split(",") for l in open("ids.csv").read().split()][1:]\nfor r in rows:\n    print(r[0], int(r[1]) * 7)';
    const ids = `id,n\n${Array.from({ length: 3000 }, (_, i) => `k${i},${i}`).join('\n')}\n`;
    const { agent } = await setup({ code: [py(long)], independent: [py(long)] });
    const run = await agent.run('cli:t', 'multiply n by 7 for every id in ids.csv', { inputFiles: [file('ids.csv', ids)] });
    const kept = run.attempts[0]!.result!;
    expect(kept.stdout.length).toBeLessThan(HISTORY_STREAM_CHARS + 200); // the record holds a cut…
    expect(readFileSync(kept.fullOutput!.stdout!, 'utf8').length).toBeGreaterThan(HISTORY_STREAM_CHARS); // …and the whole beside it
    expect(run.agreement).toMatchObject({ outcome: 'agreed' });
    expect(run.status).toBe('success');
  });

  it('B2: two programs printing the same 1,800 backticks agree: equal outputs are the same answer whatever they are made of', async () => {
    const ticks = 'print(open("t.txt").read().strip() * 1800)';
    const { agent } = await setup({ code: [py(ticks)], independent: [py(ticks)] });
    const run = await agent.run('cli:t', 'print the character in t.txt 1800 times', { inputFiles: [file('t.txt', '`\n')] });
    expect(run.agreement).toMatchObject({ outcome: 'agreed' });
    expect(run.status).toBe('success');
  });

  it('A2: a disagreement broken by a third program that sides with the first (majority) is ✅', async () => {
    const { agent } = await setup({ code: [py(RIGHT_COUNT)], independent: [py(WRONG_COUNT), py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });
    expect(run.status).toBe('success');
    expect(run.agreement?.outcome).toBe('majority');
    expect(run.agreement?.programs.map((p) => p.agreed)).toEqual([false, true]);
  });

  it('asks for no checks (no checks call, no checks block): how to read and print the data instead; a checks block written anyway runs after the program', async () => {
    const reply = withChecks(RIGHT_COUNT, 'import re\nvalues = re.findall(r"\\d+", OUTPUT)\nassert len(values) == 1, "one number"');
    const { agent, fake } = await setup({ code: [reply], independent: [py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'how many requests returned 4xx? print just the number', { inputFiles: [file('access.log', LOG)] });

    expect(run.status).toBe('success');
    expect(fake.requests.filter(isChecksRequest)).toHaveLength(0);
    const first = fake.requests[0]!.messages[1]!.content;
    expect(first).not.toContain('```checks');
    expect(first.endsWith(`\n\n${DATA_ANSWER_INSTRUCTION}`)).toBe(true);
    expect(run.checks).toMatchObject({ fromReply: true, asserts: ['assert len(values) == 1, "one number"'] });
    expect(run.attempts[0]!.code).not.toContain('OUTPUT');
    expect(run.attempts[0]!.result?.checks?.results).toEqual([{ check: 'assert len(values) == 1, "one number"', passed: true }]);
    // the independent program is told to print bare values, not the attempt's labelled lines
    expect(fake.requests.filter(isIndependent)[0]!.messages.at(-1)!.content).not.toContain(DATA_ANSWER_INSTRUCTION);
  });

  it('an empty answer to a question on files is never ✅: the next attempt is told nothing was printed', async () => {
    const { agent, fake } = await setup({ code: [py('n = 0'), py(RIGHT_COUNT)], independent: [py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });

    expect(run.attempts.map((a) => a.result?.stdout.trim())).toEqual(['', '16']);
    const fix = fake.requests.filter(isAttempt)[1]!.messages.at(-1)!.content;
    expect(fix).toContain(NOTHING_PRINTED_FEEDBACK);
    expect(fix).toContain('--- access.log:'); // with the data's profile
    expect(run.status).toBe('success');
    expect(run.agreement).toMatchObject({ outcome: 'agreed', attempt: 2 });
  });

  it('a run on files whose every attempt printed nothing is never ✅, whatever the checks said: ⚠️ with the first, and why', async () => {
    const silent = withChecks('n = 0', 'assert True, "anything"');
    const { agent, fake } = await setup({ code: [silent, py('m = 1')], independent: [py(RIGHT_COUNT)] }, 1);
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });
    // it ran with exit 0, so it is not a failure: the first empty attempt is kept and shown with the reason
    expect(run.status).toBe('unverified');
    expect(run.error).toBe(PRINTED_NOTHING);
    expect(run.attempts.at(-1)).toMatchObject({ trigger: 'rerun', keptFrom: 1 });
    expect(fake.requests.filter(isIndependent)).toHaveLength(0); // nothing to compare
  });

  // the kind seen by a newcomer: a column the file lacks ("amount") gives NaN per group, and an
  // independent program that read the same wrong column printed the same NaNs: that was ✅
  const SALES = 'sku,units,unit_price,category\nA1,2,3.5,Garden\nB2,1,10,Kitchen\nA1,4,3.5,Garden\n';
  const NAN_PER_GROUP = 'import pandas as pd\ndf = pd.read_csv("sales.csv")\ndf["revenue"] = pd.to_numeric(df.get("amount", pd.Series(dtype=float)))\nprint(df.groupby("category")["revenue"].mean())';
  const RIGHT_PER_GROUP = 'import pandas as pd\ndf = pd.read_csv("sales.csv")\ndf["revenue"] = df.units * df.unit_price\nfor k, v in df.groupby("category")["revenue"].sum().items():\n    print(k, round(v, 2))';

  it('an answer whose every value is NaN is never ✅, even when an independent program prints the same NaNs: the next attempt is told so', async () => {
    const { agent, fake } = await setup({ code: [py(NAN_PER_GROUP), py(RIGHT_PER_GROUP)], independent: [py(NAN_PER_GROUP), py(RIGHT_PER_GROUP)] });
    const run = await agent.run('cli:t', 'total revenue per category', { inputFiles: [file('sales.csv', SALES)] });

    expect(run.attempts[0]!.result?.stdout).toMatch(/Garden\s+NaN\nKitchen\s+NaN/);
    const fix = fake.requests.filter(isAttempt)[1]!.messages.at(-1)!.content;
    expect(fix).toContain(ONLY_MISSING_FEEDBACK);
    expect(run.attempts.map((a) => a.result?.stdout.trim())).toEqual([expect.stringContaining('NaN'), 'Garden 21.0\nKitchen 10.0']);
    expect(run.status).toBe('success');
    expect(run.agreement).toMatchObject({ attempt: 2 });
  });

  it('a run on files whose every attempt printed only NaN ends ⚠️ with why, never ✅', async () => {
    const { agent, fake } = await setup({ code: [py(NAN_PER_GROUP), py('print("Total revenue: nan")')], independent: [py(NAN_PER_GROUP)] }, 1);
    const run = await agent.run('cli:t', 'total revenue per category', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('unverified');
    expect(run.error).toBe(PRINTED_ONLY_MISSING);
    expect(fake.requests.filter(isIndependent)).toHaveLength(0); // NaN is nothing to compare
  });

  it('a request for a chart answered without one is never ✅: the next attempt is told to draw it', async () => {
    const printOnly = 'import pandas as pd\ndf = pd.read_csv("sales.csv")\nprint(df.groupby("category")["units"].sum().to_string())';
    const drawn = `${printOnly}\nimport matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\ndf.groupby("category")["units"].sum().plot.bar()`;
    const { agent, fake } = await setup({ code: [py(printOnly), py(drawn)] });
    const run = await agent.run('cli:t', 'plot the units per category of sales.csv as a bar chart', { inputFiles: [file('sales.csv', SALES)] });

    expect(fake.requests.filter(isAttempt)[1]!.messages.at(-1)!.content).toContain(NO_CHART_FEEDBACK);
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(2);
    expect(run.attempts[1]!.result?.artifacts.map((a) => a.name)).toEqual([expect.stringMatching(/\.png$/)]);
  });

  it('a request that groups by a period of time is told to group by that period of the date, not by the date; others are not', async () => {
    const { agent, fake } = await setup({ code: [py('print("Garden 21.0")')], independent: [py('print("Garden 21.0")')] });
    const dated = file('sales.csv', 'date,units\n2026-01-03,2\n2026-02-11,5\n');
    for (const request of ['plot the monthly totals of sales.csv as a bar chart', 'units per hour', 'the average for each month, in calendar order']) {
      fake.requests.length = 0;
      await agent.run('cli:t', request, { inputFiles: [dated] });
      expect(fake.requests.filter(isAttempt)[0]!.messages[1]!.content.endsWith(`${DATA_ANSWER_INSTRUCTION} ${PERIOD_INSTRUCTION}`)).toBe(true);
    }
    for (const request of ['total units', 'a daylight chart of units per category', 'units by monthly_plan']) {
      fake.requests.length = 0;
      await agent.run('cli:t', request, { inputFiles: [dated] });
      expect(fake.requests.filter(isAttempt)[0]!.messages[1]!.content).not.toContain(PERIOD_INSTRUCTION);
    }
    // a table of month names has no date-time to take a period of
    fake.requests.length = 0;
    await agent.run('cli:t', 'a line chart of the temperature per month', { inputFiles: [file('climate.csv', 'month,temperature\nApr,9.5\nAug,18.1\n')] });
    expect(fake.requests.filter(isAttempt)[0]!.messages[1]!.content).not.toContain(PERIOD_INSTRUCTION);
  });

  it('a program on files that only writes the file asked for is not an empty answer', async () => {
    const { agent } = await setup({ code: [py('open("count.txt", "w").write("16")')], independent: [py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'write the number of 4xx requests to count.txt', { inputFiles: [file('access.log', LOG)] });
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
  });

  it('asserts on OUTPUT written at the end of the python block become the checks instead of crashing the program', async () => {
    const { agent } = await setup({ code: [py(`${RIGHT_COUNT}\n\n# checks\nassert OUTPUT.strip().isdigit(), "a number"`)], independent: [py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });
    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.code).not.toContain('OUTPUT');
    expect(run.checks).toMatchObject({ fromReply: true, asserts: ['assert OUTPUT.strip().isdigit(), "a number"'] });
    expect(run.attempts[0]!.result?.checks?.results).toEqual([{ check: 'assert OUTPUT.strip().isdigit(), "a number"', passed: true }]);
  });

  it('costs at most 2.5× the tokens of a single attempt on a data request', async () => {
    const reply = withChecks(RIGHT_ORDERS, 'assert OUTPUT.strip() in ("NO", "SE"), "a country code"');
    const { agent } = await setup({ code: [reply], independent: [py(RIGHT_ORDERS)] });
    const run = await agent.run('cli:t', 'Which country ordered the most items?', { inputFiles: [file('orders.json', ORDERS)] });
    expect(run.status).toBe('success');
    const single = run.attempts[0]!.usage.promptTokens + run.attempts[0]!.usage.completionTokens;
    const all = single + run.agreement!.usage.promptTokens + run.agreement!.usage.completionTokens + (run.checks?.usage.promptTokens ?? 0);
    expect(all / single).toBeLessThanOrEqual(2.5);
  });
});

describe('feedback on a data run', () => {
  it('the check writer, asked again after feedback, reads the same profile as the program', async () => {
    const { agent, fake } = await setup({
      code: [py(RIGHT_COUNT), py(RIGHT_COUNT.replace('print(n)', 'print(f"4xx: {n}")'))],
      independent: [py(RIGHT_COUNT)],
      checks: [py('assert OUTPUT.startswith("4xx: "), "labelled"')],
    });
    const inputFiles = [file('access.log', LOG)];
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles });
    await agent.improve(run, 'label the number with "4xx: "', { inputFiles });
    expect(run.status).toBe('success');
    const checksRequest = fake.requests.find(isChecksRequest)!;
    expect(checksRequest.messages.at(-1)!.content).toContain('Changes asked for since:');
    expect(checksRequest.messages.at(-1)!.content).toContain('format: Apache/nginx combined log');
    expect(run.checks?.asserts).toEqual(['assert OUTPUT.startswith("4xx: "), "labelled"']);
  });
});

describe('false alarms (A3)', () => {
  it('a check that raised before any assert (it misread "Mean: 5.0") is written again, not blamed on the program', async () => {
    const broken = py('values = [int(v) for v in OUTPUT.split()]\nassert sum(values) / len(values) == 5, "the mean"');
    const good = py('import re\nmean = float(re.findall(r"[-\\d.]+", OUTPUT)[-1])\nassert mean == 5.0, "the mean of 2, 4, 6, 8 is 5"');
    const { agent, fake } = await setup({ code: [py('xs = [2, 4, 6, 8]\nprint("Mean:", sum(xs) / len(xs))')], checks: [broken, good] });
    const run = await agent.run('cli:t', 'print the mean of 2, 4, 6 and 8');

    expect(run.status).toBe('success');
    expect(run.attempts).toHaveLength(1);
    expect(fake.requests.filter(isAttempt)).toHaveLength(1);
    expect(run.checks?.repairOf).toMatch(/^`values = \[int\(v\) for v in OUTPUT.split\(\)\]` raised ValueError: invalid literal for int\(\) with base 10: 'Mean:' before any assert ran$/);
  });

  it('on a data run, checks from the reply that break themselves are dropped and agreement decides', async () => {
    const reply = withChecks(RIGHT_COUNT, 'values = [int(v) for v in OUTPUT.split(",")]\nassert values[0] > 0, "a count"');
    const { agent, fake } = await setup({ code: [reply.replace('print(n)', 'print("4xx:", n)')], independent: [py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });
    expect(run.status).toBe('success');
    expect(run.checks).toMatchObject({ code: '', fromReply: true });
    expect(run.checks?.repairOf).toContain('before any assert ran');
    expect(run.agreement?.outcome).toBe('agreed');
    expect(fake.requests.filter(isAttempt)).toHaveLength(1);
  });

  it('a check that computed its own (wrong) value from the data is a tie that agreement breaks, not proof', async () => {
    // the check counts every " 4xx " in the file itself (the size column too): it disagrees with a right program
    const reply = withChecks(RIGHT_COUNT, 'import re\nexpected = len(re.findall(r" 4\\d\\d ", open("access.log").read()))\nassert int(OUTPUT) == expected, "the 4xx count"');
    const { agent, fake } = await setup({ code: [reply], independent: [py(RIGHT_COUNT)] });
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });
    expect(run.attempts[0]!.result?.checks?.results[0]).toMatchObject({ passed: false });
    expect(run.status).toBe('success');
    expect(run.agreement?.outcome).toBe('agreed');
    expect(fake.requests.filter(isAttempt)).toHaveLength(1);
  });
});

describe('no plot unless asked (A4)', () => {
  it('the system prompt asks for a plot only when the request asks for a chart, and the same prompt is sent on every run', async () => {
    const { agent, fake } = await setup({ code: [py('print(906609)')] });
    await agent.run('cli:t', 'Print the largest palindrome made from the product of two 3-digit numbers');
    await agent.run('cli:t', 'plot sin(x)');
    const [a, b] = fake.requests.filter(isAttempt);
    expect(a!.messages[0]!.content).toBe(b!.messages[0]!.content);
    expect(a!.messages[0]!.content).toContain('Do not plot and do not import matplotlib unless the request asks for a chart, plot, graph or figure.');
    expect(a!.messages[0]!.content).not.toMatch(/^- When you plot/m);
  });
});

describe('verify off', () => {

  it('profiles the files but asks for no checks and no independent program: the exit code decides', async () => {
    const { fake } = await setup({ code: [py(WRONG_COUNT)], independent: [py(RIGHT_COUNT)] });
    const agent = verifyOffAgent(fake.url);
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });
    expect(run.status).toBe('success');
    expect(run.agreement).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.messages[1]!.content).toContain('format: Apache/nginx combined log');
    expect(fake.requests[0]!.messages[1]!.content).not.toContain('```checks');
  });

  it('an empty answer on files is not ✅ with verify off either: it is fed back like a failure', async () => {
    const { fake } = await setup({ code: [py('n = 0'), py(RIGHT_COUNT)] });
    const agent = verifyOffAgent(fake.url, 1);
    const run = await agent.run('cli:t', 'how many requests returned 4xx?', { inputFiles: [file('access.log', LOG)] });
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.result?.stdout.trim())).toEqual(['', '16']);
    expect(fake.requests[1]!.messages.at(-1)!.content).toContain(NOTHING_PRINTED_FEEDBACK);
  });
});

describe('a file the request asks for', () => {
  it('an attempt that printed values but did not write the requested file is never ✅; the next is told which file is missing', async () => {
    const totals = py('import json\nrows = [l for o in json.load(open("orders.json"))["orders"] for l in o["lines"]]\nprint("lines:", len(rows))');
    const writes = py('import csv, json\nrows = [dict(id=o["id"], sku=l["sku"], qty=l["qty"]) for o in json.load(open("orders.json"))["orders"] for l in o["lines"]]\nw = csv.DictWriter(open("order_lines.csv", "w", newline=""), ["id", "sku", "qty"])\nw.writeheader()\nw.writerows(rows)\nprint("wrote", len(rows), "rows")');
    const first = await setup({ code: [totals, writes], independent: [py('print(4)')] });
    const run = await first.agent.run('cli:t', 'Turn orders.json into a flat CSV called order_lines.csv, one row per order line.', { inputFiles: [file('orders.json', ORDERS)] });
    expect(run.attempts).toHaveLength(2);
    expect(run.status).toBe('success');
    expect(run.attempts[1]!.result!.artifacts.map((a) => a.name)).toEqual(['order_lines.csv']);
    const feedback = first.fake.requests.filter(isAttempt)[1]!.messages.at(-1)!.content;
    await first.fake.close();
    expect(feedback).toContain("The request asks for order_lines.csv, but the program wrote no such file. Write it under exactly that name in the current folder (a table: df.to_csv('order_lines.csv', index=False), after .reset_index() when the groups are its index, so that they are a column)");

    // with no attempt left, the printed values end ⚠️ with the reason, not ✅
    const once = await setup({ code: [totals], independent: [py('print(4)')] }, 0);
    const unverified = await once.agent.run('cli:t', 'Turn orders.json into a flat CSV called order_lines.csv, one row per order line.', { inputFiles: [file('orders.json', ORDERS)] });
    expect(unverified.status).toBe('unverified');
    expect(unverified.error).toContain('the request asks for order_lines.csv, and the program wrote no such file');
  });
});

describe('no checks could be derived (no input files)', () => {
  it('an independent program must print the same answer before ✅; a different one leaves ⚠️ with both values', async () => {
    const palindrome = 'best = max(a * b for a in range(100, 1000) for b in range(a, 1000) if str(a * b) == str(a * b)[::-1])\nprint(best)';
    const agreed = await setup({ code: [py(palindrome)], independent: [py('print(906609)')] });
    const ok = await agreed.agent.run('cli:t', 'Print the largest palindrome made from the product of two 3-digit numbers');
    expect(ok.status).toBe('success');
    expect(ok.agreement?.outcome).toBe('agreed');
    await agreed.fake.close();

    const wrong = await setup({ code: [py('print(580085)')], independent: [py(palindrome), py('print(906609)')] });
    fake = wrong.fake;
    const bad = await wrong.agent.run('cli:t', 'Print the largest palindrome made from the product of two 3-digit numbers');
    expect(bad.status).toBe('unverified');
    expect(bad.error).toBe("two independent programs printed «906609» where this one printed «580085»; two against one: their answer is the run's answer, unconfirmed (the attempt's is candidate 2)");
    expect(bad.attempts.at(-1)).toMatchObject({ adoptedFrom: 1, result: { stdout: '906609\n' } });
  });

  it('an attempt that printed part of what an independent program printed is not confirmed by it', async () => {
    // the primes up to 20 where the first 20 primes were asked; both independent programs print all 20
    const first20 = 'n, p = 2, []\nwhile len(p) < 20:\n    if all(n % q for q in p): p.append(n)\n    n += 1\nprint(*p, sep="\\n")';
    const { agent } = await setup({ code: [py('print(*[n for n in range(2, 21) if all(n % d for d in range(2, n))], sep="\\n")')], independent: [py(first20)] });
    const run = await agent.run('cli:t', 'Print the first 20 prime numbers');
    expect(run.status).toBe('unverified');
    expect(run.agreement?.outcome).toBe('disagreed');
    expect(run.agreement?.programs.map((p) => p.agreed)).toEqual([false, false]);
  });

  it('with checks on, a program that printed nothing and wrote no file is never ✅, also without input files', async () => {
    const silent = py('total = sum(n for n in range(1000) if n % 3 == 0 or n % 5 == 0)');
    const { agent, fake: server } = await setup({ code: [silent, py('print(sum(n for n in range(1000) if n % 3 == 0 or n % 5 == 0))')], independent: [py('print(233168)')] });
    const run = await agent.run('cli:t', 'What is the sum of all the multiples of 3 or 5 below 1000?');
    expect(run.status).toBe('success');
    expect(run.attempts.map((a) => a.result?.stdout.trim())).toEqual(['', '233168']);
    expect(server.requests.filter(isAttempt)[1]!.messages.at(-1)!.content).toContain(NOTHING_PRINTED_FEEDBACK);
    await server.close();

    // with no attempt left: no answer (⚠️, saying why), never ✅; with verify off, exit 0 stays the answer
    const once = await setup({ code: [silent] }, 0);
    const empty = await once.agent.run('cli:t', 'What is the sum of all the multiples of 3 or 5 below 1000?');
    expect(empty.status).toBe('unverified');
    expect(empty.error).toBe(PRINTED_NOTHING_AT_ALL);
    const off = await verifyOffAgent(once.fake.url, 0).run('cli:t', 'What is the sum of all the multiples of 3 or 5 below 1000?');
    expect(off.status).toBe('success');
  });

  it('costs nothing more when checks judged the attempt', async () => {
    const { agent, fake } = await setup({ code: [py('print(906609)')], checks: [py('assert OUTPUT.strip() == str(906609), "the palindrome"')] });
    const run = await agent.run('cli:t', 'Print the largest palindrome made from the product of two 3-digit numbers');
    expect(run.status).toBe('success');
    expect(run.agreement).toBeUndefined();
    expect(fake.requests.filter(isIndependent)).toHaveLength(0);
  });
});

describe('random answers', () => {
  it('asks for no independent program when the answer is a picture (what the program prints is incidental)', async () => {
    const { agent, fake } = await setup({ code: [py('import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\nprint("Saved the plot")')] });
    const run = await agent.run('cli:t', 'plot the numbers 1 and 2 as a line chart');
    expect(run.status).toBe('success');
    expect(fake.requests.filter(isIndependent)).toHaveLength(0);
  });

  it('asks for no independent program when the request wants random output (two samples never agree)', async () => {
    const { agent, fake } = await setup({ code: [py('import random\nprint(random.choice(open("access.log").read().split()))')], independent: [py('print("x")')] });
    const run = await agent.run('cli:t', 'print a random word of access.log', { inputFiles: [file('access.log', LOG)] });
    expect(run.status).toBe('success');
    expect(run.agreement).toBeUndefined();
    expect(fake.requests.filter(isIndependent)).toHaveLength(0);
  });
});
