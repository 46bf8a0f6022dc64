/**
 * The `code-agent` binary as a user runs it: a subprocess of the built CLI (`npm run build` first),
 * the real openai client against the fake OpenAI server, the real sandbox.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, requireBuiltCli, runCli, type CliResult } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

beforeAll(requireBuiltCli);

/** Runs the CLI in a fresh folder with a config that points at the fake server. */
async function cli(args: string[], options: { replies?: FakeReply[]; config?: string; input?: string } = {}): Promise<CliResult & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cli-'));
  if (options.replies) fake = await startFakeOpenAi({ replies: options.replies });
  const config =
    options.config ??
    `llm:\n  provider: openai\n  base_url: ${fake?.url ?? 'http://127.0.0.1:9/v1'}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\nsandbox:\n  timeout_s: 5\n`;
  writeFileSync(join(dir, 'config.yaml'), config);
  return { ...(await runCli(args, dir, options.input)), dir };
}

describe('the installed command', () => {
  it('is executable as built, so `npx code-agent` runs it directly', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(CLI_BIN, ['--version'], (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('help', () => {
  it('a reader that closes the pipe early (`--help | head -1`) ends the command quietly, exit 0', async () => {
    const child = spawn(process.execPath, [CLI_BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the first write
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });

  it('`help` and `help <command>` print the usage on stdout and exit 0', async () => {
    const top = await cli(['help']);
    expect(top.code).toBe(0);
    expect(top.stderr).toBe('');
    expect(top.stdout).toMatch(/^Usage: code-agent \[options\] \[command\]/);
    expect(top.stdout).toMatch(/run \[options\] \[requirement\.\.\.\][\s\S]*doctor[\s\S]*model/);
    expect(top.stdout).toContain('Without a command, code-agent starts an interactive session');
    const run = await cli(['help', 'run']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: code-agent run \[options\] \[requirement\.\.\.\]/);
    expect(run.stdout).toContain('-f, --file <path>');
    expect(run.stdout).toMatch(/Exit codes: 0 success, 1 .*\n?.*2 usage, config or sandbox error, 130 cancelled/);
    const fetch = await cli(['help', 'model', 'fetch']);
    expect(fetch.code).toBe(0);
    expect(fetch.stdout).toMatch(/^Usage: code-agent model fetch \[options\] \[name\]/);
  });

  it('an unknown command is named, with the commands listed, exit 2 (a requirement typed without run gets a hint)', async () => {
    for (const args of [['bogus'], ['help', 'bogus']]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("error: unknown command 'bogus'");
      expect(r.stderr).not.toContain('too many arguments');
      expect(r.stderr).toMatch(/Commands:[\s\S]*run \[options\][\s\S]*doctor[\s\S]*model/);
    }
    const typed = await cli(['print', 'hello']);
    expect(typed.code).toBe(2);
    expect(typed.stderr).toContain(`unknown command 'print hello'; to run a requirement: code-agent run "print hello"`);
    const sub = await cli(['slack', 'manfest']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain("error: unknown command 'manfest'");
    expect(sub.stderr).toContain('Usage: code-agent slack [options] [command]');
  });

  it('--help says what the option values are, without noise', async () => {
    const run = await cli(['run', '--help']);
    expect(run.stdout).toContain('0 to 20 (default');
    expect(run.stdout).not.toContain('(default: [])');
    expect(run.stdout).toContain('config file (default ./config.yaml, or');
  });
});

describe('code-agent run', () => {
  it('prints progress lines and exits 0 after an auto-fix', async () => {
    const r = await cli(['run', 'print the mean of 1..10'], {
      replies: [py('print(mean)'), py('print(sum(range(1, 11)) / 10)')],
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[Agent] Generating code…');
    expect(r.stdout).toContain("[Agent] Execution failed: NameError: name 'mean' is not defined");
    expect(r.stdout).toContain('[Agent] --- Improvement attempt 1/3 ---');
    expect(r.stdout).toContain('5.5');
    expect(r.stdout).toContain('[Agent] Success after 2 attempts');
    expect(fake!.requests[1]!.messages.at(-1)!.content).toContain("NameError: name 'mean' is not defined");
  });

  it('--json prints the contract object, with the plot kept under the data folder', async () => {
    const r = await cli(['run', '--json', 'plot a line'], {
      replies: [py('import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.legend(["a"])\nprint("plotted")')],
    });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json).sort()).toEqual(
      ['artifacts', 'attempts', 'code', 'durationMs', 'exitCode', 'outcome', 'runDurationMs', 'stderr', 'stdout', 'success', 'timedOut'].sort(),
    );
    expect(json).toMatchObject({ success: true, attempts: 1, stdout: 'plotted\n', exitCode: 0, timedOut: false });
    expect(json.runDurationMs).toBeGreaterThanOrEqual(json.durationMs); // the whole run includes the execution
    expect(json.artifacts).toHaveLength(1);
    expect(json.artifacts[0].name).toMatch(/\.png$/);
    expect(json.artifacts[0].path.startsWith(join(r.dir, 'data', 'artifacts'))).toBe(true);
    expect(readFileSync(json.artifacts[0].path).length).toBe(json.artifacts[0].bytes);
    expect(r.stderr).toContain('[Agent] Generating code…'); // progress goes to stderr in JSON mode
  });

  it('exits 1 when the code still fails after --max-retries', async () => {
    const r = await cli(['run', '--max-retries', '1', '--json', 'fail'], { replies: [py('import sys\nsys.exit(3)')] });
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ success: false, attempts: 2, exitCode: 3 });
    expect(fake!.requests).toHaveLength(2);
  });

  it('exits 2 with a clear message for an empty requirement, without calling the LLM', async () => {
    const r = await cli(['run', '   '], { replies: [py('print(1)')] });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the requirement is empty');
    expect(fake!.requests).toHaveLength(0);
  });

  it('exits 2 for a bad config key, naming it by path', async () => {
    const r = await cli(['run', 'x'], { config: 'sandbox:\n  timeout_s: soon\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sandbox.timeout_s: expected a number');
  });

  it('--json still prints one object on stdout for a usage or config error', async () => {
    const r = await cli(['run', '--json', 'x'], { config: 'sandbox:\n  timeout_s: soon\n' });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: false, attempts: 0, outcome: 'failed', runDurationMs: 0, error: expect.stringContaining('sandbox.timeout_s') });
  });

  it('--json names each bad key of the config on its own, for run and for doctor', async () => {
    const config = 'sandbox:\n  timeout_s: soon\nagent:\n  max_retries: -1\n';
    const problems = [
      { path: 'agent.max_retries', problem: expect.stringContaining('≥ 0') },
      { path: 'sandbox.timeout_s', problem: 'expected a number' },
    ];
    const run = await cli(['run', '--json', 'x'], { config });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ success: false, problems });
    // `error` stays one line
    expect(JSON.parse(run.stdout).error).toMatch(/is invalid: agent\.max_retries: [^\n]*; sandbox\.timeout_s: expected a number$/);
    const doctor = await cli(['doctor', '--json'], { config });
    expect(doctor.code).toBe(2);
    expect(JSON.parse(doctor.stdout)).toEqual({ error: expect.stringContaining('is invalid'), problems });
  });

  it('exits 2 with the ways to configure an LLM when none is set', async () => {
    const r = await cli(['run', 'x'], { config: 'llm:\n  models_dir: empty-models\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No LLM is configured');
    expect(r.stderr).toMatch(/OPENAI_API_KEY[\s\S]*base_url[\s\S]*model_path/);
  });

  it('refuses with exit 2, why and how to fix, before any LLM call when the sandbox cannot isolate', async () => {
    // a python the host has but the sandbox cannot see (only /usr is bound inside): the self-test fails
    const link = join(mkdtempSync(join(tmpdir(), 'py-')), 'python3');
    symlinkSync('/usr/bin/python3', link);
    fake = await startFakeOpenAi({ replies: [py('print(1)')] });
    const r = await cli(['run', 'x'], {
      config: `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\nsandbox:\n  python: ${link}\n`,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sandbox|isolat/i);
    expect(r.stderr).toContain('/usr');
    expect(fake.requests).toHaveLength(0);
  });

  it('exits 1 when the LLM is unreachable: plain words in the run, the URL in the operator log (stderr)', async () => {
    const r = await cli(['run', 'x']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('the LLM is unavailable');
    expect(r.stdout).not.toContain('127.0.0.1');
    expect(r.stderr).toContain('http://127.0.0.1:9/v1');
  });
});

describe('interactive session', () => {
  it('runs, shows, improves, lists history and saves', async () => {
    const input = ['/help', 'print hello', '/show', '/improve say goodbye too', '/history', '/save out.py', '/bogus', '/open 1', '/open 9', '/exit', ''].join('\n');
    const r = await cli([], {
      replies: [py('print("hello")'), py('print("hello")\nprint("goodbye")')],
      input,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('/improve [feedback]');
    expect(r.stdout).toContain('1 | print("hello")');
    expect(r.stdout).toContain('goodbye');
    expect(r.stdout).toMatch(/success\s+2 attempts\s+print hello/);
    expect(r.stdout).toContain('Unknown command /bogus');
    expect(r.stdout).toContain('Run 1 is now current: print hello (success)');
    expect(r.stdout).toContain('there is no run 9 in /history');
    expect(readFileSync(join(r.dir, 'out.py'), 'utf8')).toBe('print("hello")\nprint("goodbye")\n');
    expect(fake!.requests[1]!.messages.at(-1)!.content).toContain('say goodbye too');
  });

  it('shows a run whose process was killed mid-run as failed (interrupted), not running forever', async () => {
    fake = await startFakeOpenAi({ replies: [{ hang: true }, py('print("after")')] });
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\n`);
    const killed = spawn(process.execPath, [CLI_BIN, 'run', 'never finishes'], { cwd: dir, env: { PATH: process.env.PATH ?? '' }, stdio: 'ignore' });
    const deadline = Date.now() + 45_000; // a CLI's start (the sandbox's checks) takes over 20 s on a busy machine
    while (fake.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests).toHaveLength(1); // the run is stored as running and waits for the LLM
    killed.kill('SIGKILL');
    await new Promise((r) => killed.on('close', r));

    const r = await runCli([], dir, '/history\n/open 1\n/exit\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/failed\s+0 attempts\s+never finishes/);
    expect(r.stdout).toContain('Run 1 is now current: never finishes (failed)');
  });

  it('explains what to do when there is no code yet', async () => {
    const r = await cli([], { replies: [py('print(1)')], input: '/show\n/execute\n/save x.py\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no current code yet');
    expect(fake!.requests).toHaveLength(0);
  });
});
