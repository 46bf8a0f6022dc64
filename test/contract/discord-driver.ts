/** The chat contract's Discord driver (test/contract/drivers.ts), over a fake Discord speaking REST and the gateway. */
import type { FakeOpenAi } from '../fakes/openai-server.js';
import type { FakeDiscord, FakeUser } from '../fakes/discord-server.js';
import { startWorld as startDiscordWorld } from '../discord/harness.js';
import { startDiscordQueueWorld } from '../queue/discord-harness.js';
import { discordChoiceId, discordChoices } from './choice-clicks.js';
import { TYPING_RENEW_MS } from '../../adapters/discord/typing.js';
import { AGENT, queueWorkers, type ChatDriver, type Workers } from './chat-driver.js';

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
  const outsider = discord.world.addMember('eve', []);
  /** The messages only their requester sees (flag 64), in the order they came. */
  const ephemerals = () => [...discord.world.messages.values()].filter((m) => (Number(m.flags) & 64) !== 0);
  /** What an interaction was answered: its reply, or the deferred reply's text. */
  const answerOf = async (i: { id: string; callbacks: Array<{ type: number; data?: { content?: unknown } }> }) => {
    await discord.waitFor(() => i.callbacks.length > 0, 20_000, 'the initial response');
    const first = i.callbacks[0]!;
    return first.type === 4 ? String(first.data?.content ?? '') : deferredAnswer(i.id);
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
    deleteRun: async (thread) => deferredAnswer(discord.slash('show', { run: runIdOf(thread), delete_run: true }, from(1)).id),
    // a refused reply is answered in its thread, a refused command in its interaction's message
    told: () => [...discord.world.messages.values()].map((m) => m.content).join('\n'),
    remember: async (text) => deferredAnswer(discord.slash('remember', { definition: text }, from(1)).id),
    memory: async (args = '') => {
      const forget = /^forget\s+(\S+)$/.exec(args.trim());
      return deferredAnswer(discord.slash('memory', forget ? { forget: forget[1]! } : {}, from(2)).id);
    },
    programs: async () => deferredAnswer(discord.slash('programs', {}, from(2)).id),
    async program(args, o = {}) {
      const [name, ...rest] = args.trim().split(/\s+/);
      const i = discord.slash('program', { name: name!, ...(rest.length ? { args: rest.join(' ') } : {}) }, from(1), o.file ? { file: o.file } : {});
      return {
        answer: () => deferredAnswer(i.id),
        thread: () => discord.waitFor(() => i.originalMessageId && discord.world.channels.has(i.originalMessageId) && i.originalMessageId, 30_000, 'the thread'),
      };
    },
    choices: (thread) => (finalMessages(thread).at(-1) ? discordChoices(finalMessages(thread).at(-1)!).map((b) => b.choice) : []),
    async click(thread, choice) {
      const final = finalMessages(thread).at(-1)!;
      discord.click(final, discordChoiceId(final, choice), from(1, thread));
    },
    async saveProgram(thread, name) {
      const final = finalMessages(thread).at(-1)!;
      const i = discord.click(final, discordChoiceId(final, 'program:save'), from(1, thread));
      await discord.waitFor(() => i.callbacks.length > 0 || i.originalMessageId, 20_000, 'the answer to Save as team program');
      discord.say(`save program ${name}`, from(1, thread));
    },
    schedules: async () => deferredAnswer(discord.slash('schedules', {}, from(2)).id),
    outsider: {
      refusal: /You are not on the list of people who may use this bot/,
      async save(thread, name) {
        const final = finalMessages(thread).at(-1)!;
        const told = ephemerals().length;
        discord.click(final, discordChoiceId(final, 'program:save'), { user: outsider, channelId: thread });
        const clicked = (await discord.waitFor(() => (ephemerals().length > told ? ephemerals().slice(told) : undefined), 20_000, "the answer to the outsider's click")).map((m) => m.content).join('\n');
        const before = discord.messagesIn(thread).length;
        discord.say(`save program ${name}`, { user: outsider, channelId: thread });
        // a refused reply is answered in its thread
        const [said] = await discord.waitFor(() => (discord.messagesIn(thread).length > before + 1 ? discord.messagesIn(thread).slice(before + 1) : undefined), 20_000, "the answer to the outsider's reply");
        return `${clicked}\n${said!.content}`;
      },
      program: (args) => {
        const [name, ...rest] = args.trim().split(/\s+/);
        return answerOf(discord.slash('program', { name: name!, ...(rest.length ? { args: rest.join(' ') } : {}) }, { user: outsider, channelId: channel }));
      },
      schedule: (program, when) => answerOf(discord.slash('schedule', { program, when }, { user: outsider, channelId: channel })),
    },
    offered: (thread) => offers(thread).length > 0,
    async pressRemember(thread) {
      const offer = offers(thread).at(-1)!;
      const button = (offer.components[0] as { components: Array<{ custom_id: string }> }).components[0]!;
      await discord.click(offer, button.custom_id, from(2, thread));
    },
    async signs(thread) {
      const typing = () => discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${thread}/typing`);
      const seen = typing().length;
      // Discord shows typing until it lapses (10 s): stopped means not renewed after the run's end
      await new Promise((r) => setTimeout(r, TYPING_RENEW_MS + 1000));
      return { working: seen > 0 && typing().every((c) => c.status === 204), stopped: typing().length === seen };
    },
    ...(workers ?? {}),
    close,
  };
}


/** Who may use the bot: users 1 and 2 (the driver's outsider, eve, may not). */
const access = (w: { alice: FakeUser; bob: FakeUser }) => ({ allowed_users: [w.alice.id, w.bob.id] });

/** Discord, embedded: the bot runs its jobs on its in-memory queue. */
export async function discordEmbedded(): Promise<ChatDriver> {
  const w = await startDiscordWorld({ maxRetries: AGENT.max_retries, discord: access });
  return discordDriver(w.discord, w.llm, w.general.id, [w.alice, w.bob], () => w.close());
}

/** Discord in queue mode: a `code-agent discord` gateway ingress and `code-agent worker` processes on a real Redis. */
export async function discordQueue(): Promise<ChatDriver> {
  const w = await startDiscordQueueWorld({ replies: [], workers: 1, agent: AGENT, discord: access });
  return discordDriver(w.discord, w.llm, w.general.id, [w.alice, w.bob], () => w.close(), queueWorkers(w));
}
