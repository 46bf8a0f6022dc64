/**
 * `/readyz` with real servers: a worker-like process (runs code, queue on a real Redis, history on a
 * real PostgreSQL, LLM at the fake OpenAI server) turns unready within its deadline when Redis, the
 * store or the LLM server stops, names that part, and is ready again when it returns. `/healthz`
 * answers throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import { createApp, type App } from '../../src/app/app.js';
import { JobQueue } from '../../src/queue/queue.js';
import { opsDeps } from '../../src/health/parts.js';
import { startOpsServer, type OpsServer } from '../../src/health/ops-server.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

/** Each part's deadline, in s. */
const DEADLINE_S = 1;

let dir: string;
let redis: TestServer;
let pg: Awaited<ReturnType<typeof startPostgres>>;
let llm: FakeOpenAi;
let app: App;
let queue: JobQueue;
let ops: OpsServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'readyz-test-'));
  [redis, pg, llm] = await Promise.all([startRedis(), startPostgres(), startFakeOpenAi({ replies: ['ok'] })]);
  const config = parseConfig(
    {
      llm: { provider: 'openai', base_url: llm.url, api_key: 'sk-test', model: 'fake-model', max_retries: 0, timeout_s: 5 },
      store: { url: pg.url, data_dir: join(dir, 'data') },
      queue: { url: redis.url, name: 'readyz' },
      sandbox: { warm_pool: 0 },
      ops: { port: 0, ready_timeout_s: DEADLINE_S },
      log: { level: 'error' },
    },
    {},
  );
  app = await createApp(config, { warn: () => {} });
  queue = await JobQueue.open(config, 5);
  ops = await startOpsServer('127.0.0.1', 0, opsDeps(config, app, { queue, runsCode: true }));
}, 60_000);

afterAll(async () => {
  await ops?.close();
  await queue?.close();
  await app?.close();
  await Promise.all([redis?.stop(), pg?.stop(), llm?.close()]);
  await rm(dir, { recursive: true, force: true });
}, 60_000);

interface ReadyBody {
  status: string;
  parts: Record<string, { ok: boolean; error?: string; ms: number }>;
}

async function readyz(): Promise<{ status: number; body: ReadyBody; ms: number }> {
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${ops.port}/readyz`);
  return { status: res.status, body: (await res.json()) as ReadyBody, ms: Date.now() - started };
}

/** Asks until `/readyz` answers `status` (each answer within the deadline), at most `withinMs`. */
async function until(status: number, withinMs = 20_000): Promise<ReadyBody> {
  const end = Date.now() + withinMs;
  for (;;) {
    const r = await readyz();
    // every part is asked at once, each at most the deadline: an answer never waits much longer
    expect(r.ms).toBeLessThan(DEADLINE_S * 1000 + 1500);
    if (r.status === status) return r.body;
    if (Date.now() > end) throw new Error(`/readyz stayed ${r.status}: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('/readyz with real Redis, PostgreSQL and an LLM server', () => {
  it('is ready when every part answers, naming each', async () => {
    const body = await until(200);
    expect(body.status).toBe('ready');
    expect(Object.keys(body.parts).sort()).toEqual(['llm', 'queue', 'sandbox', 'store']);
    for (const part of Object.values(body.parts)) expect(part.ok).toBe(true);
    const health = await fetch(`http://127.0.0.1:${ops.port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('turns unready when the LLM server stops, and ready when it returns', async () => {
    const port = llm.port;
    await llm.close();
    const down = await until(503);
    expect(down.status).toBe('unready');
    expect(down.parts.llm!.ok).toBe(false);
    expect(down.parts.llm!.error).toMatch(/cannot reach the LLM|ECONNREFUSED/);
    expect(down.parts.store!.ok && down.parts.queue!.ok).toBe(true);
    llm = await startFakeOpenAi({ replies: ['ok'], port });
    expect((await until(200)).parts.llm!.ok).toBe(true);
    // the health check spends no tokens
    expect(llm.requests).toHaveLength(0);
  }, 60_000);

  it('turns unready when Redis (the queue) stops, and ready when it returns', async () => {
    const port = redis.port;
    await redis.stop();
    const down = await until(503);
    expect(down.parts.queue!.ok).toBe(false);
    expect(down.parts.queue!.error).toBeTruthy();
    expect(down.parts.store!.ok && down.parts.llm!.ok).toBe(true);
    redis = await startRedis(port);
    expect((await until(200)).parts.queue!.ok).toBe(true);
  }, 60_000);

  it('turns unready when PostgreSQL (the store) stops, and ready when it returns', async () => {
    await pg.halt();
    const down = await until(503);
    expect(down.parts.store!.ok).toBe(false);
    expect(down.parts.store!.error).toMatch(/history store/);
    // no credential in the answer
    expect(JSON.stringify(down)).not.toMatch(/postgres@/);
    expect(down.parts.queue!.ok && down.parts.llm!.ok).toBe(true);
    await pg.resume();
    expect((await until(200)).parts.store!.ok).toBe(true);
  }, 60_000);

  it('with the store on Redis too: unready while Redis is gone, ready again when it returns', async () => {
    const config = parseConfig(
      { llm: { provider: 'openai', base_url: llm.url, api_key: 'sk-test', model: 'fake-model' }, store: { url: redis.url, data_dir: join(dir, 'data2') }, ops: { ready_timeout_s: DEADLINE_S } },
      {},
    );
    const redisApp = await createApp(config, { warn: () => {}, metrics: null });
    const own = await startOpsServer('127.0.0.1', 0, opsDeps(config, redisApp, { runsCode: false }));
    const ask = async () => (await (await fetch(`http://127.0.0.1:${own.port}/readyz`)).json()) as ReadyBody;
    try {
      expect((await ask()).parts.store!.ok).toBe(true);
      const port = redis.port;
      await redis.stop();
      const end = Date.now() + 20_000;
      let body = await ask();
      while (body.parts.store!.ok && Date.now() < end) body = await ask();
      expect(body.parts.store!.ok).toBe(false);
      // past the client's own reconnection tries: it still comes back
      await new Promise((r) => setTimeout(r, 3000));
      redis = await startRedis(port);
      const back = Date.now() + 20_000;
      body = await ask();
      while (!body.parts.store!.ok && Date.now() < back) {
        await new Promise((r) => setTimeout(r, 200));
        body = await ask();
      }
      expect(body.parts.store).toMatchObject({ ok: true });
    } finally {
      await own.close();
      await redisApp.close();
    }
  }, 60_000);
});
