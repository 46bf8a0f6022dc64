import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiProvider, type OpenAiProviderOptions } from '../../src/llm/openai.js';
import { LlmError, type ChatMessage } from '../../src/llm/types.js';
import { openAiError, startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../fakes/openai-server.js';
import { closedPort } from '../helpers/net.js';

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You write Python.' },
  { role: 'user', content: 'print hello' },
];
const CODE = '```python\nprint("hello")\n```';

let fakes: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function setup(fakeOptions: FakeOpenAiOptions, providerOptions: Partial<OpenAiProviderOptions> = {}) {
  const fake = await startFakeOpenAi(fakeOptions);
  fakes.push(fake);
  const provider = new OpenAiProvider({ baseUrl: fake.url, apiKey: 'sk-test', model: 'fake-model', maxRetries: 2, ...providerOptions });
  return { fake, provider };
}

async function rejection(p: Promise<unknown>): Promise<LlmError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}


describe('OpenAiProvider', () => {
  it('is named after the model', async () => {
    const { provider } = await setup({ replies: [CODE] });
    expect(provider.name).toBe('openai:fake-model');
  });

  it('completes without streaming and reports usage', async () => {
    const { fake, provider } = await setup(
      { replies: [{ content: CODE, usage: { prompt_tokens: 12, completion_tokens: 7 } }] },
      { stream: false, temperature: 0, maxTokens: 256 },
    );
    const tokens: string[] = [];
    const r = await provider.complete(MESSAGES, { onToken: (t) => tokens.push(t) });
    expect(r).toEqual({ content: CODE, usage: { promptTokens: 12, completionTokens: 7 }, stopReason: 'stop' });
    expect(tokens).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]!.body!;
    expect(body.stream).toBe(false);
    expect(body.model).toBe('fake-model');
    expect(body.temperature).toBe(0);
    expect(body.max_tokens).toBe(256);
    expect(fake.requests[0]!.messages).toEqual(MESSAGES);
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('sends llm.seed with the first call and one more with each later one; no seed when it is not set', async () => {
    const { fake, provider } = await setup({ replies: [CODE, CODE] }, { seed: 42 });
    await provider.complete(MESSAGES, { temperature: 0.7 });
    await provider.complete(MESSAGES, { temperature: 0.7 });
    expect(fake.requests.map((r) => r.body!.seed)).toEqual([42, 43]);
    const plain = await setup({ replies: [CODE] });
    await plain.provider.complete(MESSAGES);
    expect(plain.fake.requests[0]!.body).not.toHaveProperty('seed');
  });

  it('streams: onToken pieces concatenate to the content, usage is counted', async () => {
    const { fake, provider } = await setup({
      replies: [{ content: 'Here it is:\n' + CODE, usage: { prompt_tokens: 20, completion_tokens: 9 } }],
    });
    const tokens: string[] = [];
    const r = await provider.complete(MESSAGES, { onToken: (t) => tokens.push(t) });
    expect(r.content).toBe('Here it is:\n' + CODE);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe(r.content);
    expect(r.usage).toEqual({ promptTokens: 20, completionTokens: 9 });
    expect(fake.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('streams from a server that sends no usage: usage is 0', async () => {
    const { provider } = await setup({ replies: [{ content: CODE, usage: null }] });
    const r = await provider.complete(MESSAGES);
    expect(r).toEqual({ content: CODE, usage: { promptTokens: 0, completionTokens: 0 }, stopReason: 'stop' });
  });

  it.each([true, false])('reads the stop reason (stream %s): "length" is a reply cut at the limit', async (stream) => {
    const { provider } = await setup({ replies: [{ content: CODE, finishReason: 'length' }, CODE] }, { stream });
    expect((await provider.complete(MESSAGES)).stopReason).toBe('length');
    expect((await provider.complete(MESSAGES)).stopReason).toBe('stop');
  });

  it('a stream that ends without its final event is "unfinished", not a whole reply', async () => {
    const { provider } = await setup({ replies: [{ content: CODE, endWithoutFinish: true }] });
    const r = await provider.complete(MESSAGES);
    expect(r.content).toBe(CODE);
    expect(r.stopReason).toBe('unfinished');
  });

  it('a call may ask for more room and for less repetition', async () => {
    const { fake, provider } = await setup({ replies: [CODE] }, { maxTokens: 100 });
    await provider.complete(MESSAGES, { maxTokens: 200, avoidRepetition: true });
    expect(fake.requests[0]!.body).toMatchObject({ max_tokens: 200, frequency_penalty: expect.any(Number), presence_penalty: expect.any(Number) });
  });

  it('a server that refuses the penalties: asked again without them', async () => {
    const { fake, provider } = await setup({
      replies: [{ status: 400, body: openAiError('Unrecognized request argument supplied: frequency_penalty', 'invalid_request_error', null, 'frequency_penalty') }, CODE],
    });
    const r = await provider.complete(MESSAGES, { avoidRepetition: true });
    expect(r.content).toBe(CODE);
    expect(fake.requests[1]!.body).not.toHaveProperty('frequency_penalty');
  });

  it('uses a placeholder key for a local server when no key is given', async () => {
    const { fake, provider } = await setup({ replies: [CODE] }, { apiKey: undefined });
    await provider.complete(MESSAGES);
    expect(fake.requests[0]!.headers.authorization).toMatch(/^Bearer \S+/);
  });

  it('refuses to start with neither a key nor a base URL', () => {
    expect(() => new OpenAiProvider({ model: 'gpt-4o-mini' })).toThrow(/llm\.api_key/);
  });

  it('401: says to check llm.api_key', async () => {
    const { fake, provider } = await setup({ apiKey: 'sk-right', replies: [CODE] }, { apiKey: 'sk-wrong' });
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.status).toBe(401);
    expect(err.message).toContain('llm.api_key');
    expect(err.message).toContain('Incorrect API key');
    expect(fake.requests).toHaveLength(1); // not retried
  });

  it('unknown model: names the model and the URL', async () => {
    const { fake, provider } = await setup({ models: ['fake-model'], replies: [CODE] }, { model: 'gpt-nope' });
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.status).toBe(404);
    expect(err.message).toContain(`model "gpt-nope" was not found at ${fake.url}`);
    expect(err.message).toContain('llm.model');
  });

  it('unreachable base URL: names the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const provider = new OpenAiProvider({ baseUrl: url, model: 'm', maxRetries: 0 });
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.message).toContain(`cannot reach the LLM at ${url}`);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).toContain('llm.base_url');
  });

  it('a port fetch refuses (9): names the URL', async () => {
    const url = 'http://127.0.0.1:9/v1';
    const provider = new OpenAiProvider({ baseUrl: url, model: 'm', maxRetries: 0 });
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.message).toContain(`cannot reach the LLM at ${url}`);
  });

  it('unresolvable host: names the URL', async () => {
    const url = 'http://no-such-host.invalid/v1';
    const provider = new OpenAiProvider({ baseUrl: url, model: 'm', maxRetries: 0 });
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.message).toContain(`cannot reach the LLM at ${url}`);
  });

  it('429 with Retry-After: 1 is retried after about a second', async () => {
    const { fake, provider } = await setup({
      replies: [{ status: 429, headers: { 'retry-after': '1' }, body: openAiError('Rate limit reached', 'requests', 'rate_limit_exceeded') }, CODE],
    });
    const r = await provider.complete(MESSAGES);
    expect(r.content).toBe(CODE);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.at - fake.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('429 for good: says rate-limited, with the server message', async () => {
    const { fake, provider } = await setup(
      { replies: [{ status: 429, headers: { 'retry-after-ms': '10' }, body: openAiError('Rate limit reached') }] },
      { maxRetries: 1 },
    );
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.status).toBe(429);
    expect(err.message).toMatch(/rate-limiting.*Rate limit reached/);
    expect(fake.requests).toHaveLength(2);
  });

  it('500 then 200 is retried', async () => {
    const { fake, provider } = await setup({
      replies: [{ status: 500, headers: { 'retry-after-ms': '10' }, body: openAiError('boom', 'server_error') }, CODE],
    });
    const r = await provider.complete(MESSAGES);
    expect(r.content).toBe(CODE);
    expect(fake.requests).toHaveLength(2);
  });

  it('other statuses: status and server message', async () => {
    const { provider } = await setup({ replies: [{ status: 400, body: openAiError('messages must not be empty') }] });
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.status).toBe(400);
    expect(err.message).toContain('400: messages must not be empty');
  });

  it('timeout: says how long it waited', async () => {
    const { provider } = await setup({ replies: [{ hang: true }] }, { timeoutMs: 300, maxRetries: 0 });
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.message).toContain('did not answer within 0.3 s');
  });

  it('a stream that goes silent times out', async () => {
    const { provider } = await setup(
      { replies: [{ content: 'a b c d', chunkDelayMs: 1000 }] },
      { timeoutMs: 300, maxRetries: 0 },
    );
    const err = await rejection(provider.complete(MESSAGES));
    expect(err.message).toContain('stopped sending for 0.3 s');
  });

  it('abort signal: cancels a streaming request mid-way', async () => {
    const { provider } = await setup({ replies: [{ content: 'one two three four five six', chunkDelayMs: 100 }] });
    const ac = new AbortController();
    const tokens: string[] = [];
    const p = provider.complete(MESSAGES, {
      signal: ac.signal,
      onToken: (t) => {
        tokens.push(t);
        if (tokens.length === 2) ac.abort();
      },
    });
    const err = await rejection(p);
    expect(err.message).toContain('cancelled');
    expect(tokens.length).toBeLessThan(6);
  });

  it('abort signal: cancels while waiting for a reply and during a Retry-After sleep', async () => {
    const { provider } = await setup({ replies: [{ hang: true }] }, { stream: false });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = Date.now();
    expect((await rejection(provider.complete(MESSAGES, { signal: ac.signal }))).message).toContain('cancelled');
    expect(Date.now() - t0).toBeLessThan(5000);

    const { provider: p2 } = await setup({ replies: [{ status: 429, headers: { 'retry-after': '30' } }, CODE] });
    const ac2 = new AbortController();
    setTimeout(() => ac2.abort(), 200);
    const t1 = Date.now();
    expect((await rejection(p2.complete(MESSAGES, { signal: ac2.signal }))).message).toContain('cancelled');
    expect(Date.now() - t1).toBeLessThan(5000);
  });

  it('an already-aborted signal sends nothing', async () => {
    const { fake, provider } = await setup({ replies: [CODE] });
    const err = await rejection(provider.complete(MESSAGES, { signal: AbortSignal.abort() }));
    expect(err.message).toContain('cancelled');
    expect(fake.requests).toHaveLength(0);
  });

  it('falls back to max_completion_tokens when a model refuses max_tokens', async () => {
    const { fake, provider } = await setup(
      {
        replies: [
          {
            status: 400,
            body: openAiError(
              "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
              'invalid_request_error',
              'unsupported_parameter',
              'max_tokens',
            ),
          },
          CODE,
        ],
      },
      { maxTokens: 100 },
    );
    expect((await provider.complete(MESSAGES)).content).toBe(CODE);
    expect(fake.requests[1]!.body).toMatchObject({ max_completion_tokens: 100 });
    expect(fake.requests[1]!.body).not.toHaveProperty('max_tokens');
    // remembered for the next call
    await provider.complete(MESSAGES);
    expect(fake.requests[2]!.body).toMatchObject({ max_completion_tokens: 100 });
  });
});
