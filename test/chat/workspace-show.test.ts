/**
 * Seeing and removing a run's workspace files in chat (`/show`), on Slack and Discord: the listing,
 * the access rules (removing a file is refused to whoever may not run code, and the file stays),
 * a name that is not there, a run still at work, and names that try to ping or format (Slack) or open a code block (Discord).
 * Deleting a whole run (`/show <id> remove`; Discord's `delete_run` option): refused to whoever may
 * not use the channel (the run stays), else its record, files, outputs and thread link are gone, said and counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { py, startWorld as startSlackWorld, TEAM, type World as SlackWorld } from '../slack/harness.js';
import { conversationId as slackConversation } from '../../adapters/slack/incoming.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { safeSegment } from '../../src/history/ids.js';
import { startWorld as startDiscordWorld, type World as DiscordWorld } from '../discord/harness.js';
import { conversationId } from '../../adapters/discord/incoming.js';
import { workspaceLine } from '../../src/chat/workspace-view.js';

let slack: SlackWorld | undefined;
let discord: DiscordWorld | undefined;
afterEach(async () => {
  await slack?.close();
  await discord?.close();
  slack = discord = undefined;
});

describe('Slack /show and the workspace', () => {
  const show = async (text: string, user = 'U_ALICE') => JSON.stringify((await slack!.command({ command: '/show', text, user_id: user })).body);

  it('lists the files with size and origin; remove is refused outside the allowlist (the file stays); an unknown name is said, escaped', async () => {
    slack = await startSlackWorld({ replies: [py('open("out.csv", "w").write("a\\n1\\n")\nprint("ok")')], slack: { allowed_users: ['U_ALICE'] } });
    await slack.command({ text: 'write out.csv' });
    const root = await slack.rootTs();
    const [final] = await slack.finished(root);
    expect(JSON.stringify(final!.args)).toMatch(/Workspace: out\.csv \(1 file, 4 B\)/);
    expect(await show(root)).toMatch(/out\.csv \(4 B, written by attempt 1\)/);

    expect(await show(`${root} remove out.csv`, 'U_MALLORY')).toContain('not on the list');
    expect(await show(root)).toContain('out.csv (4 B');

    const unknown = await show(`${root} remove <!channel>*x*.csv`);
    expect(unknown).toContain('no file named @channel*x*.csv'); // Slack's <!channel> read as the words it shows, never a ping
    expect(unknown).not.toContain('<!channel>');
    expect(unknown).toContain('it has: out.csv');
    expect(await show('remove')).toContain('Say which run to delete');

    expect(await show(`${root} remove out.csv`)).toContain('Removed out.csv from the workspace');
    expect(await show(root)).toContain('Workspace: empty');
    expect(await show(`${root} remove out.csv`)).toContain('it is empty');
  });

  it('deletes a run with /show <id> remove: refused to someone not on the list (the run stays), then its record, files, outputs and thread link are gone', async () => {
    slack = await startSlackWorld({ replies: [py('open("out.csv", "w").write("a\\n1\\n")\nprint("ok")')], slack: { allowed_users: ['U_ALICE'] } });
    await slack.command({ text: 'write out.csv' });
    const root = await slack.rootTs();
    await slack.finished(root);
    const conv = slackConversation(TEAM, 'C_MAIN');
    const store = await KeyvHistoryStore.open(slack.config.store.url);
    try {
      const run = (await store.findRunByThread(conv, root))!;
      const outputs = join(slack.config.store.data_dir, 'artifacts', safeSegment(conv), run.id);
      expect(existsSync(outputs)).toBe(true);

      expect(await show(`${run.id} remove`, 'U_MALLORY')).toContain('not on the list');
      expect((await store.getRun(conv, run.id))?.id).toBe(run.id);
      expect((await store.getWorkspace(conv, run.id)).files.map((f) => f.name)).toEqual(['out.csv']);

      const answer = await show(`${root} remove`);
      expect(answer).toContain(`Deleted run ${run.id}: its record (1 attempt with their code and output), its workspace (1 file, 4 B)`);
      expect(answer).toContain('1 thread link');
      expect(answer).toContain("every worker's workspace cache");
      expect(await store.getRun(conv, run.id)).toBeUndefined();
      expect(await store.findRunByThread(conv, root)).toBeUndefined();
      expect((await store.getWorkspace(conv, run.id)).files).toEqual([]);
      expect(existsSync(outputs)).toBe(false);
      expect(await show(`${run.id} remove`)).toContain(`No run ${run.id} in this channel's history`);
    } finally {
      await store.close();
    }
  });

  it('a run still at work keeps its files: removing says to wait, and nothing is removed', async () => {
    slack = await startSlackWorld({ replies: [py('import time\nopen("a.txt", "w").write("a")\ntime.sleep(2)\nprint("ok")')] });
    await slack.command({ text: 'slow' });
    const root = await slack.rootTs();
    await slack.slack.waitFor(() => slack!.threadPosts(root).length > 1, 20_000, 'the run at work');
    expect(await show(`${root} remove a.txt`)).toContain('still at work');
    await slack.finished(root);
    expect(await show(root)).toContain('a.txt (1 B, written by attempt 1)');
  });
});

describe('Discord /show and the workspace', () => {
  const answer = async (options: Record<string, string>, user: 'alice' | 'bob' = 'alice') => {
    const i = discord!.discord.slash('show', options, discord!.from(discord![user]));
    await discord!.discord.waitFor(() => i.originalMessageId && discord!.discord.world.messages.get(i.originalMessageId)?.content, 20_000, 'the /show answer');
    return discord!.discord.world.messages.get(i.originalMessageId!)!.content;
  };

  it('remove (the option) is refused to a user without an allowed role, and the file stays', async () => {
    discord = await startDiscordWorld({ replies: [py('print(open("in.txt").read())')], discord: { allowed_roles: ['000'] } });
    const conv = conversationId(discord.discord.world.guildId, discord.general.id);
    const run = await discord.app.agent.run(conv, 'print in.txt', { inputFiles: [{ name: 'in.txt', content: Buffer.from('hello\n') }] });
    expect(run.status).toBe('success');
    expect(await answer({ run: run.id, remove: 'in.txt' })).toContain('not on the list of people who may use this bot');
    expect((await discord.app.agent.workspace(run)).files.map((f) => f.name)).toEqual(['in.txt']);
  });

  it('delete_run is refused to a user without an allowed role (the run stays), then deletes the run and counts it', async () => {
    discord = await startDiscordWorld({ replies: [py('print(open("in.txt").read())')], discord: ({ coderRole }) => ({ allowed_roles: [coderRole] }) });
    const conv = conversationId(discord.discord.world.guildId, discord.general.id);
    const run = await discord.app.agent.run(conv, 'print in.txt', { inputFiles: [{ name: 'in.txt', content: Buffer.from('hello\n') }] });
    expect(await answer({ run: run.id, delete_run: true }, 'bob')).toContain('not on the list of people who may use this bot');
    expect((await discord.app.store.getRun(conv, run.id))?.id).toBe(run.id);
    expect(await answer({ run: run.id, delete_run: true })).toContain(`Deleted run ${run.id}`);
    expect(await discord.app.store.getRun(conv, run.id)).toBeUndefined();
    expect((await discord.app.agent.workspace(run)).files).toEqual([]);
    expect(await discord.app.metrics!.registry.getSingleMetricAsString('code_agent_runs_deleted_total')).toContain('code_agent_runs_deleted_total{platform="discord"} 1');
  });

  it('lists the files, removes one; a name that is not there is said, its fences neutralised', async () => {
    discord = await startDiscordWorld({ replies: [py('print(1)')] });
    const conv = conversationId(discord.discord.world.guildId, discord.general.id);
    const run = await discord.app.agent.run(conv, 'print 1', { inputFiles: [{ name: 'in.txt', content: Buffer.from('x') }] });
    expect(await answer({ run: run.id })).toMatch(/in\.txt \(1 B, given\)/);
    const unknown = await answer({ run: run.id, remove: '```@everyone.csv' });
    expect(unknown).toContain('no file named');
    expect(unknown).not.toContain('```');
    expect(await answer({ run: run.id, remove: 'in.txt' })).toContain('Removed in.txt');
    expect((await discord.app.agent.workspace(run)).files).toEqual([]);
    expect(await answer({ run: run.id })).toContain('Workspace: empty');
  });
});

describe('the end message line', () => {
  it('names at most 8 files and counts the rest; says nothing for an empty workspace', () => {
    const origin = { kind: 'input' as const, turn: 1, at: '2026-01-01T00:00:00Z' };
    const files = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.csv`, hash: 'h', bytes: 1024, origin }));
    expect(workspaceLine({ files })).toBe("📁 Workspace: f0.csv, f1.csv, f2.csv, f3.csv, f4.csv, f5.csv, f6.csv, f7.csv and 2 more (10 files, 10.0 KB), in every later turn's work dir");
    expect(workspaceLine({ files: [] })).toBeUndefined();
  });
});
