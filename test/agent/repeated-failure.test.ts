/**
 * A failure that repeats changes something or ends the run (cases S1, S2): the real openai client
 * against the fake OpenAI server, the real sandbox and the real profiler.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import type { InputFile } from '../../src/sandbox/types.js';
import { REPEAT_TEMPERATURE } from '../../src/agent/run/step-options.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';
import { INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const isAttempt = (r: FakeRequest) => !isChecksRequest(r) && !(r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false);

/** An agent (verify checks, 3 retries) whose attempts are answered from `code` in order (the last one repeats). */
async function setup(code: FakeReply[], opts: { maxTokens?: number } = {}) {
  let i = 0;
  fake = await startFakeOpenAi({ replies: [], respond: (req) => (isAttempt(req) ? code[Math.min(i++, code.length - 1)]! : '# no checks') });
  const agent = new Agent({
    llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0, maxTokens: opts.maxTokens }),
    executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
    store: new KeyvHistoryStore(new Map()),
    artifactRoot: tempDir('repeat-artifacts-'),
    maxRetries: 3,
  });
  return { agent, attempts: () => fake!.requests.filter(isAttempt) };
}

const file = (name: string, content: string): InputFile => ({ name, content: Buffer.from(content) });

/** Sales by day; `date` is text to pandas (read_csv parses no dates by itself). */
const SALES = 'date,region,units\n2024-03-01,North,3\n2024-03-04,South,5\n2024-03-12,North,2\n2024-03-13,South,4\n';
const READ = "import pandas as pd\ndf = pd.read_csv('sales.csv')\n";

describe('S1: the same error, proposed again', () => {
  it('.dt on a text column: the second time, the feedback says the column is text and how to parse it, sampled differently; the third time the run ends with the reason', async () => {
    const { agent, attempts } = await setup([
      py(`${READ}df['week'] = df['date'].dt.isocalendar().week\nprint(df.groupby('week')['units'].sum())`),
      py(`${READ}weeks = df['date'].dt.isocalendar().week\nprint(df.groupby(weeks)['units'].sum())`),
      py(`${READ}print(df.groupby(df['date'].dt.isocalendar().week)['units'].sum())`),
      py(`${READ}df['date'] = pd.to_datetime(df['date'])\nprint(df.groupby(df['date'].dt.isocalendar().week)['units'].sum())`),
    ]);
    const run = await agent.run('cli:t', 'units sold per ISO week', { inputFiles: [file('sales.csv', SALES)] });

    expect(run.status).toBe('failed');
    expect(attempts()).toHaveLength(3); // the fourth attempt was not spent
    expect(run.error).toMatch(/^the same error 3 times \(attempts 1, 2 and 3\): AttributeError: Can only use \.dt accessor with datetimelike values/);
    expect(run.error).toContain("column 'date' of sales.csv holds dates written as text (e.g. '2024-03-01')");
    const [first, second, third] = attempts();
    // after the first failure: what the profile knows of the column
    const told = second!.messages.at(-1)!.content;
    expect(told).toContain("df['date'] = pandas.to_datetime(df['date'])");
    expect(told).not.toContain('This is the same error');
    expect(first!.body?.temperature).not.toBe(REPEAT_TEMPERATURE);
    expect(second!.body?.temperature).not.toBe(REPEAT_TEMPERATURE);
    // after the second: the same error, named, and the next call samples differently
    expect(third!.messages.at(-1)!.content).toContain('This is the same error as attempt 1');
    expect(third!.body?.temperature).toBe(REPEAT_TEMPERATURE);
  }, 60_000);

  it("parse_dates names 'date' where the column is 'Date': the feedback gives the columns and the nearest name; fixed, the run goes on", async () => {
    const { agent, attempts } = await setup([
      py("import pandas as pd\ndf = pd.read_csv('sales.csv', parse_dates=['date'])\nprint(df['units'].sum())"),
      py("import pandas as pd\ndf = pd.read_csv('sales.csv', parse_dates=['Date'])\nprint('total units:', df['units'].sum())"),
    ]);
    const run = await agent.run('cli:t', 'total units sold', { inputFiles: [file('sales.csv', SALES.replace('date,', 'Date,'))] });
    expect(run.attempts[0]!.result?.stderr).toContain("Missing column provided to 'parse_dates': 'date'");
    const told = attempts()[1]!.messages.at(-1)!.content;
    expect(told).toContain("'date' is not a column of the input files; sales.csv has the columns 'Date' (date, e.g. '2024-03-01'), 'region' (str");
    expect(told).toContain("the nearest to 'date' is 'Date'");
    expect(run.attempts[1]!.result?.stdout).toBe('total units: 14\n');
  }, 60_000);

  it('KeyError on a week number that is not a column: the feedback says it is a label with no rows; repeated, then ended', async () => {
    const weekly = `${READ}df['week'] = pd.to_datetime(df['date']).dt.isocalendar().week\nweekly = df.groupby('week')['units'].sum()\n`;
    const { agent, attempts } = await setup([py(`${weekly}print(weekly[19])`), py(`${weekly}print('week 19:', weekly[19])`), py(`${weekly}w = weekly[19]\nprint(w)`)]);
    const run = await agent.run('cli:t', 'units sold in week 19', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('failed');
    expect(attempts()).toHaveLength(3);
    expect(attempts()[1]!.messages.at(-1)!.content).toContain('19 is no column name: a KeyError on 19 means the table or Series it was looked up in has no label 19');
    expect(run.error).toMatch(/^the same error 3 times \(attempts 1, 2 and 3\): KeyError: 19/);
  }, 60_000);

  it('the same program proposed again: not run, and the fresh prompt says what the profile knows; the run ends with it in the reason', async () => {
    const same = py(`${READ}print(df.groupby(df['date'].dt.month)['units'].sum())`);
    const { agent, attempts } = await setup([same]);
    const run = await agent.run('cli:t', 'units sold per month', { inputFiles: [file('sales.csv', SALES)] });
    expect(run.status).toBe('failed');
    expect(run.attempts.filter((a) => a.result)).toHaveLength(1);
    expect(attempts()).toHaveLength(3);
    expect(attempts()[2]!.messages[1]!.content).toContain("column 'date' of sales.csv holds dates written as text");
    expect(run.error).toContain('repeated an earlier program twice');
    expect(run.error).toContain("column 'date' of sales.csv holds dates written as text");
  }, 60_000);
});

/** A degenerate program: loops nested ever deeper, never finished within the limit. */
const DEGENERATE = `\`\`\`python\nfor a in range(3):\n    for b in range(3):\n        for c in range(3):\n            print(a, b, c)\n`;

describe('S2: a reply cut twice', () => {
  it('cut at the length limit, asked again with twice the room, cut again: the run ends at once with the reason', async () => {
    const { agent, attempts } = await setup([{ content: DEGENERATE, finishReason: 'length' }], { maxTokens: 200 });
    const run = await agent.run('cli:t', 'print every combination', {});
    expect(run.status).toBe('failed');
    expect(attempts().map((r) => r.body?.max_tokens)).toEqual([200, 400]); // one attempt, not four
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.replyFault).toBe('length');
    expect(run.error).toMatch(/^the reply was cut at the LLM's length limit even with twice the room: .*\(400 tokens\)/);
  }, 30_000);

  it('a stream that ended early twice (the connection, not the program) still gets another attempt', async () => {
    const { agent, attempts } = await setup([{ content: DEGENERATE, endWithoutFinish: true }, { content: DEGENERATE, endWithoutFinish: true }, py("print('ok')")]);
    const run = await agent.run('cli:t', 'print ok');
    expect(run.attempts[0]!.replyFault).toBe('cut');
    expect(run.attempts[1]!.result?.stdout).toBe('ok\n');
    expect(run.status).not.toBe('failed');
    expect(attempts()).toHaveLength(3);
  }, 30_000);
});
