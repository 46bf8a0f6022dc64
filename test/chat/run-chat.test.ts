/**
 * Where a run lives in chat, typed (`Run.chat`), and runs stored before it existed (their place in
 * untyped `meta` strings) still render: Slack's /history links their thread and names who asked,
 * Discord's /history links their thread, and both read the same place from either form.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import type { Run } from '../../src/history/types.js';
import { chatOf, newRunChat } from '../../src/chat/run-chat.js';
import { tickRequest } from '../../src/schedules/tick-post.js';
import type { Schedule } from '../../src/history/programs.js';
import { slackAnswers } from '../../adapters/slack/requesters.js';
import type { CommandNames } from '../../src/chat/incoming-port.js';
import { rootMessage } from '../../adapters/slack/renderer.js';
import { runRootSpec } from '../../src/chat/view/root-view.js';
import { discordAnswers } from '../../adapters/discord/answers.js';

const run = (id: string, over: Partial<Run>): Run => ({
  id,
  conversationId: 'slack:T1:C1',
  requirement: `requirement of ${id}`,
  requestedBy: 'U1',
  status: 'success',
  attempts: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** As a Slack run was stored before `chat` existed. */
const oldSlack = run('old-slack', { meta: { channel: 'C1', kind: 'generate', userName: 'alice', threadTs: '1700000000.000100' } });
/** As the same run is stored now. */
const newSlack = run('new-slack', { chat: { thread: { channel: 'C1', thread: '1700000000.000200' }, kind: 'run', userName: 'bob' } });

const NAMES: CommandNames = { run: '/run', generate: '/generate', history: '/history', show: '/show', remember: '/remember', memory: '/memory', schedule: '/schedule', schedules: '/schedules', unschedule: '/unschedule', programs: '/programs', program: '/program' };

describe('a run\'s place in chat', () => {
  it('is read the same from the typed field and from an old row\'s meta strings', () => {
    expect(chatOf(oldSlack)).toEqual({ thread: { channel: 'C1', thread: '1700000000.000100' }, kind: 'generate', userName: 'alice' });
    expect(chatOf(newSlack)).toBe(newSlack.chat);
    const oldDiscord = run('d1', { meta: { kind: 'run', guildId: 'G1', channelId: 'C9', threadId: 'TH1', headerChannelId: 'C9', headerMessageId: 'M1' } });
    expect(chatOf(oldDiscord)).toEqual({ thread: { channel: 'TH1' }, kind: 'run', header: { channel: 'C9', message: 'M1' } });
    const inPlace = run('d2', { meta: { kind: 'generate', channelId: 'C9', headerChannelId: 'C9', headerMessageId: 'M2' } });
    expect(chatOf(inPlace)).toEqual({ thread: { channel: 'C9' }, inPlace: true, kind: 'generate', header: { channel: 'C9', message: 'M2' } });
    expect(chatOf(run('cli', {}))).toBeUndefined();
  });

  it('Slack: an old row still renders in /history (its thread linked, who asked named) beside a new one', async () => {
    const store = await KeyvHistoryStore.open(`sqlite://${join(mkdtempSync(join(tmpdir(), 'run-chat-')), 'h.sqlite')}`);
    try {
      await store.saveRun(oldSlack);
      await store.saveRun(newSlack);
      const text = slackAnswers.history({ runs: await store.listRuns('slack:T1:C1', 10) }, NAMES);
      expect(text).toContain('<https://slack.com/archives/C1/p1700000000000100|thread>');
      expect(text).toContain('<https://slack.com/archives/C1/p1700000000000200|thread>');
      expect(text).toContain('*alice*');
      expect(text).toContain('*bob*');
      // the channel message of an old run keeps its words (who asked, and "asked for code" for generate)
      expect(rootMessage(runRootSpec((await store.getRun('slack:T1:C1', 'old-slack'))!, { state: 'working' })).sections[0]).toMatch(/^\*alice\* asked for code: requirement of old-slack/);
    } finally {
      await store.close();
    }
  });

  it('Discord: an old row\'s thread is linked in /history; a run answered in place is not', () => {
    const oldThread = run('d1', { meta: { kind: 'run', channelId: 'C9', threadId: 'TH1' } });
    const oldInPlace = run('d2', { meta: { kind: 'run', channelId: 'C9' } });
    const typed = run('d3', { chat: { thread: { channel: 'TH3' }, kind: 'run' } });
    const { content } = discordAnswers.history({ runs: [oldThread, oldInPlace, typed].map((r) => ({ ...r, conversationId: 'discord:G1:C9' })) }, NAMES);
    const lines = content.split('\n');
    expect(lines.find((l) => l.includes('`d1`'))).toContain('[thread](<https://discord.com/channels/G1/TH1>)');
    expect(lines.find((l) => l.includes('`d2`'))).not.toContain('thread');
    expect(lines.find((l) => l.includes('`d3`'))).toContain('[thread](<https://discord.com/channels/G1/TH3>)');
  });

  it("a schedule's tick lives in chat as `scheduled`: its root says who scheduled it, before and after its run", () => {
    const schedule = { id: 's4', conversationId: 'slack:T:C1', platform: 'slack', channel: 'C1', program: 'daily', params: {}, when: 'every day at 9', cron: '0 9 * * *', timezone: 'UTC', resultGate: { kind: 'always' }, workGate: true, createdBy: 'U1', createdByName: 'alice', createdAt: '2026-01-01T00:00:00Z', state: { failures: 0 } } as Schedule;
    const request = tickRequest(schedule, Date.parse('2026-01-02T09:00:00Z'));
    const chat = newRunChat(request, '17.1');
    expect(chat).toEqual({ thread: { channel: 'C1', thread: '17.1' }, kind: 'scheduled', userName: 'alice' });
    const run = { requirement: request.text, requestedBy: 'U1', chat } as Run;
    expect(runRootSpec(run, { state: 'working' }).kind).toBe('scheduled');
    expect(rootMessage(runRootSpec(run, { state: 'working' })).plain).toBe('alice scheduled: ⏰ s4: team program `daily`, every day at 9 (UTC)');
    // a run stored before `scheduled` existed still reads as a run
    expect(runRootSpec({ ...run, chat: { ...chat, kind: 'run' } }, { state: 'working' }).kind).toBe('run');
  });
});
