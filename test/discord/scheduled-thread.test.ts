/**
 * A schedule's tick on Discord (adapters/discord/outgoing.ts: opened like a run, with no
 * interaction): the bot posts its own header in the schedule's channel ("@who scheduled: …", never a
 * ping), starts a thread from it, posts the team program's run there with its output and files,
 * and edits the header to the run's final status. The embedded bot over
 * the fake Discord (REST + gateway), the real sandbox and SQLite store; the timer scheduler takes
 * the schedule from the store at start (test/helpers/squares-schedule.ts). The LLM is never called.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from './harness.js';
import { scheduleSquares } from '../helpers/squares-schedule.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('a scheduled run on Discord', () => {
  it('posts a header in the channel, opens a thread from it with the result and the file, and edits the header to the final status', async () => {
    world = await startWorld({ config: { schedules: { timezone: 'UTC' } } });
    const w = world;
    const conversation = `discord:${w.discord.world.guildId}:${w.general.id}`;
    const saved = await scheduleSquares(w.app.store, { conversation, platform: 'discord', channel: w.general.id, by: { id: w.alice.id, name: 'alice' } });
    await w.restart(); // the timer scheduler reads the store's schedules at start

    // the header: the bot's own message in the channel, naming who scheduled it without a ping
    const [header] = await w.waitMessages(w.general.id, /^<@\d+> scheduled: /);
    expect(header!.content).toContain(`<@${w.alice.id}>`);
    expect(header!.content).toContain(`${saved.id}: team program`);
    const sent = w.discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${w.general.id}/messages`);
    expect(JSON.stringify(sent.at(0)?.body)).toMatch(/"allowed_mentions":\{"parse":\[\]/);

    // the thread started from it holds the run: the program's output, its file, the team program's mark
    const thread = await w.discord.waitFor(() => w.discord.world.channels.has(header!.id) && header!.id, 20_000, 'the thread from the header');
    const [final] = await w.waitMessages(thread, /team program `squares-report` v1, approved by alice/);
    expect(final!.content).not.toMatch(/Success · \d+ attempt/); // the team's mark, not the agent's ✅
    const messages = w.discord.messagesIn(thread);
    expect(messages.some((m) => m.content.includes('squares: 1 4 9'))).toBe(true);
    const files = messages.find((m) => m.attachments.some((a) => a.filename === 'squares.csv'))!;
    expect(files.files.get('squares.csv')!.toString()).toBe('1,1\r\n2,4\r\n3,9\r\n');

    // the header is edited to the run's final status
    await w.discord.waitFor(() => /team program `squares-report` v1/.test(w.discord.world.messages.get(header!.id)!.content), 20_000, 'the header edited');
    expect(w.discord.world.messages.get(header!.id)!.content).not.toContain('Working');
    expect(w.discord.world.messages.get(header!.id)!.content).toMatch(/^<@\d+> scheduled: /);
    expect(w.llm.requests).toHaveLength(0);
  }, 90_000);
});
