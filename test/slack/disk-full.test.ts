/**
 * The disk under the data dir and the history (SQLite) fills during a run in a Slack thread. Two
 * ways: the program's own file fills it (the run ends failed, its files are not kept), or
 * something else fills it so that the history itself cannot be written. Either way the progress
 * line ends, the thread says what happened, and `/history` does not show the run as running once
 * the store accepts writes again. The data dir is a small tmpfs (mounted as root, as the sandbox
 * tests run); the fake OpenAI server, the fake Slack API and the real sandbox.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';
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

/** The progress message of a thread (its first post, "⏳ Starting…") and its last text. */
function lastProgress(w: World, threadTs: string): string {
  const first = w.threadPosts(threadTs).find((c) => /Starting…/.test(allText([c])));
  expect(first).toBeDefined();
  const ts = String(first!.result!.ts);
  const edits = w.slack.callsOf('chat.update').filter((c) => c.args.ts === ts);
  return allText([edits.at(-1) ?? first!]);
}

/** `/history`'s ephemeral answer. */
async function history(w: World): Promise<string> {
  const res = await w.command({ command: '/history', text: '' });
  return JSON.stringify(res.body);
}

describe('Slack: the disk fills during a run', () => {
  it('the program fills it: the run ends failed, the progress line ends, /history says failed, no truncated file', async () => {
    world = await startWorld({
      replies: [py('with open("big.bin", "wb") as f:\n    f.write(b"x" * 6_000_000)\nprint("written")')],
      maxRetries: 1,
      store: storeOn(small),
    });
    const w = world;
    await w.command({ text: 'write 6 MB' });
    const ts = await w.rootTs();
    const [final] = await w.finished(ts);
    expect(allText([final!])).toMatch(/❌ Failed · .*disk is full/s);
    expect(lastProgress(w, ts)).toMatch(/❌ (Finished with a failure|Stopped by an error)/);
    const listed = await history(w);
    expect(listed).toContain('write 6 MB');
    expect(listed).toMatch(/failed/);
    expect(listed).not.toMatch(/running/);
    const kept = readdirSync(join(small, 'data'), { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('big.bin'));
    expect(kept).toEqual([]);
  }, 90_000);

  it('the history cannot be written: the progress line ends, the thread says so, /history says failed once there is room again', async () => {
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
    const w = world;
    await w.command({ text: 'print while the disk fills' });
    const ts = await w.rootTs();
    const [final] = await w.finished(ts);
    expect(allText([final!])).toMatch(/❌ \*Failed\*/);
    expect(lastProgress(w, ts)).toMatch(/❌ (Finished with a failure|Stopped by an error)/);
    await w.slack.waitFor(() => w.threadPosts(ts).some((c) => /history could not record how this run ended/.test(allText([c]))), 10_000, 'the note');
    expect(statSync(filler).size).toBeGreaterThan(0);

    rmSync(filler);
    const listed = await history(w);
    expect(listed).toContain('print while the disk fills');
    expect(listed).toMatch(/failed/);
    expect(listed).not.toMatch(/running/);
  }, 90_000);
});
