/**
 * The chat contract's Matrix driver (chat-driver.ts's ChatDriver, listed in drivers.ts), on a real Synapse
 * (test/matrix/harness.ts): a run is `!run …` in the room (with a file: the file, then a message
 * mentioning the bot), a reply is a message in the run's thread (with a file: a captioned file), Re-run
 * is a 🔁 reaction on the final message, Improve is a reply (Matrix has no modal); `!history` and
 * `!show` are answered as replies. "Delivered twice": embedded, the sync's event is handled again;
 * in queue mode a second ingress syncs the same account, so every event reaches two processes.
 * The settle scenarios' driver (settle-driver.ts) picks a choice as a person does on Matrix: a reaction
 * (`m.annotation`) on the run's final message; only alice may use the bot there, bob is the outsider.
 */
import { MatrixClient, MemoryStorageProvider } from 'matrix-bot-sdk';
import { RUN_KEY } from '../../adapters/matrix/markup.js';
import { matrixChoices, matrixClick } from './choice-clicks.js';
import { startMatrixWorld, type MatrixWorld, type Person } from '../matrix/harness.js';
import { AGENT, queueWorkers, type ChatDriver, type GivenFile } from './chat-driver.js';
import { SALES, type SettleDriver } from './settle-driver.js';
import { watchEphemeral } from '../helpers/matrix-ephemeral.js';

/** A driver over a started world. */
function matrixDriver(w: MatrixWorld): ChatDriver {
  const people = { 1: w.alice, 2: w.bob } as const;
  const t = w.alice.timeline;
  const finals = (root: string) => t.inThread(root).filter((e) => typeof e.content[RUN_KEY] === 'string');
  const runIdOf = (root: string) => String(finals(root).at(-1)?.content[RUN_KEY] ?? '');
  // alice's view of typing and receipts (the bot's signs of work)
  const ephemeral = watchEphemeral(w.hs.url, w.alice.user.accessToken, w.roomId);
  /** Sends as a person; `twice`: the event is handled again (see the module comment). */
  const send = async (p: Person, content: Record<string, unknown>, twice?: boolean) => {
    const id = await p.client.sendMessage(w.roomId, content);
    if (twice && w.bot) {
      const event = await t.waitFor(() => t.events.find((e) => e.event_id === id), 10_000, 'the event');
      setTimeout(() => w.bot!.client.emit('room.event', w.roomId, { ...event, origin_server_ts: Date.now() }), 100);
    }
    return id;
  };
  const upload = async (p: Person, f: GivenFile) => ({ url: await p.client.uploadContent(f.data, 'application/octet-stream', f.name), info: { size: f.data.length } });
  const inThread = (root: string) => ({ 'm.relates_to': { rel_type: 'm.thread', event_id: root, is_falling_back: true, 'm.in_reply_to': { event_id: root } } });
  const offers = (root: string) => t.inThread(root).filter((e) => String(e.content.body).includes('Remember for this channel?'));
  const ask = async (text: string, p: Person = w.alice) => {
    const id = await send(p, { msgtype: 'm.text', body: text });
    const [answer] = await t.waitFor(() => (t.answersTo(id).length ? t.answersTo(id) : undefined), 30_000, `the answer to ${text}`);
    return String(answer!.content.body);
  };
  let eve: Person | undefined;
  /** Someone the access lists leave out, in the room (registered at first use). */
  const outsider = async (): Promise<Person> => {
    if (eve) return eve;
    const user = await w.hs.registerUser('eve');
    const client = new MatrixClient(w.hs.url, user.accessToken, new MemoryStorageProvider());
    await client.joinRoom(w.roomId);
    eve = { user, client, timeline: t };
    return eve;
  };
  return {
    llm: w.llm,
    async run(requirement, o = {}) {
      const p = people[o.user ?? 1];
      if (o.file) await send(p, { msgtype: 'm.file', body: o.file.name, ...(await upload(p, o.file)) });
      const content = o.file ? { msgtype: 'm.text', body: `codebot: ${requirement}`, 'm.mentions': { user_ids: [w.botUser.userId] } } : { msgtype: 'm.text', body: `!run ${requirement}` };
      const root = await send(p, content, o.twice);
      return {
        answer: async () => String((await t.waitFor(() => t.answersTo(root)[0], 30_000, 'the answer')).content.body),
        thread: async () => (await t.waitFor(() => t.inThread(root).some((e) => e.sender === w.botUser.userId), 30_000, 'the thread'), root),
      };
    },
    async reply(root, text, o = {}) {
      const p = people[o.user ?? 1];
      const file = o.file ? { msgtype: 'm.file', filename: o.file.name, ...(await upload(p, o.file)) } : { msgtype: 'm.text' };
      await send(p, { ...file, body: text, ...inThread(root) }, o.twice);
    },
    async rerun(root) {
      await w.alice.client.sendEvent(w.roomId, 'm.reaction', { 'm.relates_to': { rel_type: 'm.annotation', event_id: finals(root).at(-1)!.event_id, key: '🔁' } });
    },
    improve: (root, feedback) => send(w.alice, { msgtype: 'm.text', body: feedback, ...inThread(root) }).then(() => undefined),
    async finals(root, n) {
      await t.waitFor(() => finals(root).length >= n, 60_000, `final message #${n}`);
      return finals(root).map((e) => String(e.content.body));
    },
    text: (root) => t.inThread(root).map((e) => String(e.content.body)).join('\n'),
    history: () => ask('!history'),
    show: (root) => ask(`!show ${root ? runIdOf(root) : ''}`.trim()),
    removeFile: (root, name) => ask(`!show ${runIdOf(root)} remove ${name}`),
    deleteRun: (root) => ask(`!show ${runIdOf(root)} remove`),
    remember: (text) => ask(`!remember ${text}`),
    memory: (args = '') => ask(`!memory ${args}`.trim(), w.bob),
    programs: () => ask('!programs', w.bob),
    async program(args, o = {}) {
      if (o.file) await send(w.alice, { msgtype: 'm.file', body: o.file.name, ...(await upload(w.alice, o.file)) });
      const root = await send(w.alice, { msgtype: 'm.text', body: `!program ${args}` });
      return {
        answer: async () => String((await t.waitFor(() => t.answersTo(root)[0], 30_000, 'the answer')).content.body),
        thread: async () => (await t.waitFor(() => t.inThread(root).some((e) => e.sender === w.botUser.userId), 30_000, 'the thread'), root),
      };
    },
    choices: (root) => (finals(root).at(-1) ? matrixChoices(finals(root).at(-1)!).map(([, id]) => id) : []),
    click: (root, choice) => matrixClick(w.alice.client, w.roomId, finals(root).at(-1)!, choice),
    async saveProgram(root, name) {
      await send(w.alice, { msgtype: 'm.text', body: `!program save ${name}`, ...inThread(root) });
    },
    schedules: () => ask('!schedules', w.bob),
    outsider: {
      refusal: /You are not on the list of people who may use this bot/,
      async save(root, name) {
        const p = await outsider();
        const botSaid = () => t.inThread(root).filter((e) => e.sender === w.botUser.userId);
        const before = botSaid().length;
        await send(p, { msgtype: 'm.text', body: `!program save ${name}`, ...inThread(root) });
        // Matrix has no private answers: the refusal is posted in the thread
        const said = await t.waitFor(() => botSaid()[before], 30_000, "the answer to the outsider's save");
        return String(said.content.body);
      },
      program: async (args) => ask(`!program ${args}`, await outsider()),
      schedule: async (program, when) => ask(`!schedule ${program} ${when}`, await outsider()),
    },
    offered: (root) => offers(root).length > 0,
    async pressRemember(root) {
      // Matrix has no buttons: the offer says to send !remember with its sentence (its code block)
      const sentence = /```\n([\s\S]*?)\n```/.exec(String(offers(root).at(-1)!.content.body))![1]!;
      await ask(`!remember ${sentence}`, w.bob);
    },
    told: () => t.events.filter((e) => e.sender === w.botUser.userId && e.content['m.relates_to']?.rel_type !== 'm.thread').map((e) => String(e.content.body)).join('\n'),
    ...(w.workers && w.addWorker ? queueWorkers({ dir: w.dir, workers: w.workers, addWorker: w.addWorker }) : {}),
    async signs(root) {
      const bot = w.botUser.userId;
      // the notice that typing stopped may come a moment after the final message
      const until = Date.now() + 10_000;
      while (ephemeral.typing(bot).at(-1) !== false && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      return { working: ephemeral.typing(bot).includes(true) && ephemeral.read(bot, root), stopped: ephemeral.typing(bot).at(-1) === false };
    },
    close: async () => {
      await ephemeral.stop();
      await w.close();
    },
  };
}

/** Who may use the bot: alice and bob (the driver's outsider, eve, may not). */
const access = (w: { alice: { userId: string }; bob: { userId: string } }) => ({ allowed_users: [w.alice.userId, w.bob.userId] });

/** Matrix embedded: the bot in this process. */
export const matrixEmbedded = async (): Promise<ChatDriver> => matrixDriver(await startMatrixWorld({ maxRetries: AGENT.max_retries, matrix: access }));
/** Matrix in queue mode: two ingresses syncing the bot's account, one worker. */
export const matrixQueue = async (): Promise<ChatDriver> => matrixDriver(await startMatrixWorld({ maxRetries: AGENT.max_retries, matrix: access, queue: { workers: 1, ingresses: 2 } }));

/** The settle scenarios on Matrix (see the module comment), embedded or in queue mode (one ingress, one worker). */
export async function matrixSettle(queue: boolean): Promise<SettleDriver> {
  const w = await startMatrixWorld({ maxRetries: 1, agent: { verify: 'checks' }, matrix: ({ alice }) => ({ allowed_users: [alice.userId] }), ...(queue ? { queue: { workers: 1 } } : {}) });
  const t = w.alice.timeline;
  const bot = w.botUser.userId;
  const finals = (root: string) => t.inThread(root).filter((e) => typeof e.content[RUN_KEY] === 'string');
  const offered = (root: string, n: number) => (finals(root)[n - 1] ? matrixChoices(finals(root)[n - 1]!) : []);
  return {
    llm: w.llm,
    refusal: /You are not on the list of people who may use this bot/,
    publicAnswers: true,
    async run(requirement) {
      const url = await w.alice.client.uploadContent(Buffer.from(SALES), 'text/csv', 'sales.csv');
      await w.alice.client.sendMessage(w.roomId, { msgtype: 'm.file', body: 'sales.csv', url, info: { size: SALES.length } });
      return w.alice.client.sendMessage(w.roomId, { msgtype: 'm.text', body: `codebot: ${requirement}`, 'm.mentions': { user_ids: [bot] } });
    },
    async final(root, n) {
      await t.waitFor(() => finals(root).length >= n, 90_000, `final message #${n}`);
      return { text: String(finals(root)[n - 1]!.content.body), choices: offered(root, n).map(([, id]) => id) };
    },
    async click(root, choice, user) {
      await matrixClick((user ? w.bob : w.alice).client, w.roomId, finals(root).at(-1)!, choice);
    },
    appReactions(root, n) {
      const target = finals(root)[n - 1]?.event_id;
      return t.events.filter((e) => e.type === 'm.reaction' && e.sender === bot && e.content['m.relates_to']?.event_id === target).map((e) => String(e.content['m.relates_to'].key));
    },
    text: (root) => t.inThread(root).map((e) => String(e.content.body)).join('\n'),
    told: () => t.events.filter((e) => e.sender === bot && e.type === 'm.room.message').map((e) => String(e.content.body)).join('\n'),
    close: () => w.close(),
  };
}
