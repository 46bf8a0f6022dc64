/**
 * A schedule's tick on Matrix (adapters/matrix/outgoing.ts): no message asked for it, so the bot's
 * own root message (who scheduled what, its status: edited when the run ends) roots the thread; the team program's run is posted in that thread with its
 * output, its file as media and the team program's mark. A real Synapse, the embedded bot, the real
 * sandbox and SQLite store; the timer scheduler takes the schedule from the store when the bot
 * starts. The LLM is never called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_KEY } from '../../adapters/matrix/markup.js';
import { startMatrixBot } from '../../adapters/matrix/main.js';
import { startMatrixWorld, type MatrixWorld, type SeenEvent } from './harness.js';
import { scheduleSquares } from '../helpers/squares-schedule.js';

let w: MatrixWorld;
beforeAll(async () => {
  w = await startMatrixWorld();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

describe('a scheduled run on Matrix', () => {
  it("roots a new thread with the bot's own message in the room, and posts the run there with the result and the file", async () => {
    const conversation = `matrix:${w.roomId}`;
    const saved = await scheduleSquares(w.app!.store, { conversation, platform: 'matrix', channel: w.roomId, by: { id: w.alice.user.userId, name: 'alice' } });
    // the timer scheduler reads the store's schedules when the bot starts
    await w.bot!.stop(5000);
    w.bot = await startMatrixBot(w.app!, { info: () => undefined, warn: () => undefined, error: (...m) => console.error(...m) });

    const t = w.alice.timeline;
    const bot = w.botUser.userId;
    // the root: the bot's own message in the room's timeline (not in a thread, not a reply), naming the schedule
    const root = await t.waitFor(
      () => t.events.find((e) => e.sender === bot && e.type === 'm.room.message' && String(e.content.body).includes(`${saved.id}: team program`) && !e.content['m.relates_to']),
      30_000,
      'the scheduled root message',
    );
    const finals = () => t.inThread(root.event_id).filter((e) => typeof e.content[RUN_KEY] === 'string');
    const [final] = await t.waitFor(() => (finals().length ? finals() : undefined), 60_000, 'the final message in the thread');
    expect(String(final!.content.body)).toMatch(/team program `squares-report` v1, approved by alice/);
    expect(String(final!.content.body)).not.toMatch(/Success · \d+ attempt/); // the team's mark, not the agent's ✅
    const inThread = t.inThread(root.event_id);
    expect(inThread.map((e) => String(e.content.body)).join('\n')).toContain('squares: 1 4 9');
    const file = inThread.find((e) => e.content.msgtype === 'm.file' && e.content.body === 'squares.csv') as SeenEvent;
    const [, server, media] = /^mxc:\/\/([^/]+)\/(.+)$/.exec(file.content.url)!;
    const res = await fetch(`${w.hs.url}/_matrix/client/v1/media/download/${server}/${media}`, { headers: { authorization: `Bearer ${w.alice.user.accessToken}` } });
    expect(await res.text()).toBe('1,1\r\n2,4\r\n3,9\r\n');
    // the root is the root message every platform composes (who scheduled what, its status), edited to the run's end
    expect(String(root.content.body)).toMatch(/^\*?\*?alice\*?\*? scheduled: ⏰ s\d+: team program `squares-report`/);
    const rootNow = () => String(root.content.body); // the timeline applies an edit to the event it replaces
    await t.waitFor(() => /Status:\*?\*? .*team program `squares-report`/.test(rootNow()) && !/Working/.test(rootNow()), 30_000, 'the root edited to the end');
    expect(rootNow()).toContain('Results are in the thread');
    expect(w.llm.requests).toHaveLength(0);
  }, 120_000);
});
