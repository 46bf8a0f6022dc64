/**
 * Every store operation has a deadline and a clear error naming the store; SQLite shared by many
 * processes waits for its lock instead of failing; a corrupt index never fails a run. The built CLI
 * as a user runs it (fake OpenAI server, real sandbox), real redis-server and SQLite files.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import type { Run } from '../../src/history/types.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from '../fakes/openai-server.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { closedPort } from '../helpers/net.js';
import { startRedis, type TestServer } from '../helpers/servers.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\`\n`;

/** Every fake LLM a test started (tests run at once: each has its own), closed after the file. */
const fakes: FakeOpenAi[] = [];
afterAll(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

beforeAll(requireBuiltCli);

/** A folder with a config for a fake LLM of its own and the given store. */
async function cliDir(storeUrl: string, replies: FakeReply[] = [py('print(1)')]): Promise<{ dir: string; fake: FakeOpenAi }> {
  const fake = await startFakeOpenAi({ replies });
  fakes.push(fake);
  const dir = mkdtempSync(join(tmpdir(), 'store-faults-'));
  writeFileSync(
    join(dir, 'config.yaml'),
    `llm:\n  provider: openai\n  base_url: ${fake.url}\n  model: fake-model\n  max_retries: 0\nagent:\n  verify: off\nstore:\n  url: ${storeUrl}\n`,
  );
  return { dir, fake };
}

function makeRun(id: string, conversationId = 'cli:test'): Run {
  const now = new Date().toISOString();
  return { id, conversationId, requirement: `req ${id}`, status: 'success', attempts: [], createdAt: now, updatedAt: now };
}

// these three mostly wait (for a deadline, a connection, the LLM): they run at once
describe.concurrent('a store that is not there', () => {
  it('S1: redis on a closed port: `run --json` says which store and why within seconds, exit 2', async ({ expect }) => {
    const port = await closedPort();
    const { dir, fake } = await cliDir(`redis://127.0.0.1:${port}`);
    const started = Date.now();
    const r = await runCli(['run', '--json', 'print 1'], dir);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { success: boolean; attempts: number; error: string };
    expect(out).toMatchObject({ success: false, attempts: 0 });
    expect(out.error).toBe(`the history store redis://127.0.0.1:${port}: cannot open: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(fake.requests).toHaveLength(0);
  }, 30_000);

  it('a server that accepts connections and never answers: the deadline names the store, exit 2', async ({ expect }) => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const { dir } = await cliDir(`redis://127.0.0.1:${port}`);
      const started = Date.now();
      const r = await runCli(['run', '--json', 'print 1'], dir);
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toBe(`the history store redis://127.0.0.1:${port}: cannot open: no answer within 10 s`);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => silent.close(r));
    }
  }, 40_000);

  it('redis lost in the middle of a run: the run ends with an error naming the store, the process exits', async ({ expect }) => {
    let redis: TestServer | undefined = await startRedis();
    try {
      const { dir, fake } = await cliDir(redis.url, [{ content: py('print(1)'), delayMs: 2500 }]);
      const running = runCli(['run', '--json', 'print 1'], dir);
      await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBe(1); // the run is stored and waiting for the LLM
      const url = redis.url;
      await redis.stop();
      redis = undefined;
      const started = Date.now();
      const r = await running;
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(r.code).toBe(1);
      expect(`${r.stdout}\n${r.stderr}`).toContain(`the history store ${url}: cannot save a run`);
    } finally {
      await redis?.stop();
    }
  }, 40_000);
});

describe('a corrupt index never fails a run', () => {
  it('redis: an index key of the wrong type is reported once; runs are still saved and read', async () => {
    const redis = await startRedis();
    const client = createClient({ url: redis.url });
    await client.connect();
    await client.set('code-agent:index:cli:test', 'not a list');
    await client.close();
    const logs: string[] = [];
    const store = await KeyvHistoryStore.open(redis.url, (m) => logs.push(m));
    try {
      await store.saveRun(makeRun('a'));
      await store.saveRun({ ...makeRun('a'), status: 'failed' });
      await store.saveRun(makeRun('b'));
      expect((await store.getRun('cli:test', 'a'))?.status).toBe('failed');
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(new RegExp(`the history store ${redis.url}: cannot index a run: WRONGTYPE.*run a was saved but is not listed`));
    } finally {
      await store.close();
      await redis.stop();
    }
  }, 30_000);

  it('an index from an earlier version that is corrupt: reported once, new runs saved and listed', async () => {
    const map = new Map<string, unknown>();
    const logs: string[] = [];
    const store = new KeyvHistoryStore(map, 'the history store test', undefined, (m) => logs.push(m));
    // the Keyv key of the old index, holding something that is not a list of ids
    map.set('code-agent:runs:cli:test', JSON.stringify({ value: { not: 'a list' }, expires: null }));
    await store.saveRun(makeRun('a'));
    await store.saveRun(makeRun('b'));
    expect((await store.listRuns('cli:test')).map((r) => r.id)).toEqual(['b', 'a']);
    expect(logs).toEqual([expect.stringMatching(/the history store test: the run index of cli:test is corrupt; it was left untouched; runs saved before it are not listed/)]);
  });
});

describe('SQLite shared by processes', () => {
  /**
   * How many `code-agent run` processes start at once. Ten contend for the file's lock: measured with
   * the busy timeout set to 0 (no waiting), 7 of 10 processes met SQLITE_BUSY in each of 3 tries
   * (2 to 5 of 8 in each of 6 tries), so a store that did not wait for the lock fails this test.
   */
  const PROCESSES = 10;
  it(`S2: ${PROCESSES} \`code-agent run\` at once on one history.sqlite: none fails for the lock, every run recorded once with its final status`, async () => {
    const { dir } = await cliDir('sqlite://data/history.sqlite');
    const results = await Promise.all(Array.from({ length: PROCESSES }, (_, i) => runCli(['run', '--json', `print ${i}`], dir)));
    for (const r of results) {
      expect(r.stderr).not.toMatch(/SQLITE_BUSY|database is locked/);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
    }
    const store = await KeyvHistoryStore.open(`sqlite://${join(dir, 'data', 'history.sqlite')}`);
    try {
      const runs = await store.listRuns('cli:local', 100);
      expect(runs).toHaveLength(PROCESSES);
      expect(new Set(runs.map((r) => r.id)).size).toBe(PROCESSES);
      expect(new Set(runs.map((r) => r.requirement))).toEqual(new Set(Array.from({ length: PROCESSES }, (_, i) => `print ${i}`)));
      expect(runs.every((r) => r.status === 'success')).toBe(true);
    } finally {
      await store.close();
    }
  }, 240_000);
});
