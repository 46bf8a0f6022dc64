/**
 * Model files: URI → cached name, finding a cached model, the offline message, chat mapping,
 * the progress line, and how `llm.provider` auto/local choose a model.
 */
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cachedFileName,
  downloadUrlOf,
  findCachedGguf,
  findDownloadedModel,
  ModelFileError,
  pullModel,
} from '../../src/llm/model-files.js';
import { formatProgress } from '../../src/llm/model-progress.js';
import { toChatHistory } from '../../src/llm/local-messages.js';
import { resolveLocalModel } from '../../src/llm/model-resolve.js';
import { createLlmProvider, noLlmMessage } from '../../src/llm/factory.js';
import { freeSharedModels } from '../helpers/models.js';
import { llmSchema } from '../../src/config/schema.js';
import { ConfigError } from '../../src/config/load.js';
import { TEST_MODEL_FILE, testModelPath, testThreads } from '../../scripts/test-model.js';
import { closedPort } from '../helpers/net.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'ca-models-'));
  dirs.push(d);
  return d;
}
// freeing the model may not finish under a full parallel run (helpers/models.ts): bounded there
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  await freeSharedModels();
}, 120_000);


const llm = (over: Record<string, unknown>) => llmSchema.parse(over);

describe('model URIs', () => {
  it('names the cached file the way node-llama-cpp does', () => {
    expect(cachedFileName('hf:Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf')).toBe(
      'hf_Qwen_qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
    );
    expect(cachedFileName('https://example.org/m/tiny.gguf')).toBe('tiny.gguf');
    expect(cachedFileName('hf:Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF:Q4_K_M')).toBeUndefined();
    expect(downloadUrlOf('hf:o/r/sub/f.gguf')).toBe('https://huggingface.co/o/r/resolve/main/sub/f.gguf');
  });

  it('finds a downloaded URI in the models dir without the network', async () => {
    const dir = await tempDir();
    const uri = 'hf:Owner/Repo-GGUF/model-q4.gguf';
    expect(await findDownloadedModel(uri, dir)).toBeUndefined();
    await writeFile(join(dir, 'hf_Owner_model-q4.gguf'), 'GGUF');
    expect(await findDownloadedModel(uri, dir)).toBe(join(dir, 'hf_Owner_model-q4.gguf'));
    expect(await pullModel(uri, { directory: dir })).toBe(join(dir, 'hf_Owner_model-q4.gguf'));
  });

  it('finds the first .gguf file in a models dir, ignoring other files', async () => {
    const dir = await tempDir();
    expect(await findCachedGguf(join(dir, 'missing'))).toBeUndefined();
    await writeFile(join(dir, 'notes.txt'), 'x');
    await writeFile(join(dir, 'empty.gguf'), '');
    await mkdir(join(dir, 'dir.gguf'));
    expect(await findCachedGguf(dir)).toBeUndefined();
    await writeFile(join(dir, 'b.gguf'), 'GGUF');
    await writeFile(join(dir, 'a.gguf'), 'GGUF');
    expect(await findCachedGguf(dir)).toBe(join(dir, 'a.gguf'));
  });

  it('when the download fails, names the file to get and where to put it', async () => {
    const dir = await tempDir();
    const uri = `http://127.0.0.1:${await closedPort()}/models/tiny-coder.gguf`;
    const err = await pullModel(uri, { directory: dir, connectTimeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelFileError);
    const message = (err as Error).message;
    expect(message).toContain(`Could not download the model ${uri}`);
    expect(message).toContain(join(dir, 'tiny-coder.gguf'));
    expect(message).toContain('llm.model_path');
    expect(message).toMatch(/unreachable \(ECONNREFUSED\)/);
  });

  it('with model: hf:… and no network, `code-agent run`-style resolution fails with the file to get', async () => {
    const dir = await tempDir();
    const err = await resolveLocalModel(
      llm({ model: `hf:Owner/Repo-GGUF/tiny.gguf`, models_dir: dir, download_timeout_s: 3 }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelFileError);
    expect((err as Error).message).toContain('https://huggingface.co/Owner/Repo-GGUF/resolve/main/tiny.gguf');
    expect((err as Error).message).toContain(join(dir, 'hf_Owner_tiny.gguf'));
  });

  it('gives up after the connect timeout when the network does not answer', async () => {
    const srv = net.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const { port } = srv.address() as net.AddressInfo;
    try {
      const started = Date.now();
      const err = await pullModel(`http://127.0.0.1:${port}/m.gguf`, {
        directory: await tempDir(),
        connectTimeoutMs: 300,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelFileError);
      expect((err as Error).message).toContain('no answer from the network within');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      srv.close();
    }
  });
});

describe('progress line', () => {
  it('shows a bar, a percentage and mebibytes (MiB)', () => {
    const mb = 1024 * 1024;
    expect(formatProgress({ totalSize: 100 * mb, downloadedSize: 50 * mb })).toBe(
      `[${'#'.repeat(15)}${'.'.repeat(15)}]  50%  50.0/100.0 MiB`,
    );
    expect(formatProgress({ totalSize: 0, downloadedSize: 0 })).toContain('  0%');
  });
});

describe('toChatHistory', () => {
  it('maps roles, joins repeated roles and ends with an empty model turn', () => {
    expect(
      toChatHistory([
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U1' },
        { role: 'user', content: 'U2' },
        { role: 'assistant', content: 'A' },
        { role: 'user', content: 'U3' },
      ]),
    ).toEqual([
      { type: 'system', text: 'S' },
      { type: 'user', text: 'U1\n\nU2' },
      { type: 'model', response: ['A'] },
      { type: 'user', text: 'U3' },
      { type: 'model', response: [] },
    ]);
  });
});

describe('choosing the local model', () => {
  it('prefers model_path, and reports a missing one by its key', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'x.gguf'), 'GGUF');
    expect(await resolveLocalModel(llm({ model_path: join(dir, 'x.gguf'), models_dir: '/nonexistent' }))).toBe(
      join(dir, 'x.gguf'),
    );
    await expect(resolveLocalModel(llm({ model_path: join(dir, 'nope.gguf') }))).rejects.toThrow(
      /llm\.model_path: no model file at .*nope\.gguf/,
    );
  });

  it('uses a cached .gguf from models_dir, or a downloaded model URI', async () => {
    const dir = await tempDir();
    const env = { CODE_AGENT_CACHE: await tempDir() };
    expect(await resolveLocalModel(llm({ models_dir: dir }), { env })).toBeUndefined();
    await writeFile(join(dir, 'hf_O_m.gguf'), 'GGUF');
    expect(await resolveLocalModel(llm({ models_dir: dir, model: 'hf:O/R/m.gguf' }), { env })).toBe(join(dir, 'hf_O_m.gguf'));
    expect(await resolveLocalModel(llm({ models_dir: dir }), { env })).toBe(join(dir, 'hf_O_m.gguf'));
  });

  it('falls back to the default model in the user cache ($CODE_AGENT_CACHE, else $XDG_CACHE_HOME/code-agent)', async () => {
    const modelsDir = await tempDir();
    const xdg = await tempDir();
    const env = { XDG_CACHE_HOME: xdg, HOME: '/nonexistent' };
    expect(await resolveLocalModel(llm({ models_dir: modelsDir }), { env })).toBeUndefined();
    await mkdir(join(xdg, 'code-agent', 'models'), { recursive: true });
    const cached = join(xdg, 'code-agent', 'models', TEST_MODEL_FILE);
    await writeFile(cached, 'GGUF truncated'); // not the full size: a half-copied file is not picked
    expect(await resolveLocalModel(llm({ models_dir: modelsDir }), { env })).toBeUndefined();
    await rm(cached);
    await symlink(testModelPath(), cached);
    expect(await resolveLocalModel(llm({ models_dir: modelsDir }), { env })).toBe(cached);
    expect(await resolveLocalModel(llm({ models_dir: modelsDir }), { env: { CODE_AGENT_CACHE: await tempDir(), ...env } })).toBeUndefined();
  });

  it('auto with nothing configured lists the ways to configure an LLM, the default model first', async () => {
    const env = { CODE_AGENT_CACHE: await tempDir() };
    const err = await createLlmProvider(llm({ models_dir: await tempDir() }), { env }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    // it names the cache folder it searched, not a fixed ~/.cache path
    expect((err as Error).message).toBe(noLlmMessage(join(env.CODE_AGENT_CACHE, 'models')));
    expect((err as Error).message).toMatch(/model fetch[\s\S]*OPENAI_API_KEY[\s\S]*base_url[\s\S]*model_path[\s\S]*model pull/);
  });

  it('auto picks the API when a base_url is set, even with a cached model', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'm.gguf'), 'GGUF');
    const p = await createLlmProvider(llm({ models_dir: dir, base_url: 'http://127.0.0.1:9/v1', model: 'm' }));
    expect(p.name).toBe('openai:m');
  });

  it('auto loads a cached local model (real model) when no API is configured', async () => {
    const dir = await tempDir();
    await symlink(testModelPath(), join(dir, 'coder.gguf'));
    const p = await createLlmProvider(llm({ models_dir: dir, context_size: 512, threads: testThreads() }));
    expect(p.name).toBe('local:coder');
  }, 120_000);

  it('local with model_path names a file that is not a model', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'bad.gguf'), 'not a gguf');
    const err = await createLlmProvider(llm({ provider: 'local', model_path: join(dir, 'bad.gguf') })).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toContain(`the local model ${join(dir, 'bad.gguf')} could not be loaded`);
  });
});
