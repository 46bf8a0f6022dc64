/** The fake OpenAI server itself (other suites rely on its behaviour). */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../fakes/openai-server.js';

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: FakeOpenAiOptions) {
  fake = await startFakeOpenAi(options);
  return { fake, client: new OpenAI({ baseURL: fake.url, apiKey: 'k', maxRetries: 0 }) };
}
const ask = (client: OpenAI, content = 'hi', model = 'fake-model') =>
  client.chat.completions.create({ model, messages: [{ role: 'user', content }] }).then((r) => r.choices[0]?.message.content);

describe('fake OpenAI server', () => {
  it('listens on 127.0.0.1 and lists models', async () => {
    const { fake, client } = await start({ models: ['a', 'b'] });
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toEqual(['a', 'b']);
    expect(fake.requests).toHaveLength(0);
  });

  it('plays the script, then repeats the last reply', async () => {
    const { fake, client } = await start({ replies: ['one', (req) => `echo ${req.messages[0]?.content}`] });
    expect(await ask(client)).toBe('one');
    expect(await ask(client, 'x')).toBe('echo x');
    expect(await ask(client, 'y')).toBe('echo y');
    expect(fake.requests.map((r) => r.messages[0]?.content)).toEqual(['hi', 'x', 'y']);
  });

  it('uses respond() once the script is exhausted, and enqueue() adds to it', async () => {
    const { fake, client } = await start({ replies: ['one'], respond: (_req, i) => `fallback ${i}` });
    expect(await ask(client)).toBe('one');
    expect(await ask(client)).toBe('fallback 1');
    fake.enqueue('queued');
    expect(await ask(client)).toBe('queued');
  });

  it('answers 400 when nothing is scripted', async () => {
    const { client } = await start({});
    await expect(ask(client)).rejects.toMatchObject({ status: 400 });
  });

  it('checks the key and the model', async () => {
    const { client } = await start({ apiKey: 'other', models: ['m'], replies: ['x'] });
    await expect(ask(client, 'hi', 'm')).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    const ok = new OpenAI({ baseURL: fake!.url, apiKey: 'other', maxRetries: 0 });
    await expect(ask(ok, 'hi', 'nope')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    expect(await ask(ok, 'hi', 'm')).toBe('x');
  });

  it('streams chunks and a usage chunk only when asked', async () => {
    const { client } = await start({ replies: ['a b c'] });
    const pieces: string[] = [];
    let usage: unknown = null;
    const stream = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const c of stream) {
      const d = c.choices[0]?.delta?.content;
      if (d) pieces.push(d);
      if (c.usage) usage = c.usage;
    }
    expect(pieces).toEqual(['a ', 'b ', 'c']);
    expect(usage).toMatchObject({ prompt_tokens: 1, completion_tokens: 2 });

    const plain = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let sawUsage = false;
    for await (const c of plain) if (c.usage) sawUsage = true;
    expect(sawUsage).toBe(false);
  });
});
