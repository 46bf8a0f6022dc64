/**
 * `code-agent doctor`'s Slack line: when `slack.bot_token` is set, whose the token is (`auth.test`)
 * and which of Slack's agent surface the workspace offers the app, as the app itself detects it
 * (adapters/slack/surface.ts): each part is probed with a call that changes nothing — the status
 * (`assistant.threads.setStatus` clearing the status of a thread that does not exist) and streams
 * (`chat.stopStream` of a message that does not exist). A refusal (`not_allowed`, `missing_scope`,
 * `unknown_method`, …) means today's posted and edited messages; any other answer means the part is used.
 */
import { WebClient } from '@slack/web-api';
import type { Config } from '../../src/config/schema.js';
import { isRefusal } from '../../adapters/slack/surface.js';
import { slackError } from '../../adapters/slack/poster.js';

/** What the check found; `ok` false: Slack did not answer or refused the token. */
export interface SlackReport {
  ok: boolean;
  detail: string;
  /** Per part of the agent surface: what the app uses. */
  surface?: { status: string; stream: string };
}

/** A channel and a message that exist nowhere: the probes change nothing. */
const NOWHERE = { channel: 'C0000000000', ts: '0000000000.000000' };

/** Probes the token and the agent surface. @returns undefined when no bot token is configured. Never throws. */
export async function slackReport(config: Config): Promise<SlackReport | undefined> {
  const token = config.slack?.bot_token;
  if (!token) return undefined;
  const client = new WebClient(token, { ...(config.slack?.api_url ? { slackApiUrl: config.slack.api_url } : {}), retryConfig: { retries: 0 }, timeout: 10_000 });
  try {
    const auth = await client.auth.test();
    const used = async (probe: () => Promise<unknown>, yes: string): Promise<string> => {
      try {
        await probe();
        return yes;
      } catch (err) {
        return isRefusal(err) ? `today's messages (Slack answered ${slackError(err)})` : yes;
      }
    };
    const status = await used(() => client.assistant.threads.setStatus({ channel_id: NOWHERE.channel, thread_ts: NOWHERE.ts, status: '' }), 'the thread status');
    const stream = await used(() => client.chat.stopStream({ channel: NOWHERE.channel, ts: NOWHERE.ts }), 'streamed messages');
    return { ok: true, detail: `the token is ${String(auth.user)}'s in ${String(auth.team)} (${String(auth.team_id)})`, surface: { status, stream } };
  } catch (err) {
    return { ok: false, detail: `auth.test failed: ${slackError(err) ?? (err as Error).message}` };
  }
}

/** The report as lines of the doctor's text. */
export function formatSlack(report: SlackReport | undefined): string {
  if (!report) return '';
  const surface = report.surface ? `slack agent surface: progress as ${report.surface.status}; code as ${report.surface.stream}\n` : '';
  return `slack: ${report.ok ? 'ok' : 'FAILED'}  ${report.detail}\n${surface}`;
}
