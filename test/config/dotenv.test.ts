/** `.env` in the current directory: read when present, never overriding a variable already set. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDotEnv } from '../../src/config/dotenv.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

const dir = () => mkdtempSync(join(tmpdir(), 'dotenv-'));
let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('.env', () => {
  it('sets what is not set, keeps what is, and does nothing without a file', () => {
    const d = dir();
    const env: NodeJS.ProcessEnv = { SLACK_BOT_TOKEN: 'from-the-shell' };
    expect(loadDotEnv(d, env)).toEqual([]);
    writeFileSync(join(d, '.env'), '# secrets\nSLACK_BOT_TOKEN=from-the-file\nDISCORD_TOKEN="quoted value"\nEMPTY=\n');
    expect(loadDotEnv(d, env).sort()).toEqual(['DISCORD_TOKEN', 'EMPTY', 'SLACK_BOT_TOKEN']);
    expect(env).toEqual({ SLACK_BOT_TOKEN: 'from-the-shell', DISCORD_TOKEN: 'quoted value', EMPTY: '' });
  });

  it('configures `code-agent run` with no config.yaml, and a variable set in the shell wins', async () => {
    requireBuiltCli();
    fake = await startFakeOpenAi({ replies: ['```python\nprint(6 * 7)\n```', '```python\nprint(6 * 7)\n```'] });
    const d = dir();
    writeFileSync(join(d, '.env'), `OPENAI_BASE_URL=${fake.url}\nCODE_AGENT_MODEL=from-dotenv\nCODE_AGENT_VERIFY=off\n`);
    const r = await runCli(['run', '--json', 'multiply'], d);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).stdout).toBe('42\n');
    expect(fake.requests[0]!.model).toBe('from-dotenv');
    const shell = await runCli(['run', '--json', 'multiply'], d, '', { CODE_AGENT_MODEL: 'from-shell' });
    expect(shell.code, shell.stderr).toBe(0);
    expect(fake.requests[1]!.model).toBe('from-shell');
  });
});
