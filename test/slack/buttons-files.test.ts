/** The Re-run and Improve buttons on a run's final message (Block Kit) and the Improve modal; runs started with files (a mention, a direct message). */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';
import { blockActionsPayload, viewSubmissionPayload } from '../fakes/slack-payloads.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The buttons of the last final message in a thread. */
function finalButtons(w: World, threadTs: string): Array<{ action_id: string; value: string; text: { text: string }; messageTs: string }> {
  const final = w.threadPosts(threadTs).filter((c) => /Reply in this thread to|❌ \*Failed\*/.test(String(c.args.text))).at(-1)!;
  const blocks = final.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string; text: { text: string } }> }>;
  const elements = blocks.find((b) => b.type === 'actions')?.elements ?? [];
  return elements.map((e) => ({ ...e, messageTs: String(final.result?.ts) }));
}

describe('buttons on a run', () => {
  it('Re-run runs the same code again without asking the LLM; Improve opens a modal whose feedback improves the run', async () => {
    world = await startWorld({ replies: [py('import random; print("same")'), py('print("better")')] });
    await world.command({ text: 'print same' });
    const root = await world.rootTs();
    await world.finished(root);
    const [rerun, improve] = finalButtons(world, root);
    expect([rerun!.text.text, improve!.text.text]).toEqual(['Re-run', 'Improve']);
    const runId = rerun!.value;

    const click = (b: NonNullable<typeof rerun>, user = 'U_ALICE') =>
      world!.interact(blockActionsPayload({ actionId: b.action_id, value: b.value, user, channel: 'C_MAIN', messageTs: b.messageTs, threadTs: root }));
    expect((await click(rerun!)).status).toBe(200);
    await world.finished(root, 2);
    expect(world.llm.requests).toHaveLength(1); // the same code, run again
    // attempt numbers continue across the turns of a run: the re-run is the run's attempt 2
    expect(allText(world.threadPosts(root))).toMatch(/\*Result of attempt 1\*[\s\S]*\*Result of attempt 2\*/);

    expect((await click(improve!)).status).toBe(200);
    const opened = await world.slack.waitFor(() => world!.slack.callsOf('views.open')[0]);
    const view = (typeof opened.args.view === 'string' ? JSON.parse(opened.args.view) : opened.args.view) as {
      callback_id: string;
      private_metadata: string;
      blocks: Array<{ block_id: string; element: { action_id: string } }>;
    };
    expect(opened.args.trigger_id).toBeTruthy();
    const input = view.blocks[0]!;
    const submitted = await world.interact(
      viewSubmissionPayload({ callback_id: view.callback_id, private_metadata: view.private_metadata, values: { [input.block_id]: { [input.element.action_id]: 'print better <@U999>' } } }, 'U_BOB'),
    );
    expect(submitted.status).toBe(200);
    await world.finished(root, 3);
    expect(JSON.stringify(world.llm.requests[1]?.messages)).toContain('print better @U999');
    expect(allText(world.threadPosts(root))).toContain('better');
    const last = world.slack.callsOf('chat.update').filter((c) => c.args.ts === root).at(-1);
    expect(String(last?.args.text)).toContain('Success · 3 attempts');
    expect(finalButtons(world, root)[0]!.value).toBe(runId);
  });

  it('refuses a click from a user outside the allowlist, with no run', async () => {
    world = await startWorld({ replies: [py('print(1)')], slack: { allowed_users: ['U_ALICE'] } });
    await world.command({ text: 'print 1' });
    const root = await world.rootTs();
    await world.finished(root);
    const [rerun] = finalButtons(world, root);
    await world.interact(blockActionsPayload({ actionId: rerun!.action_id, value: rerun!.value, user: 'U_MALLORY', channel: 'C_MAIN', messageTs: rerun!.messageTs, threadTs: root }));
    const eph = await world.slack.waitFor(() => world!.slack.callsOf('chat.postEphemeral')[0]);
    expect(eph.args.user).toBe('U_MALLORY');
    expect(String(eph.args.text)).toContain('not on the list');
    await new Promise((r) => setTimeout(r, 300));
    expect(world.threadPosts(root).filter((c) => /Reply in this thread to|❌ \*Failed\*/.test(String(c.args.text)))).toHaveLength(1);
  });
});

describe('a run started with files', () => {
  it('a message that mentions the app, with a file attached, runs on that file; a direct message to the app does too', async () => {
    world = await startWorld({ replies: [py('print(open("data.csv").read().upper())'), py('print(sum(int(x) for x in open("nums.txt").read().split()))')] });
    const file = world.slack.hostFile('data.csv', Buffer.from('a,b\n1,2\n'));
    const mention = { type: 'app_mention', user: 'U_ALICE', channel: 'C_MAIN', text: '<@UBOT> print data.csv in capitals', ts: '1700000100.000001', files: [file] };
    expect((await world.event(mention, 'Ev_MENTION')).status).toBe(200);
    const root = await world.rootTs();
    await world.finished(root);
    expect(allText(world.threadPosts(root))).toContain('A,B\n1,2');
    const first = JSON.stringify(world.llm.requests[0]?.messages);
    expect(first).toContain('print data.csv in capitals');
    expect(first).not.toContain('<@UBOT>');
    expect(first).toContain('data.csv');

    const nums = world.slack.hostFile('nums.txt', Buffer.from('1 2 3 4\n'));
    const dm = { type: 'message', channel_type: 'im', subtype: 'file_share', user: 'U_ALICE', channel: 'D_ALICE', text: 'sum the numbers in nums.txt', ts: '1700000200.000001', files: [nums] };
    await world.event(dm, 'Ev_DM');
    const dmRoot = await world.rootTs('D_ALICE');
    await world.finished(dmRoot);
    expect(allText(world.threadPosts(dmRoot))).toContain('10');
    // the same mention delivered again runs once
    await world.event(mention, 'Ev_MENTION');
    await new Promise((r) => setTimeout(r, 300));
    expect(world.llm.requests).toHaveLength(2);
  });
});
