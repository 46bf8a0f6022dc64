/** The fake Slack's agent surface keeps Slack's documented rules, seen through the real WebClient. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebClient } from '@slack/web-api';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';

let slack: FakeSlack;
let client: WebClient;
beforeEach(async () => {
  slack = await startFakeSlack();
  client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});
afterEach(async () => {
  await slack.close();
});

/** The Slack error code of a rejected call. */
const code = (p: Promise<unknown>) => p.then(() => 'ok', (err: { data?: { error?: string } }) => err.data?.error ?? String(err));

describe('fake Slack: streams', () => {
  it('start → append → stop builds one message; a stopped stream takes no more', async () => {
    const start = await client.chat.startStream({ channel: 'C1', thread_ts: '1.000001', recipient_user_id: 'U1', recipient_team_id: 'T0001', markdown_text: 'hello ' });
    const ts = String(start.ts);
    await client.chat.appendStream({ channel: 'C1', ts, markdown_text: 'world', chunks: [{ type: 'task_update', id: 'a1', title: 'Attempt 1', status: 'in_progress' }] });
    expect(await code(client.chat.update({ channel: 'C1', ts, text: 'x' }))).toBe('streaming_state_conflict');
    await client.chat.stopStream({ channel: 'C1', ts, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'done' } }] });
    const stream = slack.agent.stream('C1', ts)!;
    expect(stream.text).toBe('hello world');
    expect(stream.open).toBe(false);
    expect(stream.chunks).toHaveLength(1);
    expect(await code(client.chat.appendStream({ channel: 'C1', ts, markdown_text: 'late' }))).toBe('message_not_in_streaming_state');
    expect(await code(client.chat.stopStream({ channel: 'C1', ts }))).toBe('message_not_in_streaming_state');
    expect(slack.agent.openStreams()).toHaveLength(0);
  });

  it('a channel stream needs its recipient; a DM does not; a stream is a reply', async () => {
    expect(await code(client.chat.startStream({ channel: 'C1', thread_ts: '1.1', markdown_text: 'x' }))).toBe('missing_recipient_user_id');
    expect(await code(client.chat.startStream({ channel: 'C1', thread_ts: '1.1', recipient_user_id: 'U1', markdown_text: 'x' }))).toBe('missing_recipient_team_id');
    expect(await code(client.apiCall('chat.startStream', { channel: 'D1', markdown_text: 'x' }))).toBe('invalid_arguments');
    expect(await code(client.chat.startStream({ channel: 'D1', thread_ts: '1.1', markdown_text: 'x' }))).toBe('ok');
  });

  it('text and chunk limits: 12,000 characters of markdown, 256 of a task title, known statuses only', async () => {
    const base = { channel: 'D1', thread_ts: '1.1' };
    expect(await code(client.chat.startStream({ ...base, markdown_text: 'x'.repeat(12_001) }))).toBe('msg_too_long');
    expect(await code(client.chat.startStream({ ...base, chunks: [{ type: 'task_update', id: 't', title: 'x'.repeat(257), status: 'complete' }] }))).toBe('invalid_chunks');
    expect(await code(client.apiCall('chat.startStream', { ...base, chunks: [{ type: 'task_update', id: 't', title: 'ok', status: 'cancelled' }] }))).toBe('invalid_chunks');
    expect(await code(client.chat.startStream({ ...base, markdown_text: 'x'.repeat(12_000) }))).toBe('ok');
  });
});

describe('fake Slack: thread status, prompts, title', () => {
  it('keeps each thread\'s status, title and prompts, with required arguments', async () => {
    await client.assistant.threads.setStatus({ channel_id: 'D1', thread_ts: '1.1', status: 'is writing code…', loading_messages: ['a', 'b'] });
    expect(slack.agent.thread('D1', '1.1').status).toBe('is writing code…');
    await client.assistant.threads.setStatus({ channel_id: 'D1', thread_ts: '1.1', status: '' });
    expect(slack.agent.thread('D1', '1.1').status).toBe('');
    expect(await code(client.apiCall('assistant.threads.setStatus', { channel_id: 'D1', status: 'x' }))).toBe('invalid_arguments');
    expect(await code(client.assistant.threads.setStatus({ channel_id: 'D1', thread_ts: '1.1', status: 'x', loading_messages: Array(11).fill('m') }))).toBe('invalid_arguments');
    await client.assistant.threads.setTitle({ channel_id: 'D1', thread_ts: '1.1', title: 'sum a column' });
    expect(slack.agent.thread('D1', '1.1').title).toBe('sum a column');
    await client.assistant.threads.setSuggestedPrompts({ channel_id: 'D1', thread_ts: '1.1', prompts: [{ title: 'Plot', message: 'plot x' }] });
    expect(slack.agent.thread('D1', '1.1').prompts).toEqual([{ title: 'Plot', message: 'plot x' }]);
    expect(await code(client.assistant.threads.setSuggestedPrompts({ channel_id: 'D1', prompts: [] }))).toBe('invalid_arguments');
  });

  it('an older workspace refuses every method of the surface; auth.test announces the scopes', async () => {
    slack.agent.refuse();
    expect(await code(client.assistant.threads.setStatus({ channel_id: 'D1', thread_ts: '1.1', status: 'x' }))).toBe('not_allowed');
    expect(await code(client.chat.startStream({ channel: 'D1', thread_ts: '1.1', markdown_text: 'x' }))).toBe('not_allowed');
    const auth = await client.auth.test();
    expect(auth.response_metadata?.scopes).toContain('assistant:write');
  });
});
