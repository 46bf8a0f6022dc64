/** `code-agent doctor`'s Slack line (adapters/cli/doctor-slack.ts) against the fake Slack: which of the agent surface the app uses. */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { formatSlack, slackReport } from '../../adapters/cli/doctor-slack.js';

let slack: FakeSlack | undefined;
afterEach(async () => {
  await slack?.close();
  slack = undefined;
});

const configFor = (s: FakeSlack, token = 'xoxb-test') => parseConfig({ llm: { provider: 'openai', api_key: 'sk', model: 'm' }, slack: { bot_token: token, signing_secret: 's', api_url: s.apiUrl } }, {});

describe('doctor: Slack', () => {
  it('says the status and streams are used where the workspace offers them, and changes nothing', async () => {
    slack = await startFakeSlack({ teamId: 'T0001' });
    const report = (await slackReport(configFor(slack)))!;
    expect(report.ok).toBe(true);
    expect(report.surface).toEqual({ status: 'the thread status', stream: 'streamed messages' });
    expect(formatSlack(report)).toMatch(/slack agent surface: progress as the thread status; code as streamed messages/);
    expect(slack.agent.streams).toHaveLength(0);
  });

  it("says today's messages, with Slack's answer, where the workspace refuses; a bad token fails", async () => {
    slack = await startFakeSlack({ teamId: 'T0001', agentSurface: false });
    const report = (await slackReport(configFor(slack)))!;
    expect(report.surface).toEqual({ status: "today's messages (Slack answered not_allowed)", stream: "today's messages (Slack answered not_allowed)" });
    const bad = (await slackReport(configFor(slack, 'xoxb-wrong')))!;
    expect(bad.ok).toBe(false);
    expect(formatSlack(bad)).toMatch(/slack: FAILED {2}auth.test failed: invalid_auth/);
  });
});
