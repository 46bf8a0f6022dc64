/**
 * Discord: the history (SQLite) cannot be written mid-run because its disk filled up. The progress
 * line ends, the thread says the history could not record the end, and the run is not left
 * running once the store accepts writes again. A small tmpfs holds the store (see the Slack test).
 */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { py, startWorld, type World } from './harness.js';
import { fillDisk, mountSmallDisk, storeOn, unmountSmallDisk } from '../helpers/small-disk.js';

let world: World | undefined;
let small: string;

beforeEach(() => {
  small = mountSmallDisk('4m');
});

afterEach(async () => {
  await world?.close();
  world = undefined;
  unmountSmallDisk(small);
});

describe('Discord: the history cannot be written mid-run', () => {
  it('the progress line ends, the thread says so, the run is failed once there is room again', async () => {
    let filler = '';
    world = await startWorld({
      replies: [
        async () => {
          filler = fillDisk(small); // after the run was stored, before its first attempt is
          return py('print("never recorded")');
        },
      ],
      maxRetries: 0,
      store: storeOn(small),
    });
    const { discord, general } = world;
    const i = discord.slash('run', { requirement: 'print while the disk fills' }, world.from());
    const thread = await world.threadOf(i.id);
    await world.waitMessages(thread, /history could not record how this run ended/);
    const progress = discord.messagesIn(thread)[0]!;
    expect(progress.content).toMatch(/❌ Stopped by an error/);
    await discord.waitFor(() => /❌ Failed/.test(discord.world.messages.get(i.originalMessageId!)!.content), 10_000, 'the header says it failed');

    rmSync(filler);
    const runs = await world.app.store.listRuns(`discord:${discord.world.guildId}:${general.id}`);
    expect(runs.map((r) => r.status)).toEqual(['failed']);
    expect(runs[0]!.error).toMatch(/could not be written|SQLITE_FULL|full/i);
  });
});
