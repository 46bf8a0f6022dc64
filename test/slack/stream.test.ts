/** The code of an attempt appears in the thread while the LLM writes it: one message, edited at most once a second. */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';
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
    await world.command({ text: 'print 24 lines' });
    const root = await world.rootTs();
    await world.finished(root);

    const codePost = world.threadPosts(root).find((c) => allText([c]).includes('writing…'))!;
    expect(codePost).toBeDefined();
    const edits = world.slack.callsOf('chat.update').filter((c) => c.args.ts === codePost.result?.ts);
    const partial = edits.filter((c) => allText([c]).includes('writing…'));
    expect(partial.length).toBeGreaterThanOrEqual(2); // progress shown while the code was written
    // each edit shows more lines than the one before
    const shown = [codePost, ...partial].map((c) => (allText([c]).match(/print\("line \d+"\)/g) ?? []).length);
    for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeGreaterThan(shown[i - 1]!);
    // the last edit is the final code, whole, no longer marked as being written
    const last = edits.at(-1)!;
    expect(allText([last])).not.toContain('writing…');
    expect(allText([last])).toMatch(/line 24/);
    // throttled: at most one call on this message per interval (the post included)
    const times = [codePost, ...edits].map((c) => c.at);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(STREAM_EDIT_INTERVAL_MS - 50);
    // and no separate code message was posted
    expect(world.threadPosts(root).filter((c) => allText([c]).includes('print("line 24")'))).toHaveLength(0);
  }, 30_000);
});
