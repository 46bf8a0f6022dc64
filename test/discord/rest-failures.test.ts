/** Discord's REST API failing in the middle of a run: nothing is lost and the bot keeps serving. */
import { afterEach, describe, expect, it } from 'vitest';
import { py, startWorld, type World } from './harness.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** POSTs of messages into any channel but `exceptId` (i.e. into the run's thread). */
const threadMessagePost = (exceptId: string) => (method: string, path: string) =>
  method === 'POST' && /^\/channels\/\d+\/messages$/.test(path) && !path.includes(exceptId);

describe('REST failures mid-run', () => {
  it('retries a 500 on a thread message, and the run posts everything', async () => {
    world = await startWorld({ replies: [py('print("after a 500")')] });
    const { discord } = world;
    discord.rest.faults.push({
      match: threadMessagePost(world.general.id),
      reply: { status: 500, body: { message: 'Internal Server Error', code: 0 } },
    });
    const i = discord.slash('run', { requirement: 'print after a 500' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const posts = discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${thread}/messages`);
    expect(posts[0]!.status).toBe(500);
    expect(posts.slice(1).every((c) => c.status === 200)).toBe(true);
    expect(discord.messagesIn(thread).find((m) => m.content.startsWith('**Result of attempt 1**'))!.content).toContain('after a 500');
  });

  it('falls back to follow-ups when the thread refuses messages (403), then serves the next /run', async () => {
    world = await startWorld({ replies: [py('print("refused thread")'), py('print("next run")')] });
    const { discord, general } = world;
    const fault = {
      match: threadMessagePost(general.id),
      reply: { status: 403, body: { message: 'Missing Permissions', code: 50013 } },
      times: 1000,
    };
    discord.rest.faults.push(fault);
    const first = discord.slash('run', { requirement: 'print refused thread' }, world.from());
    await world.threadOf(first.id);
    // the run's messages arrive as interaction follow-ups in the channel instead
    await world.waitMessages(general.id, /✅ Success · 1 attempt/);
    expect(discord.messagesIn(general.id).find((m) => m.content.startsWith('**Result of attempt 1**'))!.content).toContain('refused thread');
    const header = discord.world.messages.get(discord.interaction(first.id).originalMessageId!)!;
    await discord.waitFor(() => header.content.includes('✅ Success'), 10_000, 'first header');
    expect(discord.calls.some((c) => c.status === 403)).toBe(true);

    discord.rest.faults.splice(discord.rest.faults.indexOf(fault), 1);
    const second = discord.slash('run', { requirement: 'print next run' }, world.from());
    const thread = await world.threadOf(second.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    expect((await world.app.store.listRuns(`discord:${discord.world.guildId}:${general.id}`)).map((r) => r.status)).toEqual(['success', 'success']);
  });
});
