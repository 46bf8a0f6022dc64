/** The chat contract's Slack driver (test/contract/drivers.ts), over a fake Slack speaking the Web API and signed requests into Bolt. */
import type { FakeOpenAi } from '../fakes/openai-server.js';
import type { FakeSlack } from '../fakes/slack-api.js';
import { sendCommand, sendEvent, sendInteraction } from '../fakes/slack-signed.js';
import { blockActionsPayload, viewSubmissionPayload } from '../fakes/slack-payloads.js';
import { startWorld as startSlackWorld, allText, threadMessages, SECRET, TEAM } from '../slack/harness.js';
import { startQueueWorld } from '../queue/harness.js';
import { slackChoicePayload, slackChoices } from './choice-clicks.js';
import { AGENT, queueWorkers, type ChatDriver, type Workers } from './chat-driver.js';

/**
 * The Slack driver over a fake Slack and an app URL (embedded or queue ingress: the same protocol).
 * The fake workspace offers the agent surface: a thread shows posts and streamed messages (the
 * final message may close a stream: its blocks carry the buttons).
 */
function slackDriver(slack: FakeSlack, llm: FakeOpenAi, appUrl: string, close: () => Promise<void>, workers?: Workers): ChatDriver {
  const users = { 1: 'U_ALICE', 2: 'U_BOB' } as const;
  const roots = () => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C_MAIN' && !c.args.thread_ts && c.result?.ok);
  const posts = (ts: string) => threadMessages(slack, ts);
  const finalPosts = (ts: string) => posts(ts).filter((c) => (c.method === 'chat.postMessage' || c.method === 'chat.stopStream') && /Reply in this thread to|❌ \*Failed\*/.test(allText([c])));
  const eph = () => slack.callsOf('chat.postEphemeral').length;
  let seq = 0;
  const offers = (ts: string) => posts(ts).filter((c) => JSON.stringify(c.args.blocks ?? '').includes('ca_remember'));
  const slackShow = (text: string) => slackQuery('/show', text);
  const slackQuery = async (command: string, text: string, user: string = users[1]): Promise<string> => {
    const responses = slack.responses.length;
    const res = await sendCommand(appUrl, SECRET, { command, text, user_id: user, channel_id: 'C_MAIN', team_id: TEAM, trigger_id: `trig-q-${++seq}`, response_url: slack.responseUrl(`q${seq}`) });
    const body = typeof res.body === 'object' && res.body ? JSON.stringify(res.body) : '';
    if (body) return body;
    // acked empty: the answer came later, via response_url
    return JSON.stringify((await slack.waitFor(() => slack.responses[responses], 30_000, 'the /show answer')).body);
  };
  const event = (e: Record<string, unknown>, twice: boolean | undefined) => {
    const eventId = `Ev_C${++seq}`;
    return (async () => {
      await sendEvent(appUrl, SECRET, e, { eventId, teamId: TEAM });
      if (twice) await sendEvent(appUrl, SECRET, e, { eventId, retryNum: 1, teamId: TEAM });
    })();
  };
  const click = async (ts: string, which: 0 | 1, user: string) => {
    const final = finalPosts(ts).at(-1)!;
    const blocks = final.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>;
    const button = blocks.find((b) => b.type === 'actions')!.elements![which]!;
    await sendInteraction(appUrl, SECRET, blockActionsPayload({ actionId: button.action_id, value: button.value, user, channel: 'C_MAIN', messageTs: String(final.result?.ts), threadTs: ts }));
  };
  return {
    llm,
    async run(requirement, o = {}) {
      const before = roots().length;
      const ephBefore = eph();
      const user = users[o.user ?? 1];
      let answer: () => Promise<string>;
      if (o.file) {
        const file = slack.hostFile(o.file.name, o.file.data);
        await event({ type: 'app_mention', user, channel: 'C_MAIN', text: `<@UBOT> ${requirement}`, ts: `${Date.now() / 1000}`, files: [file] }, o.twice);
        answer = async () => (eph() > ephBefore ? String(slack.callsOf('chat.postEphemeral').at(-1)!.args.text) : '');
      } else {
        const fields = { command: '/run', text: requirement, user_id: user, user_name: user.toLowerCase(), channel_id: 'C_MAIN', team_id: TEAM, trigger_id: `trig-${Date.now()}-${++seq}`, response_url: slack.responseUrl(`r${seq}`) };
        const res = await sendCommand(appUrl, SECRET, fields);
        if (o.twice) await sendCommand(appUrl, SECRET, fields, { 'x-slack-retry-num': '1' });
        answer = async () => (typeof res.body === 'object' && res.body ? String((res.body as { text?: string }).text ?? '') : '');
      }
      return {
        answer,
        thread: async () => {
          await slack.waitFor(() => roots().length > before, 30_000, 'the channel message');
          return String(roots()[before]!.result!.ts);
        },
      };
    },
    async reply(ts, text, o = {}) {
      const files = o.file ? [slack.hostFile(o.file.name, o.file.data)] : undefined;
      // a reply in a thread names who posted its parent (https://docs.slack.dev/reference/events/message): the app
      await event({ type: 'message', channel: 'C_MAIN', channel_type: 'channel', user: users[o.user ?? 1], text, ts: `${Date.now() / 1000}`, thread_ts: ts, parent_user_id: 'UBOT', ...(files ? { subtype: 'file_share', files } : {}) }, o.twice);
    },
    rerun: (ts) => click(ts, 0, users[1]),
    async improve(ts, feedback) {
      const opened = slack.callsOf('views.open').length;
      await click(ts, 1, users[1]);
      const call = await slack.waitFor(() => slack.callsOf('views.open')[opened], 20_000, 'the Improve modal');
      const view = (typeof call.args.view === 'string' ? JSON.parse(call.args.view) : call.args.view) as { callback_id: string; private_metadata: string; blocks: Array<{ block_id: string; element: { action_id: string } }> };
      const input = view.blocks[0]!;
      await sendInteraction(appUrl, SECRET, viewSubmissionPayload({ callback_id: view.callback_id, private_metadata: view.private_metadata, values: { [input.block_id]: { [input.element.action_id]: feedback } } }, users[1]));
    },
    async finals(ts, n) {
      await slack.waitFor(() => finalPosts(ts).length >= n, 60_000, `final message #${n}`);
      return finalPosts(ts).map((c) => allText([c]));
    },
    text: (ts) => allText(posts(ts)),
    async history() {
      const res = await sendCommand(appUrl, SECRET, { command: '/history', text: '', user_id: users[1], channel_id: 'C_MAIN', team_id: TEAM });
      return JSON.stringify(res.body);
    },
    show: (ts) => slackShow(ts ?? ''),
    removeFile: (ts, name) => slackShow(`${ts} remove ${name}`),
    deleteRun: (ts) => slackShow(`${ts} remove`),
    told: () => slack.callsOf('chat.postEphemeral').map((c) => String(c.args.text)).join('\n'),
    remember: (text) => slackQuery('/remember', text),
    memory: (args = '') => slackQuery('/memory', args, users[2]),
    programs: () => slackQuery('/programs', '', users[2]),
    async program(args, o = {}) {
      const before = roots().length;
      const ephBefore = eph();
      let answer: () => Promise<string>;
      if (o.file) {
        const file = slack.hostFile(o.file.name, o.file.data);
        await event({ type: 'app_mention', user: users[1], channel: 'C_MAIN', text: `<@UBOT> /program ${args}`, ts: `${Date.now() / 1000}`, files: [file] }, false);
        answer = async () => (eph() > ephBefore ? String(slack.callsOf('chat.postEphemeral').at(-1)!.args.text) : '');
      } else {
        const responses = slack.responses.length;
        const res = await sendCommand(appUrl, SECRET, { command: '/program', text: args, user_id: users[1], user_name: 'u_alice', channel_id: 'C_MAIN', team_id: TEAM, trigger_id: `trig-p-${++seq}`, response_url: slack.responseUrl(`p${seq}`) });
        const body = typeof res.body === 'object' && res.body ? JSON.stringify(res.body) : '';
        // acked empty: the answer came later, via response_url
        answer = async () => body || JSON.stringify((await slack.waitFor(() => slack.responses[responses], 30_000, 'the /program answer')).body);
      }
      return {
        answer,
        thread: async () => {
          await slack.waitFor(() => roots().length > before, 30_000, 'the channel message');
          return String(roots()[before]!.result!.ts);
        },
      };
    },
    choices: (ts) => (finalPosts(ts).at(-1) ? slackChoices(finalPosts(ts).at(-1)!).map((b) => b.choice) : []),
    async click(ts, choice) {
      await sendInteraction(appUrl, SECRET, slackChoicePayload(finalPosts(ts).at(-1)!, choice, users[1], ts));
    },
    async saveProgram(ts, name) {
      const told = eph();
      await sendInteraction(appUrl, SECRET, slackChoicePayload(finalPosts(ts).at(-1)!, 'program:save', users[1], ts));
      await slack.waitFor(() => eph() > told, 20_000, 'the answer to Save as team program');
      await event({ type: 'message', channel: 'C_MAIN', channel_type: 'channel', user: users[1], text: `save program ${name}`, ts: `${Date.now() / 1000}`, thread_ts: ts, parent_user_id: 'UBOT' }, false);
    },
    schedules: () => slackQuery('/schedules', '', users[2]),
    outsider: {
      refusal: /not on the list of people who may use this bot/,
      async save(ts, name) {
        const told = eph();
        await sendInteraction(appUrl, SECRET, slackChoicePayload(finalPosts(ts).at(-1)!, 'program:save', OUTSIDER, ts));
        await slack.waitFor(() => eph() > told, 20_000, "the answer to the outsider's click");
        await event({ type: 'message', channel: 'C_MAIN', channel_type: 'channel', user: OUTSIDER, text: `save program ${name}`, ts: `${Date.now() / 1000}`, thread_ts: ts, parent_user_id: 'UBOT' }, false);
        await slack.waitFor(() => eph() > told + 1, 20_000, "the answer to the outsider's reply");
        return slack.callsOf('chat.postEphemeral').slice(told).map((c) => `${String(c.args.user)}: ${String(c.args.text)}`).join('\n');
      },
      program: (args) => slackQuery('/program', args, OUTSIDER),
      schedule: (program, when) => slackQuery('/schedule', `${program} ${when}`, OUTSIDER),
    },
    offered: (ts) => offers(ts).length > 0,
    async pressRemember(ts) {
      const offer = offers(ts).at(-1)!;
      const blocks = offer.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>;
      const button = blocks.find((b) => b.type === 'actions')!.elements!.find((e) => e.action_id === 'ca_remember')!;
      await sendInteraction(appUrl, SECRET, blockActionsPayload({ actionId: button.action_id, value: button.value, user: users[2], channel: 'C_MAIN', messageTs: String(offer.result?.ts), threadTs: ts }));
    },
    async signs(ts) {
      const statuses = slack.callsOf('assistant.threads.setStatus').filter((c) => c.args.thread_ts === ts && c.result?.ok);
      const streams = slack.agent.streams.filter((s) => s.threadTs === ts);
      return {
        working: statuses.some((c) => String(c.args.status) !== '') && streams.length > 0,
        stopped: statuses.at(-1)?.args.status === '' && streams.every((s) => !s.open),
      };
    },
    ...(workers ?? {}),
    close,
  };
}


/** Who may use the app: users 1 and 2 ({@link OUTSIDER} may not). */
const ACCESS = { allowed_users: ['U_ALICE', 'U_BOB'] };
/** Someone the access lists leave out. */
const OUTSIDER = 'U_EVE';

/** Slack, embedded: the app runs its jobs on its in-memory queue. */
export async function slackEmbedded(): Promise<ChatDriver> {
  const w = await startSlackWorld({ maxRetries: AGENT.max_retries, slack: ACCESS, agentSurface: true });
  return slackDriver(w.slack, w.llm, w.appUrl!, () => w.close());
}

/** Slack in queue mode: a `code-agent slack` ingress and `code-agent worker` processes on a real Redis. */
export async function slackQueue(): Promise<ChatDriver> {
  const w = await startQueueWorld({ replies: [], ingresses: 1, workers: 1, agent: AGENT, slack: ACCESS, agentSurface: true });
  return slackDriver(w.slack, w.llm, w.ingress[0]!, () => w.close(), queueWorkers(w));
}
