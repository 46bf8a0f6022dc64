import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/app.js';
import { parseConfig } from '../../src/config/load.js';
import { DiscordBot, DiscordStartupError, INTENTS } from '../../adapters/discord/bot.js';
import { COMMANDS, registerCommands } from '../../adapters/discord/commands.js';
import { startFakeDiscord } from '../fakes/discord-server.js';
import { py, startWorld, type World } from './harness.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('gateway and platform behaviour', () => {
  it('identifies with Guilds, GuildMessages and MessageContent and answers heartbeats', async () => {
    world = await startWorld();
    const { discord } = world;
    expect(discord.gateway.log.identifies[0]!.intents).toBe((1 << 0) | (1 << 9) | (1 << 15));
    expect(INTENTS).toHaveLength(3);
    await discord.waitFor(() => discord.gateway.log.heartbeats > 0, 5000, 'a heartbeat');
  });

  it('resumes after the gateway drops mid-run, and a replayed interaction runs once', async () => {
    const slow = { content: py('print("after the drop")'), delayMs: 800 };
    world = await startWorld({ replies: [slow, py('print("second")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'survive a drop' }, world.from());
    const thread = await world.threadOf(i.id);
    discord.gateway.drop(4000);
    // dispatched while disconnected: delivered on RESUME
    const reply = discord.say('and again', world.from(world.bob, thread));
    await discord.waitFor(() => discord.gateway.log.resumes.length > 0, 10_000, 'a RESUME');
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    await world.waitMessages(thread, /✅ Success · 2 attempts/);
    expect(discord.gateway.log.identifies).toHaveLength(1);
    // the same interaction and message delivered again run nothing
    discord.gateway.dispatch('INTERACTION_CREATE', { ...lastPayload(discord, i.id) });
    discord.gateway.dispatch('MESSAGE_CREATE', { ...reply, files: undefined, author: world.bob, guild_id: discord.world.guildId, member: { roles: [], joined_at: new Date(0).toISOString() } });
    await new Promise((r) => setTimeout(r, 500));
    expect(discord.interaction(i.id).callbacks).toHaveLength(1);
    expect(world.llm.requests).toHaveLength(2);
  });

  it('refuses a second job of a busy user, ephemerally', async () => {
    world = await startWorld({ replies: [{ content: py('print(1)'), delayMs: 1000 }, py('print(2)')] });
    const { discord } = world;
    discord.slash('run', { requirement: 'first' }, world.from());
    await new Promise((r) => setTimeout(r, 100));
    const second = discord.slash('run', { requirement: 'second' }, world.from());
    await discord.waitFor(() => discord.interaction(second.id).callbacks.length > 0);
    const cb = discord.interaction(second.id).callbacks[0]!;
    expect(cb).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(String(cb.data!.content)).toContain('already have a job');
  });

  it('/history and /show read the channel history', async () => {
    world = await startWorld({ replies: [py('print("h1")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'history one' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const h = discord.slash('history', {}, world.from());
    await discord.waitFor(() => discord.world.messages.get(discord.interaction(h.id).originalMessageId ?? '')?.content.includes('history one'), 10_000, 'history');
    const s = discord.slash('show', {}, world.from());
    await discord.waitFor(() => discord.world.messages.get(discord.interaction(s.id).originalMessageId ?? '')?.content.includes('h1'), 10_000, 'show');
  });

  it('a refused Message Content intent (4014) is a clear startup error', async () => {
    const discord = await startFakeDiscord({ disallowedIntents: 1 << 15 });
    const dir = await mkdtemp(join(tmpdir(), 'discord-4014-'));
    const config = parseConfig(
      {
        llm: { provider: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key: 'x' },
        store: { url: `sqlite://${join(dir, 'h.sqlite')}`, data_dir: dir },
        discord: { token: 't', api_url: discord.apiUrl },
      },
      {},
    );
    const app = await createApp(config);
    try {
      const bot = new DiscordBot({ app });
      const error = await bot.start().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(DiscordStartupError);
      expect((error as Error).message).toContain('4014');
      expect((error as Error).message).toContain('MESSAGE CONTENT INTENT');
    } finally {
      await app.close();
      await discord.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('register-commands PUTs the commands for a guild or globally', async () => {
    const discord = await startFakeDiscord();
    try {
      const app = discord.world.applicationId;
      const names = await registerCommands({ token: 't', applicationId: app, apiUrl: discord.apiUrl, target: { guildId: '77' } });
      expect(names).toEqual(['run', 'generate', 'history', 'show', 'remember', 'memory', 'programs', 'program', 'schedule', 'schedules', 'unschedule', 'usage']);
      await registerCommands({ token: 't', applicationId: app, apiUrl: discord.apiUrl, target: { global: true } });
      const puts = discord.calls.filter((c) => c.method === 'PUT');
      expect(puts.map((c) => c.path)).toEqual([`/applications/${app}/guilds/77/commands`, `/applications/${app}/commands`]);
      expect(puts[0]!.body).toEqual(COMMANDS);
    } finally {
      await discord.close();
    }
  });
});

describe('deferral under load and deduplication', () => {
  it('defers 8 concurrent /run in 8 channels and opens a thread for each (none refused or in place)', async () => {
    world = await startWorld({ replies: Array.from({ length: 8 }, (_, n) => py(`print(${n})`)) });
    const { discord } = world;
    // channels created after READY reach the bot through the gateway, as on Discord
    const places = Array.from({ length: 8 }, (_, n) => {
      const channel = discord.world.addChannel(`load-${n}`);
      discord.gateway.dispatch('CHANNEL_CREATE', channel);
      return { channel, user: discord.world.addMember(`user-${n}`) };
    });
    await discord.waitFor(() => places.every((p) => world!.bot.client.channels.cache.has(p.channel.id)), 5000, 'channels cached');
    const runs = places.map(({ channel, user }, n) => ({ record: discord.slash('run', { requirement: `print ${n}` }, { user, channelId: channel.id }) }));
    await discord.waitFor(() => runs.every((r) => r.record.callbacks.length > 0), 10_000, 'every deferral');
    expect(runs.map((r) => r.record.callbacks.map((c) => c.type))).toEqual(runs.map(() => [5]));
    for (const { record } of runs) {
      const thread = await world.threadOf(record.id);
      await world.waitMessages(thread, /✅ Success · 1 attempt/);
    }
    expect(world.llm.requests).toHaveLength(8);
  });

  it('a /run delivered again after a restart is deferred but not run twice (the store remembers it)', async () => {
    world = await startWorld({ replies: [py('print("once")'), py('print("twice")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'only once' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const payload = lastPayload(discord, i.id);
    await world.restart();
    // a fresh process has no memory of it; let the fake accept a second initial response
    const record = discord.interaction(i.id);
    record.callbacks.length = 0;
    discord.gateway.dispatch('INTERACTION_CREATE', { ...payload });
    await discord.waitFor(() => record.callbacks.length > 0, 10_000, 'the repeat deferral');
    const header = discord.world.messages.get(record.originalMessageId!)!;
    await discord.waitFor(() => header.content.includes('already handled'), 10_000, 'the repeat noticed');
    await new Promise((r) => setTimeout(r, 300));
    expect(world.llm.requests).toHaveLength(1);
  });
});

/** The INTERACTION_CREATE payload the gateway sent for an interaction id (for a replay). */
function lastPayload(discord: World['discord'], id: string): Record<string, unknown> {
  const sent = (discord.gateway as unknown as { sent: Array<{ t: string; d: { id: string } }> }).sent;
  return sent.find((e) => e.t === 'INTERACTION_CREATE' && e.d.id === id)!.d as unknown as Record<string, unknown>;
}
