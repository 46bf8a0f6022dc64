/**
 * The app's DM pane (adapters/slack/messages.ts): suggested prompts when a conversation opens and
 * when its context changes; a message in the pane's thread runs there (streamed, no channel
 * message), the thread titled from its request; a reply in that thread then improves the run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allText, py, startWorld, type World } from './harness.js';
import { DEFAULT_PROMPTS } from '../../adapters/slack/messages.js';
import { startQueueWorld, SECRET as QUEUE_SECRET, TEAM } from '../queue/harness.js';
import { sendEvent } from '../fakes/slack-signed.js';
import { KeyvHistoryStore } from '../../src/history/keyv-store.js';
import { tempDir } from '../helpers/temp-dir.js';
import { join } from 'node:path';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const pane = { channel_id: 'D_ALICE', thread_ts: '1700000000.000100' };
/** The pane's thread shows its n-th last message (no channel message to update there). */
const finals = (w: World, n: number) =>
  w.slack.waitFor(() => w.threadMessages(pane.thread_ts).filter((c) => c.method !== 'chat.update' && /Reply in this thread to|❌ \*Failed\*/.test(allText([c]))).length >= n, 40_000, `last message #${n}`);
const inPane = (text: string, ts: string) => ({ type: 'message', channel: 'D_ALICE', channel_type: 'im', user: 'U_ALICE', text, ts, thread_ts: pane.thread_ts, parent_user_id: 'UBOT' });

describe('Slack DM pane', () => {
  it('suggests prompts on start and on a context change', async () => {
    world = await startWorld({ agentSurface: true });
    await world.event({ type: 'assistant_thread_started', assistant_thread: { ...pane, user_id: 'U_ALICE', context: { channel_id: 'C_MAIN', team_id: 'T0001' } } }, 'Ev_pane1');
    const first = await world.slack.waitFor(() => world!.slack.callsOf('assistant.threads.setSuggestedPrompts')[0], 10_000, 'the prompts');
    expect(first.result?.ok).toBe(true);
    expect(first.args.prompts).toEqual(DEFAULT_PROMPTS);
    expect(world.slack.agent.thread('D_ALICE', pane.thread_ts).prompts).toHaveLength(DEFAULT_PROMPTS.length);
    await world.event({ type: 'assistant_thread_context_changed', assistant_thread: { ...pane, user_id: 'U_ALICE', context: { channel_id: 'C_OTHER', team_id: 'T0001' } } }, 'Ev_pane2');
    await world.slack.waitFor(() => world!.slack.callsOf('assistant.threads.setSuggestedPrompts').length === 2, 10_000, 'the prompts again');
  });

  it("suggests the viewed channel's team programs (their requests), and the defaults for a channel with none", async () => {
    const dir = tempDir('dm-pane-');
    const url = `sqlite://${join(dir, 'history.sqlite')}`;
    const store = await KeyvHistoryStore.open(url);
    const version = (request: string) => ({
      code: 'print(1)',
      request,
      inputs: { files: [], sources: [], hosts: [] },
      parameters: [],
      runId: 'r-src',
      approvedBy: 'U_ALICE',
      approvedByName: 'alice',
      approvedAt: new Date().toISOString(),
    });
    await store.programs!.save('slack:T0001:C_MAIN', 'weekly-revenue', version('revenue per region last week'));
    await store.programs!.save('slack:T0001:C_MAIN', 'late-orders', version('orders shipped later than promised'));
    await store.close();
    world = await startWorld({ agentSurface: true, store: { url, data_dir: join(dir, 'data') } });
    await world.event({ type: 'assistant_thread_started', assistant_thread: { ...pane, user_id: 'U_ALICE', context: { channel_id: 'C_MAIN', team_id: 'T0001' } } }, 'Ev_pane5');
    const first = await world.slack.waitFor(() => world!.slack.callsOf('assistant.threads.setSuggestedPrompts')[0], 10_000, 'the prompts');
    const messages = (first.args.prompts as { message: string }[]).map((p) => p.message);
    expect(messages.sort()).toEqual(['orders shipped later than promised', 'revenue per region last week']);
    await world.event({ type: 'assistant_thread_context_changed', assistant_thread: { ...pane, user_id: 'U_ALICE', context: { channel_id: 'C_OTHER', team_id: 'T0001' } } }, 'Ev_pane6');
    const second = await world.slack.waitFor(() => world!.slack.callsOf('assistant.threads.setSuggestedPrompts')[1], 10_000, 'the prompts again');
    expect(second.args.prompts).toEqual(DEFAULT_PROMPTS);
  });

  it('a message in the pane runs in its thread, titled from the request, streamed; a reply there improves it', async () => {
    world = await startWorld({ agentSurface: true, replies: [py('print("hello from the pane")'), py('print("improved")')] });
    await world.event(inPane('print hello from the pane', '1700000001.000200'), 'Ev_pane3');
    await finals(world, 1);
    const { slack } = world;
    expect(slack.agent.thread('D_ALICE', pane.thread_ts).title).toBe('print hello from the pane');
    // no channel message: the pane's thread is the run's
    expect(slack.callsOf('chat.postMessage').filter((c) => !c.args.thread_ts)).toHaveLength(0);
    const stream = slack.agent.streams.find((s) => s.threadTs === pane.thread_ts)!;
    expect(stream.text).toContain('print("hello from the pane")');
    expect(slack.callsOf('chat.startStream')[0]!.args.recipient_user_id).toBeUndefined(); // a DM needs none
    expect(allText(world.threadMessages(pane.thread_ts))).toContain('hello from the pane');
    await world.event(inPane('print improved instead', '1700000002.000300'), 'Ev_pane4');
    await finals(world, 2);
    expect(JSON.stringify(world.llm.requests.at(-1)!.messages)).toContain('print improved instead');
    expect(allText(world.threadMessages(pane.thread_ts))).toContain('improved');
  }, 60_000);

  it('queue mode: the ingress suggests and acknowledges; the worker runs in the pane\'s thread, streams and titles it', async () => {
    const w = await startQueueWorld({ replies: [py('print("from the worker")')], ingresses: 1, workers: 1, agentSurface: true });
    try {
      const ingress = w.ingress[0]!;
      await sendEvent(ingress, QUEUE_SECRET, { type: 'assistant_thread_started', assistant_thread: { ...pane, user_id: 'U_ALICE', context: { channel_id: 'C_MAIN', team_id: TEAM } } }, { eventId: 'Ev_q1', teamId: TEAM });
      await w.slack.waitFor(() => w.slack.agent.thread('D_ALICE', pane.thread_ts).prompts, 20_000, 'the prompts');
      const ack = await sendEvent(ingress, QUEUE_SECRET, inPane('print from the worker', '1700000003.000400'), { eventId: 'Ev_q2', teamId: TEAM });
      expect(ack.status).toBe(200);
      await w.slack.waitFor(() => w.slack.agent.streams.find((s) => s.threadTs === pane.thread_ts && !s.open && JSON.stringify(s.blocks).includes('Reply in this thread to')), 60_000, 'the closed stream');
      expect(w.slack.agent.thread('D_ALICE', pane.thread_ts).title).toBe('print from the worker');
      expect(w.slack.agent.streams.find((s) => s.threadTs === pane.thread_ts)!.text).toContain('print("from the worker")');
      expect(w.slack.agent.openStreams()).toHaveLength(0);
    } finally {
      await w.close();
    }
  }, 120_000);
});
