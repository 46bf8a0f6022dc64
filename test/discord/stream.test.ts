/** The code of an attempt appears in the thread while the LLM writes it: one message, edited at most once a second. */
import { afterEach, describe, expect, it } from 'vitest';
import { py, startWorld, type World } from './harness.js';
import { slowLines, STREAMED_CODE } from '../helpers/streamed-reply.js';
import { STREAM_EDIT_INTERVAL_MS } from '../../src/chat/stream-edits.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('/run with a streaming LLM', () => {
  it('posts the code being written and edits it as it grows, at most once a second, ending with the final code', async () => {
    world = await startWorld({ replies: [slowLines(py(STREAMED_CODE))] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print 24 lines' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);

    const codeMessage = discord.messagesIn(thread).find((m) => m.content.startsWith('**Attempt 1**'))!;
    expect(codeMessage.content).toContain('print("line 24")');
    expect(codeMessage.content).not.toContain('writing…');
    // REST calls on that message: the post, then edits (PATCH), each with more code, spaced by the interval
    const calls = discord.calls.filter(
      (c) => (c.method === 'POST' && c.path === `/channels/${thread}/messages` && String(c.body?.content ?? '').startsWith('**Attempt 1**')) ||
        (c.method === 'PATCH' && c.path === `/channels/${thread}/messages/${codeMessage.id}`),
    );
    expect(calls[0]!.method).toBe('POST');
    expect(String(calls[0]!.body?.content)).toContain('writing…');
    const partial = calls.filter((c) => String(c.body?.content).includes('writing…'));
    expect(partial.length).toBeGreaterThanOrEqual(3);
    const lines = partial.map((c) => (String(c.body?.content).match(/print\("line \d+"\)/g) ?? []).length);
    for (let n = 1; n < lines.length; n++) expect(lines[n]).toBeGreaterThan(lines[n - 1]!);
    for (let n = 1; n < calls.length; n++) expect(calls[n]!.at - calls[n - 1]!.at).toBeGreaterThanOrEqual(STREAM_EDIT_INTERVAL_MS - 50);
    // one code message for the attempt, not a second one
    expect(discord.messagesIn(thread).filter((m) => m.content.startsWith('**Attempt 1**'))).toHaveLength(1);
  }, 30_000);
});
