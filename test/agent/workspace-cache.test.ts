/**
 * A turn restores the run's workspace through this machine's cache: the second turn of a run finds
 * its file even when the store's copy of the content is gone (only the cache could give it), and a
 * file given in that turn is read from what was stored. The real agent, sandbox and store (Keyv over
 * a Map), the fake LLM.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { Agent } from '../../src/agent/loop/index.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { WorkspaceCache } from '../../src/history/workspace-cache.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { BubblewrapExecutor } from '../../src/sandbox/executor.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('a turn restores through the workspace cache', () => {
  it('the next turn finds the file the store no longer holds; a new file comes from the store', async () => {
    fake = await startFakeOpenAi({
      replies: [py('print(open("notes.txt").read().strip())'), py('print(open("notes.txt").read().strip(), open("more.txt").read().strip())')],
    });
    const map = new Map<string, unknown>();
    const agent = new Agent({
      llm: new OpenAiProvider({ baseUrl: fake.url, model: 'fake-model', maxRetries: 0 }),
      executor: new BubblewrapExecutor({ limits: { wallTimeS: 10 } }),
      store: new KeyvHistoryStore(map),
      artifactRoot: tempDir('ws-cache-artifacts-'),
      maxRetries: 0,
      verify: 'off',
      workspaceCache: new WorkspaceCache({ dir: join(tempDir('ws-cache-'), 'cache') }),
    });
    const run = await agent.run('cli:t', 'print the notes', { inputFiles: [{ name: 'notes.txt', content: Buffer.from('first note\n') }] });
    expect(run.attempts[0]!.result?.stdout).toBe('first note\n');
    // the store loses the contents it holds (`blob:<conversation>:<run>:<sha256>`): only the cache has notes.txt now
    const blobs = [...map.keys()].filter((k) => k.includes('blob:'));
    expect(blobs).toHaveLength(1);
    blobs.forEach((k) => map.delete(k));
    const improved = await agent.improve(run, 'also print more.txt', { inputFiles: [{ name: 'more.txt', content: Buffer.from('second\n') }] });
    expect(improved.status).toBe('success');
    expect(improved.attempts.at(-1)!.result?.stdout).toBe('first note second\n');
  }, 60_000);
});
