/**
 * Slack's agent surface end to end (Bolt, fake Slack, fake LLM, real sandbox): the thread's status
 * while a run works, each attempt streamed into one message with its tasks, the last message (and
 * its feedback buttons) closing the last stream; the fallback to today's messages when the
 * workspace refuses the methods, detected once per workspace; a stream cut by Slack closed, the
 * rest posted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';
import { slowLines, STREAMED_CODE } from '../helpers/streamed-reply.js';
import type { SlackCall } from '../fakes/slack-api.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const chunksOf = (calls: SlackCall[], type: string) => calls.flatMap((c) => ((c.args.chunks as Record<string, unknown>[] | undefined) ?? []).filter((k) => k.type === type));
const SURFACE = ['assistant.threads.setStatus', 'chat.startStream', 'chat.appendStream', 'chat.stopStream'];

describe('Slack agent surface', () => {
  it('status while working, cleared at the end; one streamed message per attempt with its tasks; the last one closed with the final blocks', async () => {
    world = await startWorld({ agentSurface: true, replies: [slowLines(py('print(undefined_name)')), slowLines(py(STREAMED_CODE))] });
    await world.command({ text: 'print 24 lines' });
    const root = await world.rootTs();
    await world.finished(root);
    const { slack } = world;

    // the status followed the steps and was cleared
    const statuses = slack.callsOf('assistant.threads.setStatus').filter((c) => c.args.thread_ts === root).map((c) => String(c.args.status));
    expect(statuses[0]).toBe('is starting…');
    expect(statuses).toContain('is writing code (attempt 1/4)…');
    expect(statuses).toContain('is running attempt 2/4 in the sandbox…');
    expect(statuses.at(-1)).toBe('');
    expect(slack.agent.thread('C_MAIN', root).status).toBe('');
    // no progress message was posted or edited
    expect(allText(world.threadPosts(root))).not.toMatch(/Running attempt|Writing code/);

    // two streams, both closed, to the requester
    const streams = slack.agent.streams.filter((s) => s.threadTs === root);
    expect(streams).toHaveLength(2);
    expect(slack.agent.openStreams()).toHaveLength(0);
    const start = slack.callsOf('chat.startStream')[0]!;
    expect(start.args).toMatchObject({ channel: 'C_MAIN', thread_ts: root, recipient_user_id: 'U_ALICE', recipient_team_id: 'T0001' });
    const [first, second] = streams;
    expect(first!.text).toContain('```\nprint(undefined_name)\n```');
    expect(second!.text).toContain('print("line 24")');
    // the code arrived in several appends while it was written
    const appends = slack.callsOf('chat.appendStream').filter((c) => c.args.ts === second!.ts && String(c.args.markdown_text ?? '').includes('print("line'));
    expect(appends.length).toBeGreaterThanOrEqual(2);
    // tasks: each attempt in progress, then failed / complete
    const tasks = (ts: string) => chunksOf(slack.calls.filter((c) => c.args.ts === ts || c.result?.ts === ts), 'task_update');
    expect(tasks(first!.ts).map((t) => t.status)).toEqual(expect.arrayContaining(['in_progress', 'error']));
    expect(tasks(second!.ts).at(-1)).toMatchObject({ id: 'attempt-2', status: 'complete' });
    // the result and the fix's reason are in the first attempt's message
    expect(allText(slack.calls.filter((c) => c.args.ts === first!.ts))).toContain("NameError: name 'undefined_name' is not defined");
    // the last message closed the second stream, with the feedback buttons element
    const stop = slack.callsOf('chat.stopStream').find((c) => c.args.ts === second!.ts)!;
    expect(allText([stop])).toMatch(/Reply in this thread to/);
    expect(JSON.stringify(stop.args.blocks)).toContain('feedback_buttons');
    // nothing posted the code or the result as a message of its own; no stream was edited
    expect(allText(world.threadPosts(root))).not.toContain('print(undefined_name)');
    expect(slack.callsOf('chat.update').filter((c) => streams.some((s) => s.ts === c.args.ts))).toHaveLength(0);
  }, 60_000);

  it('a workspace that refuses the methods gets today\'s messages; the refusal is learnt once', async () => {
    world = await startWorld({ replies: [py('print("one")'), py('print("two")')] });
    await world.command({ text: 'print one' });
    const root = await world.rootTs();
    await world.finished(root);
    const refusedCalls = world.slack.calls.filter((c) => SURFACE.includes(c.method));
    expect(refusedCalls.length).toBeGreaterThan(0);
    expect(refusedCalls.every((c) => c.result?.error === 'not_allowed')).toBe(true);
    expect(world.slack.callsOf('assistant.threads.setStatus')).toHaveLength(1);
    expect(world.slack.callsOf('chat.startStream')).toHaveLength(1);
    const text = allText(world.threadPosts(root));
    expect(text).toContain('print("one")');
    expect(text).toMatch(/Reply in this thread to/);
    // the next run, in the same workspace, does not ask again
    const asked = world.slack.calls.length;
    await world.command({ text: 'print two', channel_id: 'C_OTHER' });
    const other = await world.rootTs('C_OTHER');
    await world.finished(other);
    expect(world.slack.calls.slice(asked).filter((c) => SURFACE.includes(c.method))).toHaveLength(0);
    expect(allText(world.threadPosts(other))).toContain('print("two")');
  }, 60_000);

  it('a stream whose append fails is stopped with what it shows, and the rest of the turn is posted', async () => {
    world = await startWorld({ agentSurface: true, replies: [py('print("after the cut")')] });
    // a failure that leaves the stream open at Slack: it must still be stopped
    world.slack.failNext('chat.appendStream', { error: 'internal_error' });
    await world.command({ text: 'print after the cut' });
    const root = await world.rootTs();
    await world.finished(root);
    expect(world.slack.agent.openStreams()).toHaveLength(0);
    const text = allText(world.threadMessages(root));
    expect(text).toContain('after the cut');
    expect(allText(world.threadPosts(root))).toMatch(/Reply in this thread to/);
  }, 60_000);
});
