/**
 * The terminal's choice among candidates: the session asks which answer is right after a run that
 * ended with two, `/pick`, `/approve`; `code-agent run` asks on a terminal and never with `--json`.
 * The built CLI (or `runOnce` in-process, for a terminal's stdin), the real sandbox and store, the
 * fake OpenAI server: a choice makes no LLM call.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../fakes/openai-server.js';
import { isChecksRequest } from '../helpers/verify-replies.js';
import { INDEPENDENT_INSTRUCTION } from '../../src/agent/verification/index.js';
import { parseConfig } from '../../src/config/load.js';
import { runOnce } from '../../adapters/cli/run-command.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const SALES = 'country,items,status\nDE,10,paid\nDE,4,paid\nFR,9,paid\nIT,1,refunded\n';
const PAID = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint(df[df['status'] == 'paid']['items'].sum())";
const ALL = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint(df['items'].sum())";

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
beforeAll(requireBuiltCli);

const isIndependent = (r: FakeRequest) => r.messages.at(-1)?.content.includes(INDEPENDENT_INSTRUCTION) ?? false;

/** A folder with config.yaml (checks on) and sales.csv; the attempt prints every row's items, the independent programs the paid rows'. */
async function folder(): Promise<string> {
  fake = await startFakeOpenAi({ replies: [], respond: (req) => (isIndependent(req) ? py(PAID) : isChecksRequest(req) ? '# no checks' : py(ALL)) });
  const dir = mkdtempSync(join(tmpdir(), 'cli-settle-'));
  writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: checks\n  max_retries: 1\n`);
  writeFileSync(join(dir, 'sales.csv'), SALES);
  return dir;
}

describe('the session', () => {
  it('shows the candidates with their readings, asks which is right, and a typed number ends the run ✅ confirmed, with no LLM call', async () => {
    const dir = await folder();
    const r = await runCli([], dir, ['/attach sales.csv', '/run how many items were sold?', '1', '/history', '/approve', '/exit'].join('\n') + '\n');
    expect(r.stdout).toContain('⚖️ The answers differ. Which one is right?');
    expect(r.stdout).toContain('[1] (leads) 2 independent programs (they agree with each other)');
    expect(r.stdout).toContain("    read it as: columns items, status · rows where status == 'paid' · sum");
    expect(r.stdout).toContain('[2] attempt 1');
    expect(r.stdout).toContain('    read it as: columns items · all rows · sum');
    expect(r.stdout).toContain('which is right? > ');
    expect(r.stdout).toMatch(/✅ Confirmed by \S+: candidate 1 is the answer \(columns items, status.*\)\. Added to the terminal's memory as an approved example \(m\d+\)\./);
    expect(r.stdout).toMatch(/\n23\n/); // the chosen candidate's output
    expect(r.stdout).toMatch(/1\. \S+ \S+\s+✅ success/); // /history shows it ✅
    // the choice made it an example already: the 👍 says so rather than adding it again
    expect(r.stdout).toMatch(/👍 Approved by \S+\. It is in the terminal's memory as an approved example already \(m\d+\)\./);
    // the attempt and two independent programs: the choice and the 👍 made no call
    expect(fake!.requests).toHaveLength(3);
  });

  it('a request typed ahead at "which is right?" is no choice: the choice is left for later and the line runs as a request', async () => {
    const dir = await folder();
    const r = await runCli([], dir, ['/attach sales.csv', '/run how many items were sold?', 'list the countries in sales.csv', '/exit'].join('\n') + '\n');
    expect(r.stdout).toContain('which is right? > ');
    expect(r.stdout).toContain('Left unsettled: /pick <n> chooses later.');
    expect(r.stdout).not.toContain('is not a choice');
    expect(fake!.requests.some((q) => JSON.stringify(q.messages).includes('list the countries in sales.csv'))).toBe(true);
  });

  it('"n" (neither) asks what is wrong, and the answer improves the run', async () => {
    const dir = await folder();
    const r = await runCli([], dir, ['/attach sales.csv', '/run how many items were sold?', 'n', 'count the paid rows only', '/exit'].join('\n') + '\n');
    expect(r.stdout).toContain('says neither answer is right');
    expect(r.stdout).toContain('What is wrong?');
    expect(r.stdout).not.toContain('Reply in this thread'); // a terminal has no thread
    const improve = fake!.requests.filter((q) => !isIndependent(q) && !isChecksRequest(q))[1];
    expect(improve?.messages.at(-1)?.content).toContain('count the paid rows only');
  });
});

describe('code-agent run', () => {
  const config = (dir: string) =>
    parseConfig({ llm: { provider: 'openai', base_url: fake!.url, model: 'm', max_retries: 0 }, agent: { verify: 'checks', max_retries: 1 }, store: { url: `sqlite://${join(dir, 'h.sqlite')}`, data_dir: dir } }, {});
  const files = [{ name: 'sales.csv', content: Buffer.from(SALES) }];

  it('on a terminal asks which answer is right; the choice is the run\'s answer (exit 0, no LLM call)', async () => {
    const dir = await folder();
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (d) => (text += d));
    stdin.write('2\n');
    const code = await runOnce(config(dir), 'how many items were sold?', { stdin, stdout, stderr: new PassThrough(), inputFiles: files });
    expect(code).toBe(0);
    expect(text).toContain('which is right? > ');
    expect(text).toMatch(/✅ Confirmed by \S+: candidate 2 is the answer/);
    expect(fake!.requests).toHaveLength(3);
  });

  it('with --json prints the one JSON object and asks nothing, even on a terminal', async () => {
    const dir = await folder();
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (d) => (text += d));
    const code = await runOnce(config(dir), 'how many items were sold?', { json: true, stdin, stdout, stderr: new PassThrough(), inputFiles: files });
    expect(code).toBe(0);
    const json = JSON.parse(text) as Record<string, unknown>;
    // two against one: the independent programs' answer (23) is the run's answer, unconfirmed
    expect(json).toMatchObject({ success: true, stdout: '23\n', outcome: 'unverified' });
    expect(text).not.toContain('which is right?');
  });
});
