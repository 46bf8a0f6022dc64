/**
 * deploy/code-agent-slack.service: systemd accepts it without a warning (`systemd-analyze verify`),
 * it starts what the README says, it keeps out the directives that take bubblewrap's user
 * namespaces away, and the sandbox works under its NoNewPrivileges (a run through `setpriv
 * --no-new-privs`, as systemd starts it).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN, requireBuiltCli } from '../helpers/cli.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

const UNIT = 'deploy/code-agent-slack.service';
const text = readFileSync(UNIT, 'utf8');

/** `key=value` lines of one section (comments and blank lines left out). */
function section(name: string): [string, string][] {
  const body = text.split(/^\[/m).find((s) => s.startsWith(`${name}]`)) ?? '';
  return body
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .map((l) => {
      const i = l.indexOf('=');
      return [l.slice(0, i).trim(), l.slice(i + 1).trim()];
    });
}

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the systemd unit', () => {
  it('passes systemd-analyze verify without a warning', () => {
    const r = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
    expect(r.error, 'systemd-analyze is part of the systemd package').toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe('');
  });

  it('starts the Slack bot from the built CLI as an unprivileged user, restarting on failure', () => {
    const service = new Map(section('Service'));
    expect(service.get('ExecStart')).toBe('/usr/bin/node /opt/code-agent/dist/adapters/cli/bin.js slack');
    expect(service.get('WorkingDirectory')).toBe('/opt/code-agent');
    expect(service.get('User')).toBe('code-agent');
    expect(service.get('Restart')).toBe('on-failure');
    expect(new Map(section('Install')).get('WantedBy')).toBe('multi-user.target');
  });

  it('keeps out what would take bubblewrap its namespaces', () => {
    const keys = section('Service').map(([k]) => k);
    for (const forbidden of ['PrivateUsers', 'RestrictNamespaces', 'SystemCallFilter', 'MemoryDenyWriteExecute', 'CapabilityBoundingSet']) {
      expect(keys).not.toContain(forbidden);
    }
  });

  it('leaves the sandbox working under NoNewPrivileges=yes', async () => {
    requireBuiltCli();
    expect(new Map(section('Service')).get('NoNewPrivileges')).toBe('yes');
    fake = await startFakeOpenAi({ replies: ['```python\nprint(sum(range(10)))\n```'] });
    const dir = mkdtempSync(join(tmpdir(), 'unit-'));
    writeFileSync(join(dir, 'config.yaml'), `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: m\nagent:\n  verify: off\n`);
    // asynchronously: the fake LLM answers from this process
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
      execFile('setpriv', ['--no-new-privs', process.execPath, CLI_BIN, 'run', '--json', 'sum 0..9'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 60_000 }, (err, out, errOut) =>
        resolve({ stdout: out, stderr: errOut, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
      );
    });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ success: true, stdout: '45\n' });
  });
});
