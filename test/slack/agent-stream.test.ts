/** One attempt's Slack stream (adapters/slack/surface.ts) against the fake Slack's rules: limits after escaping, fences, the cap, a DM. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebClient } from '@slack/web-api';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { SlackStream, STREAM_CODE_MAX, STREAM_TEXT_MAX, SurfaceSupport } from '../../adapters/slack/surface.js';
import type { Upload } from '../../adapters/slack/renderer.js';

let slack: FakeSlack;
let client: WebClient;
let uploaded: Upload[];
const open = (channel = 'C1') =>
  new SlackStream(client, { channel, threadTs: '1.000001', user: 'U1', team: 'T0001' }, 1, 3, async (files) => void uploaded.push(...(files ?? [])), () => undefined);

beforeEach(async () => {
  slack = await startFakeSlack();
  client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  uploaded = [];
});
afterEach(async () => {
  await slack.close();
});

describe('SlackStream', () => {
  it('code with fence breaks split across deltas stays inside one fence', async () => {
    const stream = open();
    const code = 's = "``"\nt = "`" + "``" + "```"\nprint(s, t)';
    // deltas that cut the runs of backticks
    for (const piece of ['s = "`', '`"\nt = "`" + "`', '`" + "``', '`"\nprint(s, t)']) expect(await stream.code(piece, false)).toBe(true);
    expect(await stream.code('', true)).toBe(true);
    expect(await stream.stop({ text: '*Done*', buttons: [{ actionId: 'up', text: '👍', value: 'u', feedback: 'positive' }, { actionId: 'down', text: '👎', value: 'd', feedback: 'negative' }] })).toBe(true);
    const s = slack.agent.streams[0]!;
    expect(s.open).toBe(false);
    // exactly our two fences: the code's own runs of three backticks were broken up
    expect(s.text.split('```').length - 1).toBe(2);
    expect(s.text.replace(/\u200b/g, '')).toContain(code);
    expect(JSON.stringify(s.blocks)).toContain('feedback_buttons');
  });

  it('code longer than the cap: every call within Slack\'s limit, the rest attached', async () => {
    const stream = open();
    const line = 'x = "<!channel> ```"  # a long line of code\n';
    const code = line.repeat(Math.ceil((STREAM_CODE_MAX * 1.5) / line.length));
    for (let i = 0; i < code.length; i += 3000) expect(await stream.code(code.slice(i, i + 3000), false)).toBe(true);
    expect(await stream.code('', true)).toBe(true);
    expect(await stream.stop()).toBe(true);
    for (const c of slack.calls) expect(String(c.args.markdown_text ?? '').length).toBeLessThanOrEqual(STREAM_TEXT_MAX);
    const s = slack.agent.streams[0]!;
    expect(s.text.length).toBeLessThan(STREAM_CODE_MAX + 500);
    expect(s.text).toContain('attached as attempt-1.py');
    expect(uploaded.map((u) => [u.filename, u.content])).toEqual([['attempt-1.py', code]]);
  });

  it('a DM stream needs no recipient; a stream nothing was shown in is not started', async () => {
    const dm = open('D1');
    expect(await dm.task('attempt-1', 'Attempt 1/3: writing', 'in_progress')).toBe(true);
    expect(slack.callsOf('chat.startStream')[0]!.args.recipient_user_id).toBeUndefined();
    expect(await dm.stop()).toBe(true);
    const idle = open();
    expect(await idle.stop()).toBe(true);
    expect(await open().stop({ text: 'last' })).toBe(false); // the caller posts it
    expect(slack.callsOf('chat.startStream')).toHaveLength(1);
  });
});

describe('SurfaceSupport', () => {
  const refused = (error: string) => ({ data: { error } });
  it('remembers a workspace refusal for the team, a channel-type refusal for that channel, and ignores passing failures', () => {
    const support = new SurfaceSupport();
    expect(support.remember('stream', 'T1', 'C1', refused('internal_error'))).toBe(false);
    expect(support.refusal('stream', 'T1', 'C1')).toBeUndefined();
    expect(support.remember('stream', 'T1', 'G1', refused('method_not_supported_for_channel_type'))).toBe(true);
    expect(support.refusal('stream', 'T1', 'G1')).toBe('method_not_supported_for_channel_type');
    expect(support.refusal('stream', 'T1', 'C1')).toBeUndefined();
    expect(support.remember('status', 'T1', 'C1', refused('missing_scope'))).toBe(true);
    expect(support.refusal('status', 'T1', 'D9')).toBe('missing_scope');
    expect(support.refusal('status', 'T2', 'C1')).toBeUndefined();
    expect(support.refusal('stream', 'T1', 'C1')).toBeUndefined(); // each part is refused apart
  });
});
