/**
 * C10: `code-agent run` leaves nothing in the temp dir (the built CLI as a subprocess, the real
 * openai client against the fake server, the real sandbox).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, requireBuiltCli } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

let fake: FakeOpenAi;
beforeAll(async () => {
  requireBuiltCli();
  fake = await startFakeOpenAi({ replies: ['```python\nprint(1)\n```'] });
});
afterAll(() => fake.close());

function run(cwd: string, temp: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [CLI_BIN, 'run', 'print 1'], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, TMPDIR: temp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('C10: temp left behind', () => {
  it('three runs leave no code-agent-sandbox-* folder in the temp dir', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cli-temp-'));
    const temp = mkdtempSync(join(tmpdir(), 'cli-tmpdir-'));
    chmodSync(temp, 0o711); // the sandbox uid must traverse it, as it does the OS temp dir
    writeFileSync(join(cwd, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nsandbox:\n  timeout_s: 5\n`);
    for (let i = 0; i < 3; i++) {
      const r = await run(cwd, temp);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[Agent] Success after 1 attempt');
    }
    expect(readdirSync(temp).filter((n) => n.startsWith('code-agent-sandbox-'))).toEqual([]);
  }, 60_000);

  it('SIGTERM during an execution cancels the run at once (exit 143) and leaves no folder', async () => {
    const slow = await startFakeOpenAi({ replies: ['```python\nimport time\ntime.sleep(8)\nprint("late")\n```'] });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'cli-term-'));
      const temp = mkdtempSync(join(tmpdir(), 'cli-tmpdir-'));
      chmodSync(temp, 0o711);
      writeFileSync(join(cwd, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${slow.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\nsandbox:\n  timeout_s: 20\n`);
      const child = spawn(process.execPath, [CLI_BIN, 'run', 'sleep a while'], {
        cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, TMPDIR: temp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      const closed = new Promise<number | null>((r) => child.on('close', r));
      const started = Date.now();
      while (!stdout.includes('Executing code in the sandbox') && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
      const sent = Date.now();
      child.kill('SIGTERM');
      expect(await closed).toBe(143);
      expect(Date.now() - sent).toBeLessThan(5000);
      expect(stdout).not.toContain('--- stdout ---\nlate');
      expect(stdout).toContain('cancelled');
      expect(readdirSync(temp).filter((n) => n.startsWith('code-agent-sandbox-'))).toEqual([]);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('a process ended by SIGTERM removes its folder too', async () => {
    const script = `import { createWorkRoot } from ${JSON.stringify(resolve('dist/src/sandbox/work-root.js'))};
const root = await createWorkRoot(); console.log(root.path); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const path = await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
    expect(existsSync(path)).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(existsSync(path)).toBe(false);
  });
});
