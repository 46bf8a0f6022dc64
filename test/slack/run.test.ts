/** `/run` end to end: signed command → Bolt → agent (fake LLM, real sandbox) → fake Slack thread. */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';
import { routedReplies } from '../helpers/verify-replies.js';
import type { SlackCall } from '../fakes/slack-api.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PLOT = `import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import math
xs = [i / 10 for i in range(63)]
plt.plot(xs, [math.sin(x) for x in xs])
plt.savefig("sine.png")
print("plotted", len(xs), "points")`;

describe('/run', () => {
  it('acks at once, posts the requirement, then code, stdout and the plot in the thread', async () => {
    world = await startWorld({ replies: [py(PLOT)] });
    const ack = await world.command({ text: 'plot a sine wave' });
    expect(ack.status).toBe(200);
    const root = await world.rootTs();
    const rootCall = world.slack.callsOf('chat.postMessage').find((c) => c.result?.ts === root)!;
    expect(allText([rootCall])).toContain('plot a sine wave');
    expect(allText([rootCall])).toContain('alice');
    await world.finished(root);
    const text = allText(world.threadPosts(root));
    expect(text).toContain('import matplotlib');
    expect(text).toContain('plotted 63 points');
    expect(text).toMatch(/Success · exit code 0/);
    const image = world.slack.uploads.find((u) => u.filename === 'sine.png');
    expect(image?.threadTs).toBe(root);
    expect(image?.channel).toBe('C_MAIN');
    expect(image?.bytes.subarray(1, 4).toString()).toBe('PNG');
    // the channel message ends with the status
    const updates = world.slack.callsOf('chat.update').filter((c) => c.args.ts === root);
    expect(String(updates.at(-1)?.args.text)).toContain('✅ Success');
    // progress message updated in place
    const progress = world.threadPosts(root)[0]!;
    const progressUpdates = world.slack.callsOf('chat.update').filter((c) => c.args.ts === progress.result?.ts);
    expect(allText(progressUpdates)).toContain('Running attempt 1');
  });

  it('names a file Slack refuses to take in the thread, with Slack\'s reason (src/chat/view/upload-notice.ts)', async () => {
    world = await startWorld({ replies: [py('open("report.txt", "w").write("r"); print("written")')] });
    world.slack.failNext('files.completeUploadExternal', { error: 'file_uploads_disabled' });
    await world.command({ text: 'write a report' });
    const root = await world.rootTs();
    await world.finished(root);
    const notice = await world.slack.waitFor(() => world!.threadPosts(root).find((c) => /Could not upload/.test(String(c.args.text))));
    expect(String(notice.args.text)).toMatch(/^📎 Could not upload `report\.txt`: .*file_uploads_disabled/);
    expect(world.slack.uploads.find((u) => u.filename === 'report.txt')).toBeUndefined();
  });

  it('shows both attempts when the second one fixes the first', async () => {
    world = await startWorld({ replies: [py('print(undefined_name)'), py('print("fixed")')] });
    await world.command({ text: 'print something' });
    const root = await world.rootTs();
    await world.finished(root);
    const text = allText(world.threadPosts(root));
    expect(text).toContain('print(undefined_name)');
    expect(text).toContain("NameError: name 'undefined_name' is not defined");
    expect(text).toMatch(/🔧 \*Auto-fix 1\/3\* · the error that caused it:/);
    expect(text).toContain('print("fixed")');
    expect(text).toContain('✅ Success · 2 attempts');
    // the error went back to the LLM
    expect(JSON.stringify(world.llm.requests[1]?.messages)).toContain('NameError');
  });

  it('caps 5000 characters of output and attaches the full text', async () => {
    world = await startWorld({ replies: [py('print("x" * 5000)')] });
    await world.command({ text: 'print many x' });
    const root = await world.rootTs();
    await world.finished(root);
    for (const call of world.threadPosts(root)) {
      for (const block of sections(call)) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    expect(allText(world.threadPosts(root))).toContain('full text attached');
    const file = await world.slack.waitFor(() => world!.slack.uploads.find((u) => u.filename === 'attempt-1-stdout.txt'));
    expect(file.bytes.toString().trim()).toBe('x'.repeat(5000));
    expect(file.threadTs).toBe(root);
  });

  it('keeps hostile output inert: no fence break, no mention', async () => {
    const evil = 'print("```"); print("<!channel> <!here> <@U123> <#C123> <!subteam^S1> @everyone")';
    world = await startWorld({ replies: [py(evil)] });
    await world.command({ text: 'say <!channel> hi' });
    const root = await world.rootTs();
    await world.finished(root);
    const calls = [...world.slack.callsOf('chat.postMessage'), ...world.slack.callsOf('chat.update')];
    const text = allText(calls);
    expect(text).not.toMatch(/<[!@#]/);
    expect(text).toContain('&lt;!channel&gt;');
    for (const call of calls) expect(call.args.link_names).not.toBe(true);
    // every code block opens and closes in pairs: the program's ``` did not close one
    for (const call of calls) {
      for (const block of sections(call)) {
        expect((block.text.text.match(/```/g) ?? []).length % 2).toBe(0);
      }
    }
  });

  it('answers /run with no text, and oversized text, ephemerally without calling the LLM', async () => {
    world = await startWorld({ replies: [py('print(1)')] });
    const empty = await world.command({ text: '   ' });
    expect(empty.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(empty.body)).toContain('Usage');
    const big = await world.command({ text: 'x'.repeat(9000) });
    expect(JSON.stringify(big.body)).toContain('limit is 8000');
    expect(world.llm.requests).toHaveLength(0);
    expect(world.slack.callsOf('chat.postMessage')).toHaveLength(0);
  });
});

describe('/run with verification', () => {
  it('shows the derived checks, each attempt\'s check results, and ⚠️ when no attempt is confirmed', async () => {
    world = await startWorld({
      verify: 'checks',
      maxRetries: 1,
      replies: [routedReplies({ code: [py('print("2,3,5,7")'), py('print("2,3,5,7,11")')], checks: [py('values = OUTPUT.strip().split(",")\nassert len(values) == 20, "20 numbers"')] })],
    });
    await world.command({ text: 'print the first 20 primes, comma-separated' });
    const root = await world.rootTs();
    await world.finished(root);
    const text = allText(world.threadPosts(root));
    expect(text).toContain('Checks derived from the request');
    expect(text).toContain('assert len(values) == 20, "20 numbers"');
    expect(text).toContain('Ran, not confirmed');
    expect(text).toContain('got 4, expected == 20');
    expect(text).toContain('⚠️ Ran, but not confirmed · 2 attempts');
    const updates = world.slack.callsOf('chat.update').filter((c) => c.args.ts === root);
    expect(String(updates.at(-1)?.args.text)).toContain('⚠️ Ran, but not confirmed · 2 attempts');
    // the checks step (an LLM call as long as writing code) is shown on the progress line like every other step
    const progress = [...world.threadPosts(root), ...world.slack.callsOf('chat.update')].map((c) => String(c.args.text));
    expect(progress).toContain('🧪 Deriving checks from the request…');
  });
});

/** The text blocks of a post (its buttons, an actions block, have no text). */
function sections(call: SlackCall): { type: string; text: { text: string } }[] {
  return ((call.args.blocks as { type: string; text: { text: string } }[]) ?? []).filter((b) => b.type === 'section');
}
