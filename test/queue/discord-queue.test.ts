/**
 * Discord in queue mode, with real processes: one gateway ingress (`code-agent discord`) and
 * workers (`code-agent worker`) on one redis-server, against the fake Discord.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordQueueWorld, type DiscordQueueWorld } from './discord-harness.js';
import { stopProc } from './harness.js';
import type { FakeRequest } from '../fakes/openai-server.js';

const py = (code: string) => `Here you go:\n\`\`\`python\n${code}\n\`\`\``;
/** The program prints the `tag:<word>` of the last message (the requirement, or the feedback); `slow` makes it take 2 s. */
const echoTag = (req: FakeRequest) => {
  const text = String(req.messages.at(-1)?.content);
  const tag = [...text.matchAll(/tag:(\w+)/g)].at(-1)?.[1] ?? 'none';
  return py(`${/slow/.test(text) ? 'import time\ntime.sleep(2)\n' : ''}print("ran ${tag}")`);
};
const EPHEMERAL = 64;

let world: DiscordQueueWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('Discord in queue mode', () => {
  it('runs a /run delivered twice through the gateway exactly once with two workers; a second /run of the user is busy; a thread reply and Re-run are jobs; /history lists exactly the channel\'s runs', async () => {
    world = await startDiscordQueueWorld({ replies: [echoTag], workers: 2 });
    const { discord, llm, general, other, alice, bob } = world;
    const w = world;
    const first = discord.slash('run', { requirement: 'slow tag:first' }, w.from(alice));
    w.redeliver(first.id);
    await discord.waitFor(() => first.callbacks.length > 0, 5_000, 'the deferral');
    expect(first.callbacks[0]!.type).toBe(5);
    expect(first.callbacks[0]!.at - first.dispatchedAt).toBeLessThan(3_000);

    // the same user again while the first job is queued or running: a clear, ephemeral busy
    const busy = discord.slash('run', { requirement: 'tag:second' }, w.from(alice));
    await discord.waitFor(() => busy.callbacks.length > 0, 5_000, 'the busy answer');
    expect(busy.callbacks[0]!.type).toBe(4);
    expect(busy.callbacks[0]!.data?.flags).toBe(EPHEMERAL);
    expect(String(busy.callbacks[0]!.data?.content)).toMatch(/already have a job running/);

    const elsewhere = discord.slash('run', { requirement: 'tag:other' }, w.from(bob, other.id));
    const thread = await discord.waitFor(() => first.originalMessageId && discord.world.channels.has(first.originalMessageId) && first.originalMessageId, 20_000, 'the thread');
    const header = () => discord.world.messages.get(first.originalMessageId!)!.content;
    await discord.waitFor(() => /✅ Success/.test(header()), 30_000, 'the header says success');
    const inThread = (pattern: RegExp) => discord.messagesIn(thread).filter((m) => pattern.test(m.content));
    expect(inThread(/^\*\*Result of attempt/)).toHaveLength(1);
    expect(inThread(/ran first/)).toHaveLength(2); // the code and its output
    const runId = header().match(/run `([^`]+)`/)![1]!;
    await discord.waitFor(() => elsewhere.originalMessageId && /✅ Success/.test(discord.world.messages.get(elsewhere.originalMessageId)!.content), 30_000, 'the other channel\'s run');
    const otherRunId = discord.world.messages.get(elsewhere.originalMessageId!)!.content.match(/run `([^`]+)`/)![1]!;
    await new Promise((r) => setTimeout(r, 500)); // anything run twice would post now
    // exactly once: one deferral, one thread, one LLM call per accepted /run; nothing for the busy one
    expect(first.callbacks).toHaveLength(1);
    expect([...discord.world.channels.values()].filter((c) => c.parent_id === general.id)).toHaveLength(1);
    expect(llm.requests.map((r) => String(r.messages.at(-1)?.content)).filter((t) => /tag:first/.test(t))).toHaveLength(1);
    expect(llm.requests.some((r) => /tag:second/.test(String(r.messages.at(-1)?.content)))).toBe(false);

    // a reply in the thread is an improve job on a worker
    discord.say('now print tag:improved', w.from(bob, thread));
    await discord.waitFor(() => inThread(/ran improved/).length > 0, 30_000, 'the improved run');
    await discord.waitFor(() => inThread(/✅ Success/).length >= 2, 30_000, 'the improvement\'s end');
    expect(llm.requests).toHaveLength(3);

    // the Re-run button of the last result is a job too (the same code again, no LLM call)
    const last = inThread(/✅ Success/).at(-1)!;
    const rerun = discord.click(last, `ca:rerun:${runId}`, w.from(alice, thread));
    await discord.waitFor(() => rerun.callbacks.length > 0, 5_000, 'the re-run deferral');
    expect(rerun.callbacks[0]!.type).toBe(5);
    await discord.waitFor(() => inThread(/✅ Success/).length >= 3, 30_000, 'the re-run\'s end');
    expect(llm.requests).toHaveLength(3);

    // /history, answered by the ingress from the shared store, lists exactly each channel's runs
    for (const [channel, expected] of [
      [general.id, [runId]],
      [other.id, [otherRunId]],
    ] as const) {
      const h = discord.slash('history', {}, w.from(alice, channel));
      await discord.waitFor(() => h.originalMessageId && /Recent runs/.test(discord.world.messages.get(h.originalMessageId)!.content), 10_000, '/history');
      const listed = [...discord.world.messages.get(h.originalMessageId!)!.content.matchAll(/`([^`]+)` ·/g)].map((m) => m[1]);
      expect(listed).toEqual(expected);
    }
    for (const p of [w.ingress, ...w.workers]) expect(p.stderr()).not.toMatch(/unhandled/);
  }, 120_000);

  it('tells the thread within the stalled-job interval when the worker running a job is killed (kill -9), and frees the user', async () => {
    world = await startDiscordQueueWorld({
      replies: [py('import time\nprint("started", flush=True)\ntime.sleep(60)'), echoTag],
      workers: 1,
      sandbox: { timeout_s: 90, cpu_time_s: 90 },
    });
    const { discord, alice } = world;
    const w = world;
    const doomed = w.workers[0]!;
    const i = discord.slash('run', { requirement: 'sleep for a minute' }, w.from(alice));
    const thread = await discord.waitFor(() => i.originalMessageId && discord.world.channels.has(i.originalMessageId) && i.originalMessageId, 20_000, 'the thread');
    await discord.waitFor(() => discord.messagesIn(thread).some((m) => /Running attempt 1/.test(m.content)), 20_000, 'running…');
    const survivor = await w.addWorker();
    const killedAt = Date.now();
    await stopProc(doomed.child, 'SIGKILL');

    const notice = await discord.waitFor(() => discord.messagesIn(thread).find((m) => /worker running it stopped/.test(m.content)), 20_000, 'the interruption notice');
    // lock_s 2 + stalled_interval_s 1: told within seconds, not after the 60 s program
    expect(Date.parse(String(notice.timestamp)) - killedAt).toBeLessThan(10_000);
    expect(notice.content).toMatch(/❌ \*\*Failed\*\*/);
    await discord.waitFor(() => /❌ Failed .*interrupted/.test(discord.world.messages.get(i.originalMessageId!)!.content), 10_000, 'the header says failed');

    // the user's slot was freed: a new /run is taken and runs on the surviving worker
    const again = discord.slash('run', { requirement: 'tag:again' }, w.from(alice));
    await discord.waitFor(() => again.callbacks.length > 0, 5_000, 'the answer');
    expect(again.callbacks[0]!.type).toBe(5);
    await discord.waitFor(() => again.originalMessageId && /✅ Success/.test(discord.world.messages.get(again.originalMessageId)!.content), 30_000, 'the second run');
    expect(survivor.stderr()).not.toMatch(/unhandled/);
  }, 90_000);
});
