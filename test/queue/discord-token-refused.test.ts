/**
 * Queue mode: the worker, which has only the interaction's token, finds it refused by Discord
 * (404 Unknown Webhook): the run renders in a thread started from the bot's own header message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordQueueWorld, type DiscordQueueWorld } from './discord-harness.js';
import { expectRunInItsThread } from '../discord/run-in-thread.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;

let world: DiscordQueueWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('Discord in queue mode: the interaction token refused (404)', () => {
  it('the worker posts the header as a bot message and renders the run in its thread', async () => {
    world = await startDiscordQueueWorld({ replies: [py('print("worker without token")')], workers: 1 });
    const { discord, general, alice } = world;
    const i = discord.slash('run', { requirement: 'print worker without token' }, world.from(alice));
    i.refused = 10015;
    await expectRunInItsThread(discord, general.id, i.originalMessageId, 'worker without token');
    expect(i.callbacks[0]!.type).toBe(5);
  }, 60_000);
});
