/**
 * Discord answers 404 for an interaction's token (Unknown Webhook 10015, Unknown Interaction 10062)
 * after the command was deferred: the run still gets its header as the bot's own message in the
 * channel, its thread started from that message, and every message of the run in the thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { py, startWorld, type World } from './harness.js';
import { expectRunInItsThread } from './run-in-thread.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('Discord refuses the interaction token (404)', () => {
  it.each([10015, 10062] as const)('code %i: the run renders in a thread started from a bot message', async (code) => {
    world = await startWorld({ replies: [py('print("token refused")')] });
    const { discord, general } = world;
    const i = discord.slash('run', { requirement: 'print token refused' }, world.from());
    i.refused = code;
    await expectRunInItsThread(discord, general.id, i.originalMessageId, 'token refused');
    expect(i.callbacks[0]!.type).toBe(5); // the deferral itself went through
    const runs = await world.app.store.listRuns(`discord:${discord.world.guildId}:${general.id}`);
    expect(runs.map((r) => r.status)).toEqual(['success']);
  });
});
