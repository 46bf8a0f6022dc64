/**
 * The terminal's finer points, as a user meets them: stable /history numbers, rows that fit 120
 * columns, /improve on a success asking first, /save that never overwrites silently, /attach,
 * --out, Ctrl-C shown as cancelled, the spinner never shown beside its own line, --max-retries
 * bounds. The built CLI (or the session in-process for the terminal case), the real sandbox, the
 * fake OpenAI server.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, requireBuiltCli, runCli, type CliResult } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { startSession } from '../../adapters/cli/session.js';
import { parseConfig } from '../../src/config/load.js';
import { historyRow, columns } from '../../adapters/cli/history-rows.js';
import type { Run } from '../../src/history/types.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
beforeAll(requireBuiltCli);

function folder(replies: FakeReply[]): Promise<string> {
  return startFakeOpenAi({ replies }).then((f) => {
    fake = f;
    const dir = mkdtempSync(join(tmpdir(), 'cli-session-'));
    writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${f.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\n`);
    return dir;
  });
}

async function session(replies: FakeReply[], lines: string[], args: string[] = []): Promise<CliResult & { dir: string }> {
  const dir = await folder(replies);
  return { ...(await runCli(args, dir, `${lines.join('\n')}\n`)), dir };
}

describe('/history and /open', () => {
  it('numbers runs oldest first, so a number keeps meaning the same run after new runs', async () => {
    const long = `print the numbers ${'and more numbers '.repeat(12)}`.trim();
    const r = await session(
      [py('print("a")'), py('print("b")'), py('print("c")')],
      ['/run print a', '/history', `/run ${long}`, '/run print c', '/history', '/open 1', '/show', '/exit'],
    );
    const rows = r.stdout.split('\n').map((l) => l.replace(/^> /, '')).filter((l) => /^\s+\d+\. \d{4}-/.test(l));
    expect(rows[0]).toMatch(/^\s+1\. .*print a$/);
    expect(rows.slice(1).map((l) => l.trim().split('.')[0])).toEqual(['3', '2', '1']); // newest first, numbers kept
    expect(r.stdout).toContain('Run 1 is now current: print a (success)');
    expect(r.stdout).toContain('1 | print("a")');
    const longRow = rows.find((l) => l.includes('and more numbers'))!;
    expect(longRow.endsWith('…')).toBe(true);
    expect(columns(longRow)).toBeLessThanOrEqual(120);
  });

  it('fits every row in 120 columns, wide characters counted twice, and cuts multi-line requirements with …', () => {
    const run = (requirement: string, status: Run['status'] = 'success', error?: string): Run => ({
      id: 'x', conversationId: 'c', requirement, status, error, attempts: [], createdAt: '2026-01-02T10:11:12.000Z', updatedAt: '2026-01-02T10:11:13.000Z',
    });
    for (const text of ['数据'.repeat(100), 'x'.repeat(300), '😀'.repeat(90)]) {
      const row = historyRow(12, run(text));
      expect(columns(row)).toBeLessThanOrEqual(120);
      expect(row.endsWith('…')).toBe(true);
    }
    expect(historyRow(1, run('first line\nsecond line'))).toMatch(/first line…$/);
    expect(historyRow(1, run('short'))).toMatch(/short$/);
    expect(historyRow(2, run('stopped', 'failed', 'cancelled'))).toMatch(/⏹️ cancelled\s+0 attempts\s+stopped$/);
  });
});

describe('/improve, /save, /attach', () => {
  it('/improve with no feedback on a successful run asks what to change instead of calling the LLM', async () => {
    const r = await session([py('print("hi")'), py('print("hi!")')], ['/run say hi', '/improve', 'add an exclamation mark', '/show', '/exit']);
    expect(r.stdout).toContain('The current run succeeded. What should change?');
    expect(fake!.requests).toHaveLength(2); // the run, then the improvement with the typed feedback
    expect(fake!.requests[1]!.messages.at(-1)!.content).toContain('add an exclamation mark');
    expect(r.stdout).toContain('1 | print("hi!")');
  });

  it('an empty answer keeps the run as it is, and a command answers nothing', async () => {
    const r = await session([py('print("hi")')], ['/run say hi', '/improve', '', '/improve', '/show', '/exit']);
    expect(r.stdout).toContain('Nothing changed.');
    expect(r.stdout).toContain('1 | print("hi")');
    expect(fake!.requests).toHaveLength(1);
  });

  it('/save refuses a missing folder and an existing file with a message; -f replaces', async () => {
    const r = await session([py('print(1)')], ['/run one', '/save no/such/dir/x.py', '/save x.py', '/save x.py', '/save -f x.py', '/exit']);
    expect(r.stdout).toMatch(/cannot save to .*no\/such\/dir\/x\.py: the folder .*no\/such\/dir does not exist/);
    expect(r.stdout).not.toContain('ENOENT');
    expect(r.stdout).toMatch(/x\.py already exists: not overwritten \(\/save -f x\.py replaces it\)/);
    expect(r.stdout.match(/Saved the current code to/g)).toHaveLength(2);
    expect(readFileSync(join(r.dir, 'x.py'), 'utf8')).toBe('print(1)\n');
  });

  it('/attach gives the next runs an input file the program reads by name', async () => {
    const dir = await folder([py('print(open("data.csv").read().split()[1])')]);
    writeFileSync(join(dir, 'data.csv'), 'a,b\n1,2\n');
    const r = await runCli([], dir, '/attach nope.csv\n/attach data.csv\n/run print the second line of data.csv\n/exit\n');
    expect(r.stdout).toContain('/attach nope.csv: no such file');
    expect(r.stdout).toContain('Input files for the next runs: data.csv (8 bytes)');
    expect(r.stdout).toContain('1,2');
    // the model is shown the file's profile, computed in the sandbox
    expect(fake!.requests[0]!.messages[1]!.content).toContain('--- data.csv: CSV, delimiter \',\', 1 data rows, 2 columns');
  });
});

describe('the current run\'s workspace', () => {
  it('W1 in the terminal: /attach adds the missing file to the run, /improve runs the same program with it, /show lists it, /detach removes it', async () => {
    const count = py('print(sum(1 for _ in open("inventory.csv")))');
    const distinct = py('import csv\nprint(len({r["sku"] for r in csv.DictReader(open("inventory.csv"))}))');
    const dir = await folder([count, count, distinct, distinct]);
    writeFileSync(join(dir, 'inventory.csv'), 'sku,qty\na,1\nb,2\na,3\n');
    const r = await runCli(
      [],
      dir,
      [
        '/run count the lines of inventory.csv',
        '/attach inventory.csv',
        '/improve here it is',
        '/show',
        '/improve and the number of distinct sku values',
        '/detach inventory.csv',
        '/detach inventory.csv',
        '/execute',
        '/exit',
        '',
      ].join('\n'),
    );
    expect(r.stdout).toContain('attach inventory.csv');
    expect(r.stdout).toContain("inventory.csv added to the current run's workspace (/improve or /execute finds it)");
    // the same program, now with the file: it runs (attempt 2 of the run), never "the same program"
    expect(r.stdout).toContain('[Agent] Improving code (attempt 2 of the run; up to 5 with auto-fixes)…');
    expect(r.stdout).not.toContain('is the same program as attempt');
    expect(r.stdout).toMatch(/\n4\n/);
    expect(r.stdout).toContain('Workspace (1 file, what /improve and /execute find):');
    expect(r.stdout).toContain('  inventory.csv (20 B, given)');
    // the later improve without the file still finds it
    expect(r.stdout).toContain('[Agent] Improving code (attempt 3 of the run; up to 6 with auto-fixes)…');
    expect(r.stdout).toMatch(/\n2\n/);
    expect(r.stdout).toContain("inventory.csv removed from the current run's workspace; inventory.csv no longer given to the next runs");
    expect(r.stdout).toContain("there is no file inventory.csv in the current run's workspace nor among the attached files");
    // gone from the workspace: the re-execution no longer finds it
    expect(r.stdout).toMatch(/Execution failed: FileNotFoundError/);
  });

  it('/show before any run lists the files /attach gave the next run', async () => {
    const dir = await folder([py('print(sum(1 for _ in open("inventory.csv")))')]);
    writeFileSync(join(dir, 'inventory.csv'), 'sku,qty\na,1\nb,2\na,3\n');
    const r = await runCli([], dir, ['/show', '/attach inventory.csv', '/show', '/exit', ''].join('\n'));
    expect(r.stdout).toContain('no current code yet: start with /run <requirement> or /generate <requirement>');
    expect(r.stdout).toContain('The next run is given (1 file):\n  inventory.csv (20 B)');
  });

  it('W2 in the terminal: a file the run wrote is there for /improve, and /show says which attempt wrote it', async () => {
    const write = py('open("clean.csv", "w").write("name,value\\nx,1\\ny,5\\n")\nprint("wrote")');
    const plot = py('import csv\nprint(sum(int(r[1]) for r in list(csv.reader(open("clean.csv")))[1:]))');
    const r = await session([write, plot], ['/run write clean.csv', '/show', '/improve print the sum of the second column of clean.csv', '/exit']);
    expect(r.stdout).toContain('  clean.csv (19 B, written by attempt 1)');
    expect(r.stdout).toMatch(/\n6\n/);
  });
});

describe('--out', () => {
  const plot = py('import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig("line.png")\nprint("ok")');

  it('copies what the program wrote into the folder, creating it, never overwriting', async () => {
    const dir = await folder([plot, plot]);
    const first = await runCli(['run', '--json', '--out', 'results/plots', 'plot a line'], dir);
    const second = await runCli(['run', '--out', 'results/plots', 'plot a line'], dir);
    expect(first.code).toBe(0);
    const json = JSON.parse(first.stdout);
    expect(json.artifacts[0].outPath).toBe(join(dir, 'results', 'plots', 'line.png'));
    expect(first.stderr).toContain(`[Agent] File copied: ${join(dir, 'results', 'plots', 'line.png')}`);
    expect(second.stdout).toContain(join(dir, 'results', 'plots', 'line-2.png'));
    expect(readdirSync(join(dir, 'results', 'plots')).sort()).toEqual(['line-2.png', 'line.png']);
    expect(readFileSync(join(dir, 'results', 'plots', 'line.png')).equals(readFileSync(json.artifacts[0].path))).toBe(true);
  });

  it('works for the session too (code-agent --out DIR)', async () => {
    const r = await session([plot], ['/run plot a line', '/exit'], ['--out', 'out']);
    expect(existsSync(join(r.dir, 'out', 'line.png'))).toBe(true);
  });
});

describe('options', () => {
  it('--max-retries has an upper bound; a bad run option prints the help of run', async () => {
    const dir = await folder([]);
    const [above, below, bogus] = await Promise.all([
      runCli(['run', '--max-retries', '21', 'x'], dir),
      runCli(['run', '--max-retries', '-1', 'x'], dir),
      runCli(['run', '--bogus', 'x'], dir),
    ]);
    for (const r of [above, below, bogus]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Usage: code-agent run [options] [requirement...]');
      expect(r.stderr).not.toContain('Commands:');
    }
    expect(above.stderr).toContain('expected a whole number from 0 to 20');
    expect(fake!.requests).toHaveLength(0);
  });
});

describe('Ctrl-C', () => {
  it('shows the run as cancelled, and /history lists it as cancelled', async () => {
    const dir = await folder([{ hang: true }]);
    const child = spawn(process.execPath, [CLI_BIN], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stdin.write('/run wait forever\n');
    const deadline = Date.now() + 20_000;
    while (fake!.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    while (!out.includes('[Agent] Cancelled') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end('/history\n/exit\n');
    await new Promise((r) => child.on('close', r));
    expect(out).toContain('[Agent] Cancelled');
    expect(out).not.toContain('Failed after');
    expect(out).toMatch(/1\. .*⏹️ cancelled\s+0 attempts\s+wait forever/);
  });
});

describe('on a terminal', () => {
  it('shows a step in progress as the spinner, and its line only once the spinner is gone', async () => {
    fake = await startFakeOpenAi({ replies: [py('print(42)')] });
    const data = mkdtempSync(join(tmpdir(), 'tty-'));
    const config = parseConfig(
      { llm: { provider: 'openai', base_url: fake.url, model: 'm', max_retries: 0 }, agent: { verify: 'off' }, store: { url: `sqlite://${join(data, 'h.sqlite')}`, data_dir: data } },
      {},
    );
    const output = Object.assign(new PassThrough(), { isTTY: true, columns: 120, rows: 40, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    let text = '';
    output.on('data', (d) => (text += d));
    const input = new PassThrough();
    const done = startSession(config, { input, output });
    input.end('/run print 42\n/exit\n');
    await done;
    const frame = text.search(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Generating code…/);
    const line = text.indexOf('[Agent] Generating code…');
    expect(frame).toBeGreaterThanOrEqual(0);
    expect(line).toBeGreaterThan(frame); // never the line and then a spinner repeating it under it
    expect(text).toContain('42');
  });
});



describe('with a local model', () => {
  it('answers /help, /history and /exit without waiting for the model; a model that cannot load is reported by the run that needs it', async () => {
    // a file that is not a model: loading it before the session (as before) ended the session
    // before /help; loaded in the background, only the request that needs it fails
    const dir = mkdtempSync(join(tmpdir(), 'cli-session-'));
    writeFileSync(join(dir, 'broken.gguf'), 'not a gguf');
    writeFileSync(join(dir, 'config.yaml'), 'llm:\n  provider: local\n  model_path: broken.gguf\nagent:\n  verify: off\n');
    const r = await runCli([], dir, '/help\n/history\n/run print 1\n/history\n/exit\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('code-agent — local:broken. Type a requirement, or /help.');
    expect(r.stdout).toContain('/improve [feedback]');
    expect(r.stdout).toContain('No runs yet.');
    expect(r.stdout).toContain('the LLM is unavailable');
    expect(r.stdout).toMatch(/failed\s+\d+ attempts?\s+print 1/);
    expect(r.stderr).toMatch(/the local model .*broken\.gguf could not be loaded/);
  });
});

describe('first steps', () => {
  it('help, ? and exit typed alone are the commands, not requirements sent to the LLM', async () => {
    const r = await session([py('print(1)')], ['help', '?', 'exit', '/run never reached']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/\/improve \[feedback\]/g)).toHaveLength(2);
    expect(r.stdout).not.toContain('[Agent]');
    expect(fake!.requests).toHaveLength(0);
  });
});
