/** Queue mode's configuration and start-up errors: clear, by key, and fast when Redis is not there. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { closedPort } from '../helpers/net.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

let dir: string;
beforeAll(async () => {
  requireBuiltCli();
  dir = await mkdtemp(join(tmpdir(), 'queue-startup-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(queue: Record<string, unknown>): Promise<string> {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(
    file,
    stringify({
      llm: { provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-test', model: 'm' },
      store: { url: `sqlite://${join(dir, 'history.sqlite')}`, data_dir: join(dir, 'data') },
      slack: { bot_token: 'xoxb-test', signing_secret: 's', port: 0, api_url: 'http://127.0.0.1:9/api/' },
      queue,
    }),
  );
  return file;
}

describe('queue mode start-up', () => {
  it('names a bad queue key by its path', () => {
    expect(() => parseConfig({ queue: { url: 'http://localhost:6379' } }, {})).toThrow(/queue\.url: expected a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => parseConfig({ queue: { name: 'a:b' } }, {})).toThrow(/queue\.name/);
    const defaults = parseConfig({}, {}).queue;
    expect(defaults.url).toBeUndefined();
    expect(defaults).toMatchObject({ name: 'code-agent', concurrency: 1, lock_s: 30, stalled_interval_s: 30 });
  });

  it('code-agent worker without queue.url says what to set (exit 2)', async () => {
    const result = await runCli(['worker', '--config', await writeConfig({})], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/queue\.url is not set/);
  });

  it('code-agent worker and the Slack ingress fail at once, naming queue.url, when Redis does not answer', async () => {
    const url = `redis://:secret@127.0.0.1:${await closedPort()}`;
    const config = await writeConfig({ url });
    for (const command of ['worker', 'slack']) {
      const started = Date.now();
      const result = await runCli([command, '--config', config], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/cannot reach the queue's Redis at queue\.url \(redis:\/\/\*\*\*@127\.0\.0\.1:\d+\)/);
      expect(result.stderr).not.toContain('secret');
      expect(Date.now() - started).toBeLessThan(15_000);
    }
  });
});
