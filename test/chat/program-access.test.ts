/**
 * Team programs and the platform's access lists, on Slack (the same entry serves every platform):
 * someone who may not use the channel cannot save a run (by the button or a reply), list, run or
 * remove a program; each refusal is said to them privately, costs no LLM call and changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from '../slack/harness.js';
import { blockActionsPayload } from '../fakes/slack-payloads.js';

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe('team programs and access', () => {
  it('only people who may use the channel save, list, run and remove team programs', async () => {
    w = await startWorld({ replies: [py('DAYS = 7\nprint(f"days={DAYS}")')], slack: { allowed_users: ['U_ALICE'] } });
    const world = w;
    const say = async (command: string, text: string, user: string) => JSON.stringify((await world.command({ command, text, user_id: user })).body);
    const told = () => world.slack.callsOf('chat.postEphemeral').map((c) => String(c.args.text)).join('\n');
    await world.command({ text: 'print the days' });
    const root = await world.rootTs();
    const [final] = await world.finished(root);
    expect(allText(world.threadPosts(root))).toContain('days=7');
    const asked = world.llm.requests.length;

    // Mallory: the Save button and a save reply are refused privately; nothing is saved
    const blocks = final!.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>;
    const save = blocks.find((b) => b.type === 'actions')!.elements!.find((e) => e.action_id === 'ca_choice:program:save')!;
    const refusals = () => told().split('not on the list').length - 1;
    await world.interact(blockActionsPayload({ actionId: save.action_id, value: save.value, user: 'U_MALLORY', channel: 'C_MAIN', messageTs: String(final!.result?.ts), threadTs: root }));
    await world.slack.waitFor(() => refusals() >= 1, 20_000, 'the refused click');
    await world.reply(root, 'save program sneaky', { user: 'U_MALLORY' });
    await world.slack.waitFor(() => refusals() >= 2, 20_000, 'the refused save');
    expect(await say('/programs', '', 'U_ALICE')).toContain('No team programs in this channel yet');

    // Alice: the button asks for the name; her reply saves it
    await world.interact(blockActionsPayload({ actionId: save.action_id, value: save.value, user: 'U_ALICE', channel: 'C_MAIN', messageTs: String(final!.result?.ts), threadTs: root }));
    await world.slack.waitFor(() => told().includes('reply in its thread with'), 20_000, 'the hint');
    await world.reply(root, 'save program kept', { user: 'U_ALICE' });
    await world.slack.waitFor(() => allText(world.threadPosts(root)).includes('Saved as team program'), 30_000, 'the saved notice');

    // Mallory may not list, run nor remove it
    expect(await say('/programs', '', 'U_MALLORY')).toContain('not on the list');
    const roots = world.slack.callsOf('chat.postMessage').filter((c) => !c.args.thread_ts).length;
    expect(await say('/program', 'kept DAYS=1', 'U_MALLORY')).toContain('not on the list');
    expect(await say('/program', 'kept remove', 'U_MALLORY')).toContain('not on the list');
    expect(await say('/program', 'kept show', 'U_MALLORY')).toContain('not on the list');
    await new Promise((r) => setTimeout(r, 500));
    expect(world.slack.callsOf('chat.postMessage').filter((c) => !c.args.thread_ts).length).toBe(roots);
    expect(await say('/programs', '', 'U_ALICE')).toMatch(/kept v1 · approved by/);
    expect(world.llm.requests.length).toBe(asked);
  });
});
