import { afterEach, describe, expect, it } from 'vitest';
import { CHANNEL } from '../fakes/discord-server.js';
import { py, startWorld, type World } from './harness.js';
import { COMMANDS } from '../../adapters/discord/commands.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('after a run', () => {
  it('a thread reply improves the run, with its attachment as an input file', async () => {
    world = await startWorld({
      replies: [py('print("v1")'), py('print(open("data.csv").read().strip().upper())')],
    });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print v1' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);

    discord.say('read data.csv and print it in capitals', world.from(world.alice, thread), { 'data.csv': Buffer.from('a,b\n') });
    await world.waitMessages(thread, /✅ Success · 2 attempts/);
    const texts = discord.messagesIn(thread).map((m) => m.content);
    expect(texts.some((t) => t.startsWith('**Attempt 2** · from feedback'))).toBe(true);
    expect(texts.find((t) => t.startsWith('**Result of attempt 2**'))).toContain('A,B');
    expect(world.llm.requests[1]!.messages.at(-1)!.content).toContain('read data.csv');
    // the first message shows the new outcome
    const header = discord.world.messages.get(discord.interaction(i.id).originalMessageId!)!;
    await discord.waitFor(() => header.content.includes('2 attempts'), 10_000, 'header refreshed');
  });

  it('a reply by the user whose run is still running is not refused: the thread says it is queued, and it runs next', async () => {
    world = await startWorld({ replies: [py('import time; time.sleep(1.5); print("v1")'), py('print("v2")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print v1 slowly' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /Running attempt 1/);
    discord.say('print v2 instead', world.from(world.alice, thread));
    const [queued] = await world.waitMessages(thread, /Queued: 1 job\(s\) ahead of yours/);
    expect(queued!.content).not.toContain('already have a job');
    await world.waitMessages(thread, /✅ Success · 2 attempts/);
    expect(discord.messagesIn(thread).find((m) => m.content.startsWith('**Result of attempt 2**'))?.content).toContain('v2');
    expect(world.llm.requests).toHaveLength(2);
  });

  it('the Re-run button runs the same code again; Improve asks in a modal', async () => {
    world = await startWorld({ replies: [py('print("same")'), py('print("better")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print same' }, world.from());
    const thread = await world.threadOf(i.id);
    const [final] = await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const buttons = (final!.components[0] as { components: Array<{ custom_id: string; label: string }> }).components;
    expect(buttons.map((b) => b.label)).toEqual(['Re-run', 'Improve']);

    const click = discord.click(final!, buttons[0]!.custom_id, world.from(world.alice, thread));
    await world.waitMessages(thread, /✅ Success · 2 attempts/);
    expect(discord.interaction(click.id).callbacks.map((c) => c.type)).toEqual([5]);
    expect(discord.messagesIn(thread).filter((m) => m.content.startsWith('**Result of attempt 2**'))[0]!.content).toContain('same');
    expect(world.llm.requests).toHaveLength(1);

    const improve = discord.click(final!, buttons[1]!.custom_id, world.from(world.alice, thread));
    await discord.waitFor(() => discord.interaction(improve.id).callbacks.length > 0);
    const modal = discord.interaction(improve.id).callbacks[0]!;
    expect(modal.type).toBe(9);
    const submit = discord.submitModal(String(modal.data!.custom_id), { feedback: 'say better' }, world.from(world.alice, thread));
    await world.waitMessages(thread, /✅ Success · 3 attempts/);
    expect(discord.interaction(submit.id).callbacks.map((c) => c.type)).toEqual([5]);
    expect(world.llm.requests[1]!.messages.at(-1)!.content).toContain('say better');
  });

  it('/run inside a thread replies in place and says so', async () => {
    world = await startWorld({ replies: [py('print("in place")')] });
    const { discord } = world;
    const existing = discord.world.addThread(world.general.id, 'chat', world.alice.id);
    discord.gateway.dispatch('THREAD_CREATE', existing);
    await new Promise((r) => setTimeout(r, 100));
    const i = discord.slash('run', { requirement: 'print in place' }, world.from(world.alice, existing.id));
    await world.waitMessages(existing.id, /✅ Success · 1 attempt/);
    const header = discord.world.messages.get(discord.interaction(i.id).originalMessageId!)!;
    expect(header.channel_id).toBe(existing.id);
    await discord.waitFor(() => header.content.includes('✅ Success'), 10_000, 'header');
    expect(header.content).toContain('inside a thread');
    expect(discord.calls.filter((c) => c.path.endsWith('/threads'))).toHaveLength(0);
  });

  it('/run in a channel the bot has not cached looks it up and still opens a thread', async () => {
    world = await startWorld({ replies: [py('print("late channel")')] });
    const { discord } = world;
    const late = discord.world.addChannel('late'); // no CHANNEL_CREATE: discord.js never hears of it
    const i = discord.slash('run', { requirement: 'print late channel' }, world.from(world.alice, late.id));
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    expect(discord.calls.some((c) => c.method === 'GET' && c.path === `/channels/${late.id}`)).toBe(true);
    expect(discord.world.channels.get(thread)!.parent_id).toBe(late.id);
  });

  it('/run in a guild channel the bot cannot see replies in place and says why', async () => {
    world = await startWorld({ replies: [py('print("unseen")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print unseen' }, world.from(world.alice, '777000777'));
    await discord.waitFor(() => discord.messagesIn('777000777').some((m) => /✅ Success · 1 attempt/.test(m.content)), 20_000, 'final');
    const header = discord.world.messages.get(discord.interaction(i.id).originalMessageId!)!;
    await discord.waitFor(() => header.content.includes('✅ Success'), 10_000, 'header');
    expect(header.content).toContain('I cannot see this channel');
    expect(header.content).not.toContain('Threads cannot be started here');
  });

  it('/run in a DM replies in place', async () => {
    world = await startWorld({ replies: [py('print("dm")')] });
    const { discord } = world;
    const dm = { user: world.alice, channelId: '424242', dm: true };
    const i = discord.slash('run', { requirement: 'print dm' }, dm);
    await discord.waitFor(() => discord.messagesIn('424242').some((m) => /✅ Success · 1 attempt/.test(m.content)), 20_000, 'dm final');
    expect(discord.interaction(i.id).callbacks.map((c) => c.type)).toEqual([5]);
    void CHANNEL;
  });

  it('a reply after a restart still finds its run', async () => {
    world = await startWorld({ replies: [py('print("v1")'), py('print("v2")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'print v1' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    await world.restart();
    expect(discord.gateway.log.identifies).toHaveLength(2);
    discord.say('print v2 instead', world.from(world.alice, thread));
    await world.waitMessages(thread, /✅ Success · 2 attempts/);
    expect(discord.messagesIn(thread).find((m) => m.content.startsWith('**Result of attempt 2**'))!.content).toContain('v2');
  });

  it('keeps posting with the bot\'s own messages when the interaction token expires mid-run', async () => {
    world = await startWorld({ replies: [{ content: py('print("late")'), delayMs: 600 }] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'a long run' }, world.from());
    const thread = await world.threadOf(i.id);
    discord.interaction(i.id).expired = true;
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const header = discord.world.messages.get(discord.interaction(i.id).originalMessageId!)!;
    await discord.waitFor(() => header.content.includes('✅ Success'), 10_000, 'header via channel edit');
    const edits = discord.calls.filter((c) => c.method === 'PATCH' && c.path === `/channels/${header.channel_id}/messages/${header.id}`);
    expect(edits.length).toBeGreaterThan(0);
    expect(discord.calls.some((c) => c.path.includes('/webhooks/') && c.status === 401)).toBe(true);
  });
});

describe('/run with a file', () => {
  let fileWorld: World | undefined;
  afterEach(async () => {
    await fileWorld?.close();
    fileWorld = undefined;
  });

  it('the optional file option becomes an input file of the run; the command definitions offer it', async () => {
    expect(COMMANDS.find((c) => c.name === 'run')?.options).toContainEqual(expect.objectContaining({ name: 'file', type: 11, required: false }));
    fileWorld = await startWorld({ replies: [py('print(open("data.csv").read().strip().upper())')] });
    const { discord } = fileWorld;
    const i = discord.slash('run', { requirement: 'print data.csv in capitals' }, fileWorld.from(), { file: { name: 'data.csv', data: Buffer.from('a,b\n') } });
    const thread = await fileWorld.threadOf(i.id);
    await fileWorld.waitMessages(thread, /✅ Success · 1 attempt/);
    expect(discord.messagesIn(thread).find((m) => m.content.startsWith('**Result of attempt 1**'))?.content).toContain('A,B');
    expect(JSON.stringify(fileWorld.llm.requests[0]!.messages)).toContain('data.csv');
  });
});
