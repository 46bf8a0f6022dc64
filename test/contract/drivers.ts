/**
 * One chat contract, four worlds: Slack and Discord (their fakes speak the real protocols), each
 * embedded (the app runs its jobs on its in-memory queue) and in queue mode (a real redis-server,
 * `code-agent` ingress and worker processes built from dist/). A {@link ChatDriver} says the same
 * things on each: start a run (a command, or a message with a file), reply in its thread, press
 * Re-run or Improve, ask for the history or a run; and reads back what the thread shows.
 */
import type { FakeOpenAi } from '../fakes/openai-server.js';
import type { FakeSlack } from '../fakes/slack-api.js';
import type { FakeDiscord, FakeUser } from '../fakes/discord-server.js';
import { sendCommand, sendEvent, sendInteraction } from '../fakes/slack-signed.js';
import { blockActionsPayload, viewSubmissionPayload } from '../fakes/slack-payloads.js';
import { startWorld as startSlackWorld, allText, SECRET, TEAM } from '../slack/harness.js';
import { startWorld as startDiscordWorld } from '../discord/harness.js';
import { startQueueWorld, type Proc } from '../queue/harness.js';
import { join } from 'node:path';
import { startDiscordQueueWorld } from '../queue/discord-harness.js';
import { stopChild } from '../helpers/servers.js';

/** A file given with a request. */
export interface GivenFile {
  name: string;
  data: Buffer;
}

/** A request that may open a thread; `answer` is what only the requester was told (may be empty). */
export interface Started {
  answer(): Promise<string>;
  thread(): Promise<string>;
}

/** What every platform and mode does, in the contract's words. */
export interface ChatDriver {
  llm: FakeOpenAi;
  /** Starts a run as user 1 or 2 (`file`: with a file; `twice`: the platform delivers it twice). */
  run(requirement: string, o?: { user?: 1 | 2; file?: GivenFile; twice?: boolean }): Promise<Started>;
  /** Replies in a run's thread (`twice`: delivered twice). */
  reply(thread: string, text: string, o?: { user?: 1 | 2; file?: GivenFile; twice?: boolean }): Promise<void>;
  rerun(thread: string): Promise<void>;
  improve(thread: string, feedback: string): Promise<void>;
  /** Waits for the n-th final message of a thread and returns the final messages so far. */
  finals(thread: string, n: number): Promise<string[]>;
  /** All the text posted in a thread. */
  text(thread: string): string;
  history(): Promise<string>;
  /** `/show` of a thread's run (default: the channel's newest run), as the requester sees it. */
  show(thread?: string): Promise<string>;
  /** Removes a file from a thread's run's workspace (`/show … remove`); returns the answer. */
  removeFile(thread: string, name: string): Promise<string>;
  /** Everything only a requester was told (ephemeral answers), so far. */
  told(): string;
  /** `/remember <text>` as user 1; returns the answer. */
  remember(text: string): Promise<string>;
  /** `/memory [args]` as user 2; returns the answer. */
  memory(args?: string): Promise<string>;
  /** Whether the thread shows the offer to remember a correction. */
  offered(thread: string): boolean;
  /** Presses the latest offer's Remember button in the thread, as user 2. */
  pressRemember(thread: string): Promise<void>;
  /** Queue mode: kills (SIGKILL) every worker and starts a new one. */
  killWorkers?(): Promise<void>;
  /**
   * Queue mode: stops every worker and starts one with a data dir of its own (as on another host;
   * the store and the queue are shared). @returns that data dir
   */
  moveWorkers?(): Promise<string>;
  /** Queue mode: starts one more worker (same data dir). */
  addWorker?(): Promise<void>;
  close(): Promise<void>;
}

const AGENT = { max_retries: 2 };

/** The Slack driver over a fake Slack and an app URL (embedded or queue ingress: the same protocol). */
function slackDriver(slack: FakeSlack, llm: FakeOpenAi, appUrl: string, close: () => Promise<void>, workers?: Workers): ChatDriver {
  const users = { 1: 'U_ALICE', 2: 'U_BOB' } as const;
  const roots = () => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C_MAIN' && !c.args.thread_ts && c.result?.ok);
  const posts = (ts: string) => slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === ts);
  const finalPosts = (ts: string) => posts(ts).filter((c) => /\*(Done|Failed)\*/.test(String(c.args.text)));
  const offers = (ts: string) => posts(ts).filter((c) => JSON.stringify(c.args.blocks ?? '').includes('ca_remember'));
  const eph = () => slack.callsOf('chat.postEphemeral').length;
  let seq = 0;
  const slackShow = (text: string) => slackQuery('/show', text);
  const slackQuery = async (command: string, text: string, user: string = users[1]) => {
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
    told: () => slack.callsOf('chat.postEphemeral').map((c) => String(c.args.text)).join('\n'),
    remember: (text) => slackQuery('/remember', text),
    offered: (ts) => offers(ts).length > 0,
    async pressRemember(ts) {
      const offer = offers(ts).at(-1)!;
      const blocks = offer.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>;
      const button = blocks.find((b) => b.type === 'actions')!.elements!.find((e) => e.action_id === 'ca_remember')!;
      await sendInteraction(appUrl, SECRET, blockActionsPayload({ actionId: button.action_id, value: button.value, user: users[2], channel: 'C_MAIN', messageTs: String(offer.result?.ts), threadTs: ts }));
    },
    memory: (args = '') => slackQuery('/memory', args, users[2]),
    ...(workers ?? {}),
    close,
  };
}

/** The Discord driver over a fake Discord (embedded bot or queue ingress: the same gateway and REST). */
function discordDriver(discord: FakeDiscord, llm: FakeOpenAi, channel: string, people: [FakeUser, FakeUser], close: () => Promise<void>, workers?: Workers): ChatDriver {
  const from = (u: 1 | 2 = 1, c = channel) => ({ user: people[u - 1]!, channelId: c });
  const buttonsOf = (m: { components: unknown[] }) => JSON.stringify(m.components);
  // a run's final message has its Re-run button; the offer after a correction has Remember
  const finalMessages = (thread: string) => discord.messagesIn(thread).filter((m) => buttonsOf(m).includes('"ca:rerun:'));
  const offers = (thread: string) => discord.messagesIn(thread).filter((m) => buttonsOf(m).includes('"ca:remember:'));
  const deferredAnswer = async (id: string) => {
    const record = discord.interaction(id);
    await discord.waitFor(() => record.originalMessageId, 20_000, 'the answer');
    await discord.waitFor(() => !/^$/.test(discord.world.messages.get(record.originalMessageId!)?.content ?? ''), 20_000, 'the answer text');
    return discord.world.messages.get(record.originalMessageId!)!.content;
  };
  const runIdOf = (thread: string) => /run `([^`]+)`/.exec(finalMessages(thread).at(-1)?.content ?? '')![1]!;
  const press = async (thread: string, which: 0 | 1) => {
    const final = finalMessages(thread).at(-1)!;
    const button = (final.components[0] as { components: Array<{ custom_id: string }> }).components[which]!;
    return discord.click(final, button.custom_id, from(1, thread));
  };
  return {
    llm,
    async run(requirement, o = {}) {
      const i = discord.slash('run', { requirement }, from(o.user), o.file ? { file: o.file } : {});
      if (o.twice) {
        const sent = (discord.gateway as unknown as { sent: Array<{ t: string; d: { id: string } }> }).sent;
        discord.gateway.dispatch('INTERACTION_CREATE', { ...sent.find((e) => e.t === 'INTERACTION_CREATE' && e.d.id === i.id)!.d });
      }
      return {
        answer: async () => {
          await discord.waitFor(() => i.callbacks.length > 0, 20_000, 'the initial response');
          return String(i.callbacks[0]!.data?.content ?? '');
        },
        thread: () => discord.waitFor(() => i.originalMessageId && discord.world.channels.has(i.originalMessageId) && i.originalMessageId, 30_000, 'the thread'),
      };
    },
    async reply(thread, text, o = {}) {
      const files = o.file ? { [o.file.name]: o.file.data } : {};
      discord.say(text, from(o.user, thread), files);
    },
    async rerun(thread) {
      await press(thread, 0);
    },
    async improve(thread, feedback) {
      const i = await press(thread, 1);
      await discord.waitFor(() => i.callbacks[0]?.type === 9 && i.callbacks[0], 20_000, 'the Improve modal');
      discord.submitModal(String(i.callbacks[0]!.data!.custom_id), { feedback }, from(1, thread));
    },
    async finals(thread, n) {
      await discord.waitFor(() => finalMessages(thread).length >= n, 60_000, `final message #${n}`);
      return finalMessages(thread).map((m) => m.content);
    },
    text: (thread) => discord.messagesIn(thread).map((m) => m.content).join('\n'),
    history: async () => deferredAnswer(discord.slash('history', {}, from(2)).id),
    show: async (thread) => deferredAnswer(discord.slash('show', thread ? { run: runIdOf(thread) } : {}, from(2)).id),
    removeFile: async (thread, name) => deferredAnswer(discord.slash('show', { run: runIdOf(thread), remove: name }, from(1)).id),
    // a refused reply is answered in its thread, a refused command in its interaction's message
    told: () => [...discord.world.messages.values()].map((m) => m.content).join('\n'),
    remember: async (text) => deferredAnswer(discord.slash('remember', { definition: text }, from(1)).id),
    offered: (thread) => offers(thread).length > 0,
    async pressRemember(thread) {
      const offer = offers(thread).at(-1)!;
      const button = (offer.components[0] as { components: Array<{ custom_id: string }> }).components[0]!;
      await discord.click(offer, button.custom_id, from(2, thread));
    },
    memory: async (args = '') => {
      const forget = /^forget\s+(\S+)$/.exec(args.trim());
      return deferredAnswer(discord.slash('memory', forget ? { forget: forget[1]! } : {}, from(2)).id);
    },
    ...(workers ?? {}),
    close,
  };
}

/** What a queue-mode world does with its workers. */
type Workers = Pick<ChatDriver, 'killWorkers' | 'moveWorkers' | 'addWorker'>;

/** The workers of a queue-mode world (Slack's or Discord's: both have `workers`, `addWorker` and a temp `dir`). */
function queueWorkers(w: { dir: string; workers: Proc[]; addWorker(o?: { dataDir?: string }): Promise<Proc> }): Workers {
  let hosts = 0;
  return {
    async killWorkers() {
      for (const p of w.workers.splice(0)) await stopChild(p.child, 'SIGKILL', 5000);
      await w.addWorker();
    },
    async addWorker() {
      await w.addWorker();
    },
    async moveWorkers() {
      for (const p of w.workers.splice(0)) await stopChild(p.child, 'SIGTERM', 10_000);
      const dataDir = join(w.dir, `host-${++hosts}`);
      await w.addWorker({ dataDir });
      return dataDir;
    },
  };
}

/** The four worlds, by name. */
export const WORLDS: Record<string, () => Promise<ChatDriver>> = {
  'Slack, embedded': async () => {
    const w = await startSlackWorld({ maxRetries: AGENT.max_retries });
    return slackDriver(w.slack, w.llm, w.appUrl!, () => w.close());
  },
  'Discord, embedded': async () => {
    const w = await startDiscordWorld({ maxRetries: AGENT.max_retries });
    return discordDriver(w.discord, w.llm, w.general.id, [w.alice, w.bob], () => w.close());
  },
  'Slack, queue mode': async () => {
    const w = await startQueueWorld({ replies: [], ingresses: 1, workers: 1, agent: AGENT });
    return slackDriver(w.slack, w.llm, w.ingress[0]!, () => w.close(), queueWorkers(w));
  },
  'Discord, queue mode': async () => {
    const w = await startDiscordQueueWorld({ replies: [], workers: 1, agent: AGENT });
    return discordDriver(w.discord, w.llm, w.general.id, [w.alice, w.bob], () => w.close(), queueWorkers(w));
  },
};
