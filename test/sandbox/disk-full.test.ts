/**
 * The host's disk fills while a run's files are kept: the run is recorded as failed with the
 * reason, and no truncated file is left behind. The artifact folder is a 1 MiB tmpfs (mounted as
 * root, as the sandbox tests run); the agent uses the fake OpenAI server and the real sandbox.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';
import { makeExecutor } from './helpers.js';

let fake: FakeOpenAi | undefined;
let small: string;

beforeEach(() => {
  small = mkdtempSync(join(tmpdir(), 'full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', small]);
});

afterEach(async () => {
  await fake?.close();
  fake = undefined;
  execFileSync('umount', [small]);
});

/** Every file under `dir`, with its size. */
function files(dir: string): { path: string; bytes: number }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => join(dir, p))
    .filter((p) => statSync(p).isFile())
    .map((p) => ({ path: p, bytes: statSync(p).size }));
}

describe('the host disk fills while a run keeps its files', () => {
  it('the run ends failed saying so, is recorded failed, and leaves no truncated file', async () => {
    fake = await startFakeOpenAi({
      replies: ['```python\nwith open("big.bin", "wb") as f:\n    f.write(b"x" * 3_000_000)\nprint("written")\n```'],
    });
    const storeFile = join(mkdtempSync(join(tmpdir(), 'full-disk-store-')), 'history.sqlite');
    const store = await KeyvHistoryStore.open(`sqlite://${storeFile}`);
    try {
      const agent = new Agent({
        llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
        executor: makeExecutor(),
        store,
        artifactRoot: small,
        maxRetries: 2,
        verify: 'off',
      });
      const run = await agent.run('cli:t', 'write 3 MB');
      expect(run.status).toBe('failed');
      expect(run.error).toBe("the host's disk is full: the program's file big.bin could not be kept (free some space on the host and run it again)");
      expect(fake.requests).toHaveLength(1); // not the program's fault: no other attempt
      expect((await store.getRun('cli:t', run.id))?.status).toBe('failed');
      expect(files(small).filter((f) => f.path.endsWith('big.bin'))).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
