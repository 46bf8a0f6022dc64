/**
 * A worker paused past its job's lock (SIGSTOP, as a frozen VM or a long GC pause would) is taken
 * for dead: another worker tells the thread "interrupted". When the paused worker wakes up and
 * its run ends, the thread must end with one truth: the notice is corrected, the channel message
 * and the history show the run's real status. Real processes: redis-server, an ingress, two workers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startQueueWorld, type Proc, type QueueWorld } from './harness.js';
import { startDiscordQueueWorld, type DiscordQueueWorld } from './discord-harness.js';
import { allText } from '../slack/harness.js';
import type { ChildProcess } from 'node:child_process';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;
/** A program that takes a few seconds: it is still running when its worker is paused. */
const SLOW = py('import time\nprint("started", flush=True)\ntime.sleep(4)\nprint("finished the work")');

/** The worker that took the job (it logs "started job"); the other one finds the job stalled. */
function runningWorker(workers: Proc[]): ChildProcess {
  const running = workers.filter((p) => /started job/.test(p.stderr()));
  expect(running).toHaveLength(1);
  return running[0]!.child;
}

let world: QueueWorld | DiscordQueueWorld | undefined;
let paused: ChildProcess | undefined;
afterEach(async () => {
  paused?.kill('SIGCONT');
  paused = undefined;
  await world?.close();
  world = undefined;
});

describe('a worker paused past its lock, then finishing its run', () => {
  it('Slack: the "interrupted" notice is corrected, the channel message and /history say success', async () => {
    const w = await startQueueWorld({ replies: [SLOW], ingresses: 1, workers: 2, sandbox: { timeout_s: 60, cpu_time_s: 60 }, logLevel: 'info' });
    world = w;
    expect((await w.command(0, { text: 'take four seconds', trigger_id: 'pause.1' })).status).toBe(200);
    const root = await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').find((c) => !c.args.thread_ts && c.result?.ok), 20_000, 'the channel message');
    const ts = String(root.result!.ts);
    await w.slack.waitFor(() => w.slack.calls.some((c) => /Running attempt 1/.test(allText([c])) && (c.args.thread_ts === ts || c.method === 'chat.update')), 20_000, 'running…');
    paused = runningWorker(w.workers);
    paused.kill('SIGSTOP');
    const notice = await w.slack.waitFor(
      () => w.slack.callsOf('chat.postMessage').find((c) => c.args.thread_ts === ts && /worker running it stopped/.test(allText([c]))),
      20_000,
      'the interruption notice',
    );
    paused.kill('SIGCONT');
    paused = undefined;

    await w.slack.waitFor(() => w.slack.callsOf('chat.postMessage').some((c) => c.args.thread_ts === ts && /Reply in this thread to/.test(allText([c]))), 30_000, 'the run\'s end');
    const noticeTs = String(notice.result!.ts);
    await w.slack.waitFor(
      () => w.slack.callsOf('chat.update').some((c) => c.args.ts === noticeTs && /Not interrupted after all/.test(allText([c]))),
      20_000,
      'the corrected notice',
    );
    // one truth: the last word on the notice and on the channel message is the run's real end
    await new Promise((r) => setTimeout(r, 1000));
    const edits = (id: string) => w.slack.callsOf('chat.update').filter((c) => c.args.ts === id);
    expect(allText([edits(noticeTs).at(-1)!])).toMatch(/Not interrupted after all/);
    expect(allText([edits(ts).at(-1)!])).toMatch(/✅ Success/);
    const history = await w.command(0, { command: '/history', text: '' });
    const listed = JSON.stringify(history.body);
    expect(listed).toContain('take four seconds');
    expect(listed).toMatch(/success/);
    expect(listed).not.toMatch(/failed|running/);
    for (const p of w.workers) expect(p.stderr()).not.toMatch(/unhandled/);
  }, 120_000);

  it('Discord: the "interrupted" notice is corrected, the header says success', async () => {
    const w = await startDiscordQueueWorld({ replies: [SLOW], workers: 2, sandbox: { timeout_s: 60, cpu_time_s: 60 }, logLevel: 'info' });
    world = w;
    const { discord, alice } = w;
    const i = discord.slash('run', { requirement: 'take four seconds' }, w.from(alice));
    const thread = await discord.waitFor(() => i.originalMessageId && discord.world.channels.has(i.originalMessageId) && i.originalMessageId, 20_000, 'the thread');
    await discord.waitFor(() => discord.messagesIn(thread).some((m) => /Running attempt 1/.test(m.content)), 20_000, 'running…');
    paused = runningWorker(w.workers);
    paused.kill('SIGSTOP');
    const notice = await discord.waitFor(() => discord.messagesIn(thread).find((m) => /worker running it stopped/.test(m.content)), 20_000, 'the interruption notice');
    await discord.waitFor(() => /❌ Failed/.test(discord.world.messages.get(i.originalMessageId!)!.content), 10_000, 'the header says failed');
    paused.kill('SIGCONT');
    paused = undefined;

    await discord.waitFor(() => discord.messagesIn(thread).some((m) => /finished the work/.test(m.content)), 30_000, 'the run\'s result');
    await discord.waitFor(() => /Not interrupted after all/.test(discord.world.messages.get(notice.id)!.content), 20_000, 'the corrected notice');
    await discord.waitFor(() => /✅ Success/.test(discord.world.messages.get(i.originalMessageId!)!.content), 20_000, 'the header says success');
    await new Promise((r) => setTimeout(r, 1000));
    expect(discord.world.messages.get(notice.id)!.content).not.toMatch(/^❌/);
    expect(discord.world.messages.get(i.originalMessageId!)!.content).toMatch(/✅ Success/);
    expect(discord.messagesIn(thread).filter((m) => /^❌/.test(m.content))).toEqual([]);
    for (const p of w.workers) expect(p.stderr()).not.toMatch(/unhandled/);
  }, 120_000);
});
