/**
 * Log lines (pino, json or pretty): every line written while a run is worked on carries its run id
 * and channel, including the operator's line of a real agent run whose LLM cannot be reached;
 * `--log-format` takes json or pretty only.
 */
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, resolvedFormat } from '../../src/log/logger.js';
import { emptyRunUsage, inAccount, inRun } from '../../src/log/scope.js';
import { parseConfig } from '../../src/config/load.js';
import { createApp } from '../../src/app/app.js';
import { closedPort } from '../helpers/net.js';
import { CLI_BIN, requireBuiltCli } from '../helpers/cli.js';

/** A stream that keeps what is written. */
function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

const account = { platform: 'slack', channel: 'slack:T1:C1', user: 'slack:T1:U1' };
const run = { runId: 'r-123', conversationId: 'slack:T1:C1', usage: emptyRunUsage() };

describe('log lines', () => {
  it('json: a run\'s lines carry its run id and channel; a job\'s its channel; others neither', () => {
    const out = sink();
    const log = createLogger({ name: 'worker', level: 'info', format: 'json', stream: out.stream });
    log.info('outside');
    inAccount(account, () => {
      log.info('in the job');
      inRun(run, () => log.warn('in the run'));
    });
    const lines = out.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).not.toHaveProperty('runId');
    expect(lines[0]).not.toHaveProperty('channel');
    expect(lines[1]).toMatchObject({ msg: 'in the job', channel: 'slack:T1:C1', name: 'worker' });
    expect(lines[1]).not.toHaveProperty('runId');
    expect(lines[2]).toMatchObject({ msg: 'in the run', runId: 'r-123', channel: 'slack:T1:C1', level: 40 });
  });

  it('pretty: one readable line with the run id and channel', async () => {
    const out = sink();
    const log = createLogger({ name: 'slack', level: 'info', format: 'pretty', stream: out.stream });
    inRun(run, () => log.info('hello'));
    await new Promise((r) => setTimeout(r, 50));
    const text = out.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/INFO.*\(slack\).*hello/);
    expect(text).toContain('runId: "r-123"');
    expect(text).toContain('channel: "slack:T1:C1"');
    expect(resolvedFormat('auto', true)).toBe('pretty');
    expect(resolvedFormat('auto', false)).toBe('json');
  });

  it('a real run\'s operator line (its LLM unreachable) carries the run id and channel', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'logs-test-'));
    const out = sink();
    const log = createLogger({ name: 'worker', level: 'info', format: 'json', stream: out.stream });
    const config = parseConfig(
      {
        llm: { provider: 'openai', base_url: `http://127.0.0.1:${await closedPort()}/v1`, api_key: 'k', model: 'm', max_retries: 0, timeout_s: 5 },
        store: { url: `sqlite://${join(dir, 'h.sqlite')}`, data_dir: dir },
        sandbox: { warm_pool: 0 },
      },
      {},
    );
    const app = await createApp(config, { warn: (m) => log.warn(m) });
    try {
      const ended = await inAccount(account, () => app.agent.run('slack:T1:C1', 'print one', { requestedBy: 'U1' }));
      expect(ended.status).toBe('failed');
      const lines = out.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const llmLine = lines.find((l) => /cannot reach the LLM/.test(String(l.msg)));
      expect(llmLine, out.text()).toMatchObject({ runId: ended.id, channel: 'slack:T1:C1' });
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('--log-format takes json or pretty, and says so otherwise', () => {
    requireBuiltCli();
    const r = spawnSync(process.execPath, [CLI_BIN, 'worker', '--log-format', 'xml'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--log-format <format>' argument 'xml' is invalid\. Allowed choices are json, pretty/);
  });
});
