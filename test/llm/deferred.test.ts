/**
 * The provider loaded in the background (what the interactive terminal uses for a local model):
 * the load starts when the agent prepares it, a request waits for it, Ctrl-C ends the wait, a
 * failed load is tried again, and dispose stops it. The real provider behind it is the real
 * OpenAI-compatible one against the fake server, released by the test when it wants the load to end.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeferredLlmProvider } from '../../src/llm/deferred.js';
import { OpenAiProvider } from '../../src/llm/openai.js';
import { createLlmProvider } from '../../src/llm/factory.js';
import { LlmError, type LlmProvider } from '../../src/llm/types.js';
import { llmSchema } from '../../src/config/schema.js';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai-server.js';

let fake: FakeOpenAi | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const ask = [{ role: 'user' as const, content: 'hi' }];

/** A loader whose load ends when the test calls `finish()` (or `fail()`), counting its calls. */
function gatedLoader(url: string) {
  const state = { calls: 0, finish: () => {}, fail: (_err: Error) => {} };
  const loader = () => {
    state.calls++;
    return new Promise<LlmProvider>((resolve, reject) => {
      state.finish = () => resolve(new OpenAiProvider({ baseUrl: url, model: 'fake-model', maxRetries: 0 }));
      state.fail = reject;
    });
  };
  return { state, loader };
}

const settled = (p: Promise<unknown>) => Promise.race([p.then(() => true, () => true), new Promise((r) => setTimeout(() => r(false), 50))]);

describe('DeferredLlmProvider', () => {
  it('starts loading when the agent prepares it; the first request waits for the load, then completes', async () => {
    fake = await startFakeOpenAi({ replies: ['hello'] });
    const { state, loader } = gatedLoader(fake.url);
    const llm = new DeferredLlmProvider('local:test', loader);
    expect(llm.name).toBe('local:test');
    expect(state.calls).toBe(0);
    void llm.prepare(['system prompt']);
    expect(state.calls).toBe(1); // in the background, before any request
    const reply = llm.complete(ask);
    expect(await settled(reply)).toBe(false);
    expect(fake.requests).toHaveLength(0);
    state.finish();
    expect((await reply).content).toBe('hello');
    expect(state.calls).toBe(1); // loaded once
    expect((await llm.complete(ask)).content).toBe('hello');
    expect(state.calls).toBe(1);
  });

  it('until used (run --program): preparing loads nothing, and nothing is loaded to dispose; a request still loads it', async () => {
    fake = await startFakeOpenAi({ replies: ['late'] });
    const { state, loader } = gatedLoader(fake.url);
    const idle = new DeferredLlmProvider('local:test', loader, false);
    await idle.prepare(['system prompt']);
    expect(state.calls).toBe(0);
    await idle.dispose(); // at once: no load to wait for
    expect(state.calls).toBe(0);
    const used = new DeferredLlmProvider('local:test', loader, false);
    await used.prepare(['system prompt']);
    const reply = used.complete(ask);
    expect(state.calls).toBe(1);
    state.finish();
    expect((await reply).content).toBe('late');
  });

  it('a cancelled request stops waiting at once; a failed load is reported by the request and tried again by the next', async () => {
    fake = await startFakeOpenAi({ replies: ['second try'] });
    const { state, loader } = gatedLoader(fake.url);
    const llm = new DeferredLlmProvider('local:test', loader);
    const controller = new AbortController();
    const cancelled = llm.complete(ask, { signal: controller.signal });
    controller.abort(new Error('cancelled by the user'));
    await expect(cancelled).rejects.toThrow('cancelled by the user');

    const failing = llm.complete(ask);
    state.fail(new LlmError('the local model /x.gguf could not be loaded: bad magic'));
    await expect(failing).rejects.toThrow('could not be loaded: bad magic');
    const retried = llm.complete(ask);
    expect(state.calls).toBe(2);
    state.finish();
    expect((await retried).content).toBe('second try');
  });

  it('after dispose, nothing more is loaded and requests say the model was shut down', async () => {
    fake = await startFakeOpenAi({ replies: ['x'] });
    const { state, loader } = gatedLoader(fake.url);
    const llm = new DeferredLlmProvider('local:test', loader);
    void llm.prepare(['system prompt']);
    const disposed = llm.dispose();
    expect(await settled(disposed)).toBe(false); // waits for the load in progress
    state.finish();
    await disposed;
    await expect(llm.complete(ask)).rejects.toThrow('the local model was shut down');
    expect(state.calls).toBe(1);
    expect(fake.requests).toHaveLength(0);
  });

  it('createLlmProvider({ deferLoad }) returns at once for a local model, named after its file; load errors come with the first request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ca-deferred-'));
    dirs.push(dir);
    await writeFile(join(dir, 'Broken-Model.gguf'), 'not a gguf');
    const llm = await createLlmProvider(llmSchema.parse({ provider: 'local', model_path: join(dir, 'Broken-Model.gguf') }), {
      deferLoad: true,
    });
    expect(llm).toBeInstanceOf(DeferredLlmProvider);
    expect(llm.name).toBe('local:broken-model');
    await expect(llm.complete(ask)).rejects.toThrow(`the local model ${join(dir, 'Broken-Model.gguf')} could not be loaded`);
  });
});
