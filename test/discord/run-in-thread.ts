/** A check shared by the embedded and queue-mode tests of a refused interaction token. */
import { expect } from 'vitest';
import type { FakeDiscord } from '../fakes/discord-server.js';

/**
 * Waits for the bot's own header (not the deferred reply) in `channelId` to show the run's end, and
 * checks that the run rendered in the thread started from it, not in the channel.
 * @returns the thread's id
 */
export async function expectRunInItsThread(discord: FakeDiscord, channelId: string, deferredId: string | undefined, printed: string): Promise<string> {
  const header = await discord.waitFor(
    () => discord.messagesIn(channelId).find((m) => m.id !== deferredId && /✅ Success/.test(m.content)),
    30_000,
    'the header as a bot message',
  );
  expect(discord.world.channels.has(header.id)).toBe(true); // a thread was started from it
  const inThread = discord.messagesIn(header.id);
  expect(inThread.find((m) => m.content.startsWith('**Result of attempt 1**'))?.content).toContain(printed);
  expect(inThread.some((m) => /✅ Success · 1 attempt/.test(m.content))).toBe(true);
  expect(discord.messagesIn(channelId).filter((m) => /Result of attempt|Finished/.test(m.content))).toEqual([]);
  expect(discord.calls.some((c) => c.path.startsWith('/webhooks/') && c.status === 404)).toBe(true);
  return header.id;
}
