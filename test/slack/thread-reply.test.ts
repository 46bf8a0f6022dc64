/** Thread replies: improve with feedback, attached input files, once-only delivery, survival across a restart. */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('a reply in a run thread', () => {
  it('improves the run with the reply as feedback and runs the result', async () => {
    world = await startWorld({ replies: [py('print("hello")'), py('print("HELLO")')] });
    await world.command({ text: 'greet' });
    const root = await world.rootTs();
    await world.finished(root);
    const ack = await world.reply(root, 'make it <!channel> uppercase');
    expect(ack.status).toBe(200);
    await world.finished(root, 2);
    const feedback = JSON.stringify(world.llm.requests[1]?.messages);
    expect(feedback).toContain('make it @channel uppercase'); // Slack's <!channel> reaches the LLM as plain text
    expect(feedback).toContain('print(\\"hello\\")');
    expect(allText(world.threadPosts(root))).toContain('HELLO');
    const last = world.slack.callsOf('chat.update').filter((c) => c.args.ts === root).at(-1);
    expect(String(last?.args.text)).toContain('Success · 2 attempts');
  });

  it('a reply by the user whose run is still running is not refused: it is queued (the thread says so) and runs next', async () => {
    world = await startWorld({ replies: [py('import time; time.sleep(1.5); print("v1")'), py('print("v2")')] });
    await world.command({ text: 'print v1 slowly', user_id: 'U_ALICE' });
    const root = await world.rootTs();
    await world.slack.waitFor(() => world!.slack.calls.some((c) => /Running attempt 1/.test(String(c.args.text))), 20_000, 'running…');
    await world.reply(root, 'print v2 instead', { user: 'U_ALICE' });
    const eph = await world.slack.waitFor(() => world!.slack.callsOf('chat.postEphemeral')[0]);
    expect(eph.args).toMatchObject({ user: 'U_ALICE', thread_ts: root });
    expect(String(eph.args.text)).toContain('Queued: 1 job(s) ahead of yours');
    await world.finished(root, 2);
    expect(allText(world.threadPosts(root))).toContain('v2');
    expect(world.llm.requests).toHaveLength(2);
  });

  it('runs once when Slack delivers the same event twice', async () => {
    world = await startWorld({ replies: [py('print(1)'), py('print(2)')] });
    await world.command({ text: 'count' });
    const root = await world.rootTs();
    await world.finished(root);
    const first = await world.reply(root, 'print 2 instead', { eventId: 'Ev_DUP' });
    const retry = await world.reply(root, 'print 2 instead', { eventId: 'Ev_DUP', retryNum: 1 });
    expect([first.status, retry.status]).toEqual([200, 200]);
    await world.finished(root, 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(world.llm.requests).toHaveLength(2);
    expect(world.threadPosts(root).filter((c) => /Reply in this thread to/.test(String(c.args.text)))).toHaveLength(2);
  });

  it('runs a slash command once when it arrives twice with the same trigger_id', async () => {
    world = await startWorld({ replies: [py('print(1)')] });
    await world.command({ text: 'count', trigger_id: 'trig-1' });
    await world.command({ text: 'count', trigger_id: 'trig-1' }, { 'x-slack-retry-num': '1' });
    const root = await world.rootTs();
    await world.finished(root);
    await new Promise((r) => setTimeout(r, 300));
    expect(world.slack.callsOf('chat.postMessage').filter((c) => !c.args.thread_ts)).toHaveLength(1);
    expect(world.llm.requests).toHaveLength(1);
  });

  it('places attached files in the sandbox work dir', async () => {
    world = await startWorld({ replies: [py('print("ready")'), py('print(open("data.csv").read().upper())')] });
    await world.command({ text: 'read a csv' });
    const root = await world.rootTs();
    await world.finished(root);
    const file = world.slack.hostFile('data.csv', Buffer.from('a,b\n1,2\n'));
    await world.reply(root, 'read data.csv and print it', { files: [file] });
    await world.finished(root, 2);
    expect(allText(world.threadPosts(root))).toContain('A,B\n1,2');
    expect(JSON.stringify(world.llm.requests[1]?.messages)).toContain('data.csv');
  });

  it('still improves the old run after a restart on the same store', async () => {
    world = await startWorld({ replies: [py('print("v1")'), py('print("v2")')] });
    await world.command({ text: 'version' });
    const root = await world.rootTs();
    await world.finished(root);
    await world.restart();
    await world.reply(root, 'print v2');
    await world.finished(root, 2);
    const text = allText(world.threadPosts(root));
    expect(text).toContain('v2');
    expect(JSON.stringify(world.llm.requests[1]?.messages)).toContain('print(\\"v1\\")');
  });

  it('ignores replies in threads that are not runs', async () => {
    world = await startWorld({ replies: [py('print(1)')] });
    await world.reply('1600000000.000001', 'hello');
    await new Promise((r) => setTimeout(r, 300));
    expect(world.llm.requests).toHaveLength(0);
    expect(world.slack.callsOf('chat.postMessage')).toHaveLength(0);
  });
});
