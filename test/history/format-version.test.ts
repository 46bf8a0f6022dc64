/**
 * The store's format version on every backend (a temp SQLite file, a real redis-server and
 * PostgreSQL, the in-process Map): a fresh store is stamped 1, a store written before versions
 * existed is stamped and still read, a newer store is refused with both versions named, two
 * processes starting at once both end at 1, a migration that fails half-way is applied again by the
 * next start, and a killed migrator's lease expires.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { MIGRATIONS, STORE_FORMAT_VERSION, type Migration } from '../../src/history/format-version.js';
import type { Run } from '../../src/history/types.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { startPostgres, startRedis, type TestServer } from '../helpers/servers.js';

const execFileP = promisify(execFile);
const CHILD = resolve('test/helpers/version-child.mjs');
const quiet = { log: () => undefined };

function makeRun(id: string, conversationId: string): Run {
  const now = '2026-01-01T00:00:00.000Z';
  return { id, conversationId, requirement: `req ${id}`, status: 'success', attempts: [], createdAt: now, updatedAt: now };
}

async function sqliteServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'version-sqlite-'));
  return { url: `sqlite://${join(dir, 'history.sqlite')}`, port: 0, stop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** Forgets the recorded version, as a store written before versions existed has none. */
async function unstamp(url: string): Promise<void> {
  const store = await KeyvHistoryStore.open(url);
  const { atomics, keyv } = store.internals();
  try {
    if (url.startsWith('redis')) await keyv.store.client.del('code-agent:format-version');
    else if (url.startsWith('sqlite')) await (atomics as unknown as { query: (s: string, p: unknown[]) => Promise<unknown> }).query("DELETE FROM code_agent_meta WHERE name = 'format_version'", []);
    else await (atomics as unknown as { pool: { query: (s: string) => Promise<unknown> } }).pool.query("DELETE FROM code_agent_meta WHERE name = 'format_version'");
    expect(await atomics.formatVersion()).toBeUndefined();
  } finally {
    await store.close();
  }
}

describe('format version of the in-process Map store', () => {
  it('is stamped 1 by upgrade, and a newer one is refused', async () => {
    const store = new KeyvHistoryStore(new Map());
    expect(await store.formatVersion()).toBeUndefined();
    expect(await store.upgrade(quiet)).toEqual({ from: 0, to: 1, applied: [1] });
    expect(await store.formatVersion()).toBe(1);
    await store.internals().atomics.setFormatVersion(1, 7);
    await expect(store.upgrade(quiet)).rejects.toThrow(/format version 7, newer than this code-agent's 1/);
  });
});

describe.each([
  { name: 'sqlite', start: sqliteServer },
  { name: 'redis', start: startRedis },
  { name: 'postgres', start: startPostgres },
])('format version on $name', ({ start }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('stamps a fresh store with version 1', async () => {
    expect(STORE_FORMAT_VERSION).toBe(1);
    const store = await KeyvHistoryStore.open(server.url);
    try {
      expect(await store.formatVersion()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('stamps a store written before versions existed, and reads its records', async () => {
    const store = await KeyvHistoryStore.open(server.url);
    await store.saveRun(makeRun('old-1', 'fixture:c1'));
    await store.linkThread('fixture:c1', 't1', 'old-1');
    await store.close();
    await unstamp(server.url);
    const reopened = await KeyvHistoryStore.open(server.url);
    try {
      expect(await reopened.formatVersion()).toBe(1);
      expect((await reopened.findRunByThread('fixture:c1', 't1'))?.requirement).toBe('req old-1');
    } finally {
      await reopened.close();
    }
  });

  it('refuses a store newer than itself, naming both versions, and changes nothing', async () => {
    const store = await KeyvHistoryStore.open(server.url);
    expect(await store.internals().atomics.setFormatVersion(1, 99)).toBe(true);
    await store.close();
    const error = await KeyvHistoryStore.open(server.url).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).toMatch(/has format version 99, newer than this code-agent's 1: a newer release wrote it\. Run a release that reads version 99/);
    const raw = await KeyvHistoryStore.open(server.url).catch(() => undefined);
    expect(raw).toBeUndefined();
    // put back for the next tests: through the atomics directly (open refuses)
    const { openBackend } = await import('../../src/history/backends.js');
    const backend = await openBackend(server.url);
    expect(await backend.atomics.formatVersion()).toBe(99);
    expect(await backend.atomics.setFormatVersion(99, 1)).toBe(true);
    await backend.atomics.close();
  });

  it('applies a migration again when it failed half-way, and waits out a killed migrator\'s lease', async () => {
    const store = await KeyvHistoryStore.open(server.url);
    try {
      let calls = 0;
      const two: Migration = {
        to: 2,
        what: 'test step',
        apply: async ({ keyv }) => {
          calls++;
          await keyv.set('migration-test-mark', calls);
          if (calls === 1) throw new Error('killed half-way');
        },
      };
      const migrations = [...MIGRATIONS, two];
      await expect(store.upgrade({ ...quiet, migrations, current: 2 })).rejects.toThrow(/killed half-way/);
      expect(await store.formatVersion()).toBe(1);
      // a process killed while migrating leaves its lease: the next one waits until it expires
      const { atomics } = store.internals();
      expect(await atomics.lease('store-format-migration', 'killed-process', 1500)).toBe(true);
      const started = Date.now();
      expect(await store.upgrade({ ...quiet, migrations, current: 2 })).toEqual({ from: 1, to: 2, applied: [2] });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(calls).toBe(2);
      expect(await store.formatVersion()).toBe(2);
      expect(await atomics.setFormatVersion(2, 1)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('two processes starting at once on a store without a version both end at version 1', async () => {
    requireBuiltCli();
    await unstamp(server.url);
    const at = String(Date.now() + 1500);
    const outputs = await Promise.all([0, 1].map(() => execFileP(process.execPath, [CHILD, server.url, at], { timeout: 60_000 })));
    for (const { stdout } of outputs) expect(JSON.parse(stdout)).toEqual({ version: 1 });
    const store = await KeyvHistoryStore.open(server.url);
    try {
      expect(await store.formatVersion()).toBe(1);
    } finally {
      await store.close();
    }
  }, 90_000);
});
