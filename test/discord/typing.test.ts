/** Discord's typing indicator while a run works: shown at once, renewed before its 10 s lapse, not renewed after the end. */
import { afterEach, describe, expect, it } from 'vitest';
import { py, startWorld, type World } from './harness.js';
import { TYPING_RENEW_MS } from '../../adapters/discord/typing.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('typing indicator', () => {
  it('types in the run\'s thread while it works, renews every 8 s, and stops at the end', async () => {
    world = await startWorld({ replies: [py('import time\ntime.sleep(9)\nprint("slept")')] });
    const { discord } = world;
    const i = discord.slash('run', { requirement: 'sleep a while' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /✅ Success · 1 attempt/);
    const typing = () => discord.calls.filter((c) => c.method === 'POST' && /^\/channels\/\d+\/typing$/.test(c.path));
    const during = typing();
    expect(during.length).toBeGreaterThanOrEqual(2);
    expect(during.every((c) => c.status === 204)).toBe(true);
    expect(new Set(during.map((c) => c.path))).toEqual(new Set([`/channels/${thread}/typing`]));
    // renewed before Discord's 10 s lapse
    for (let k = 1; k < during.length; k++) expect(during[k]!.at - during[k - 1]!.at).toBeLessThan(10_000);
    // no more after the end
    await new Promise((r) => setTimeout(r, TYPING_RENEW_MS + 1000));
    expect(typing()).toHaveLength(during.length);
  }, 60_000);
});
