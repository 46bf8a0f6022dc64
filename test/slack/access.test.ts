/** Access lists, the job limiter, and Slack API errors (429, not_in_channel, msg_too_long). */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('access', () => {
  it('refuses a user outside the allowlist ephemerally, with no LLM call', async () => {
    world = await startWorld({ replies: [py('print(1)')], slack: { allowed_users: ['U_ALICE'] } });
    const refused = await world.command({ text: 'do it', user_id: 'U_MALLORY' });
    expect(refused.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(refused.body)).toContain('not on the list');
    expect(world.llm.requests).toHaveLength(0);
    expect(world.slack.callsOf('chat.postMessage')).toHaveLength(0);
  });

  it('refuses a reply from a user outside the allowlist, with no LLM call', async () => {
    world = await startWorld({ replies: [py('print(1)')], slack: { allowed_users: ['U_ALICE'] } });
    await world.command({ text: 'do it' });
    const root = await world.rootTs();
    await world.finished(root);
    await world.reply(root, 'change it', { user: 'U_MALLORY' });
    const eph = await world.slack.waitFor(() => world!.slack.callsOf('chat.postEphemeral')[0]);
    expect(eph.args.user).toBe('U_MALLORY');
    expect(world.llm.requests).toHaveLength(1);
  });

  it('refuses a channel outside the allowlist', async () => {
    world = await startWorld({ slack: { allowed_channels: ['C_OK'] } });
    const refused = await world.command({ text: 'do it', channel_id: 'C_OTHER' });
    expect(JSON.stringify(refused.body)).toContain('not enabled in this channel');
    const history = await world.command({ command: '/history', text: '', channel_id: 'C_OTHER' });
    expect(JSON.stringify(history.body)).toContain('not enabled in this channel');
  });

  it('says so when the user already has a job running', async () => {
    world = await startWorld({ replies: [py('import time; time.sleep(1.5); print(1)')] });
    await world.command({ text: 'slow one' });
    const busy = await world.command({ text: 'another' });
    expect(JSON.stringify(busy.body)).toContain('already have a job running');
    await world.finished(await world.rootTs());
  });
});

describe('Slack API errors', () => {
  it('retries a 429 after Retry-After and the post goes through', async () => {
    world = await startWorld({ replies: [py('print("after the rate limit")')] });
    world.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    await world.command({ text: 'rate limited' });
    const root = await world.rootTs();
    await world.finished(root);
    const posts = world.slack.callsOf('chat.postMessage');
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(posts[0]!.result).toBeUndefined();
    expect(posts[1]!.result?.ok).toBe(true);
    expect(allText(world.threadPosts(root))).toContain('after the rate limit');
  });

  it('tells the user to invite the app on not_in_channel, without running', async () => {
    world = await startWorld({ replies: [py('print(1)')] });
    world.slack.failNext('chat.postMessage', { error: 'not_in_channel' });
    await world.command({ text: 'anything' });
    const response = await world.slack.waitFor(() => world!.slack.responses[0]);
    expect(JSON.stringify(response.body)).toContain('/invite');
    expect(response.body.response_type).toBe('ephemeral');
    expect(world.llm.requests).toHaveLength(0);
  });

  it('falls back to a file on msg_too_long', async () => {
    world = await startWorld({ replies: [py('print("short")')] });
    await world.command({ text: 'too long' });
    const root = await world.rootTs();
    // the next post (the first in the thread) is refused as too long
    world.slack.failNext('chat.postMessage', { error: 'msg_too_long' });
    await world.finished(root);
    const file = await world.slack.waitFor(() => world!.slack.uploads.find((u) => u.filename === 'message.txt'));
    expect(file.threadTs).toBe(root);
    expect(allText(world.threadPosts(root))).toContain('msg_too_long');
  });

  it('ends with a final message in the thread when the LLM is unreachable', async () => {
    world = await startWorld({ replies: [{ status: 500, body: { error: { message: 'boom' } } }] });
    await world.command({ text: 'anything' });
    const root = await world.rootTs();
    const finals = await world.finished(root);
    expect(String(finals[0]!.args.text)).toContain('Failed');
    const last = world.slack.callsOf('chat.update').filter((c) => c.args.ts === root).at(-1);
    expect(String(last?.args.text)).toContain('❌ Failed');
  });
});
