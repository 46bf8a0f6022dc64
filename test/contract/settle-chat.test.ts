/**
 * Settling in chat, on Slack, Discord and Matrix, each embedded and in queue mode (the fakes speak
 * the real protocols, Matrix is a real Synapse; queue mode runs real redis, ingress and worker
 * processes built from dist/): a run whose attempt and independent programs disagree ends ⚠️ with
 * its candidates, their readings and a choice each (a button; on Matrix a reaction); a click ends it
 * ✅ "confirmed by" that person with no LLM call (the fake LLM sees no new request); 👍 records an
 * approval; a click by someone the access lists leave out is refused and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOpenAi } from '../fakes/openai-server.js';
import type { FakeSlack } from '../fakes/slack-api.js';
import type { FakeDiscord, FakeMessage, FakeUser } from '../fakes/discord-server.js';
import { sendEvent, sendInteraction } from '../fakes/slack-signed.js';
import { startWorld as startSlackWorld, allText, SECRET, TEAM } from '../slack/harness.js';
import { startWorld as startDiscordWorld } from '../discord/harness.js';
import { startQueueWorld } from '../queue/harness.js';
import { startDiscordQueueWorld } from '../queue/discord-harness.js';
import { SALES, type SettleDriver } from './settle-driver.js';
import { matrixSettle } from './matrix-driver.js';
import { discordChoiceId, discordChoices, slackChoicePayload, slackChoices } from './choice-clicks.js';

const py = (code: string) => `\`\`\`python\n${code}\n\`\`\``;
const ALL = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint(df['items'].sum())";
const PAID = "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint(df[df['status'] == 'paid']['items'].sum())";
const AGENT = { max_retries: 1, verify: 'checks' };

function slackDriver(slack: FakeSlack, llm: FakeOpenAi, appUrl: string, close: () => Promise<void>): SettleDriver {
  const roots = () => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C_MAIN' && !c.args.thread_ts && c.result?.ok);
  const posts = (ts: string) => slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === ts);
  const finals = (ts: string) => posts(ts).filter((c) => /Reply in this thread to|❌ \*Failed\*/.test(String(c.args.text)));
  let seq = 0;
  return {
    llm,
    refusal: /You are not on the list of people who/,
    async run(requirement) {
      const before = roots().length;
      const file = slack.hostFile('sales.csv', Buffer.from(SALES));
      await sendEvent(appUrl, SECRET, { type: 'app_mention', user: 'U_ALICE', channel: 'C_MAIN', text: `<@UBOT> ${requirement}`, ts: `${Date.now() / 1000}`, files: [file] }, { eventId: `Ev_S${++seq}`, teamId: TEAM });
      await slack.waitFor(() => roots().length > before, 30_000, 'the channel message');
      return String(roots()[before]!.result!.ts);
    },
    async final(ts, n) {
      await slack.waitFor(() => finals(ts).length >= n, 90_000, `last message #${n}`);
      const call = finals(ts)[n - 1]!;
      return { text: allText([call]), choices: slackChoices(call).map((b) => b.choice) };
    },
    async click(ts, choice, user) {
      await sendInteraction(appUrl, SECRET, slackChoicePayload(finals(ts).at(-1)!, choice, user ? 'U_EVE' : 'U_ALICE', ts));
    },
    text: (ts) => allText(posts(ts)),
    told: () => slack.callsOf('chat.postEphemeral').map((c) => String(c.args.text)).join('\n'),
    close,
  };
}

function discordDriver(discord: FakeDiscord, llm: FakeOpenAi, channel: string, people: { alice: FakeUser; bob: FakeUser }, close: () => Promise<void>): SettleDriver {
  const { alice, bob } = people;
  const finals = (thread: string) => discord.messagesIn(thread).filter((m) => m.components.length > 0);
  /** An ephemeral message (flag 64) is seen by its requester only. */
  const ephemeral = (m: FakeMessage) => (Number(m.flags) & 64) !== 0;
  return {
    llm,
    refusal: /You are not on the list of people who may use this bot/,
    async run(requirement) {
      const i = discord.slash('run', { requirement }, { user: alice, channelId: channel }, { file: { name: 'sales.csv', data: Buffer.from(SALES) } });
      return discord.waitFor(() => i.originalMessageId && discord.world.channels.has(i.originalMessageId) && i.originalMessageId, 30_000, 'the thread');
    },
    async final(thread, n) {
      await discord.waitFor(() => finals(thread).length >= n, 90_000, `last message #${n}`);
      const m = finals(thread)[n - 1]!;
      return { text: m.content, choices: discordChoices(m).map((b) => b.choice) };
    },
    async click(thread, choice, user) {
      const m = finals(thread).at(-1)!;
      discord.click(m, discordChoiceId(m, choice), { user: user ? bob : alice, channelId: thread });
    },
    text: (thread) => discord.messagesIn(thread).filter((m) => !ephemeral(m)).map((m) => m.content).join('\n'),
    told: () => [...discord.world.messages.values()].filter(ephemeral).map((m) => m.content).join('\n'),
    close,
  };
}

/** Slack lets U_ALICE and U_BOB use the app (U_EVE is left out); Discord and Matrix let alice (bob is left out). */
const SLACK_ACCESS = { allowed_users: ['U_ALICE', 'U_BOB'] };
const discordAccess = (w: { alice: FakeUser }) => ({ allowed_users: [w.alice.id] });

const WORLDS: Record<string, () => Promise<SettleDriver>> = {
  'Slack, embedded': async () => {
    const w = await startSlackWorld({ maxRetries: AGENT.max_retries, verify: 'checks', slack: SLACK_ACCESS });
    return slackDriver(w.slack, w.llm, w.appUrl!, () => w.close());
  },
  'Discord, embedded': async () => {
    const w = await startDiscordWorld({ maxRetries: AGENT.max_retries, verify: 'checks', discord: discordAccess });
    return discordDriver(w.discord, w.llm, w.general.id, w, () => w.close());
  },
  'Slack, queue mode': async () => {
    const w = await startQueueWorld({ replies: [], ingresses: 1, workers: 1, agent: AGENT, slack: SLACK_ACCESS });
    return slackDriver(w.slack, w.llm, w.ingress[0]!, () => w.close());
  },
  'Discord, queue mode': async () => {
    const w = await startDiscordQueueWorld({ replies: [], workers: 1, agent: AGENT, discord: discordAccess });
    return discordDriver(w.discord, w.llm, w.general.id, w, () => w.close());
  },
  'Matrix, embedded': () => matrixSettle(false),
  'Matrix, queue mode': () => matrixSettle(true),
};

describe.each(Object.keys(WORLDS))('%s', (name) => {
  let chat: SettleDriver;
  let thread: string;
  beforeAll(async () => {
    chat = await WORLDS[name]!();
  }, 120_000);
  afterAll(async () => {
    await chat?.close();
  });

  it('a disagreement ends ⚠️ with the candidates, their readings and a button each, plus Neither and 👍/👎', async () => {
    // the attempt counts every row; both independent programs count the paid rows only
    chat.llm.enqueue(py(ALL), py(PAID), py(PAID));
    thread = await chat.run('how many items were sold?');
    const final = await chat.final(thread, 1);
    expect(final.text).toContain('two independent programs printed «23» where this one printed «24»');
    expect(final.text).toContain('The answers differ. Which one is right?');
    expect(final.text).toContain('[1] (leads) 2 independent programs (they agree with each other)');
    expect(final.text).toContain("read it as: columns items, status · rows where status == 'paid' · sum");
    expect(final.text).toContain('[2] attempt 1');
    // a platform with buttons also offers "Save as team program" (Matrix: `!program save <name>` in the thread)
    const save = name.startsWith('Matrix') ? [] : ['program:save'];
    expect([...final.choices].sort()).toEqual(['settle:1', 'settle:2', 'settle:neither', 'approve:up', 'approve:down', ...save].sort());
    expect(chat.llm.requests).toHaveLength(3);
  });

  if (name.startsWith('Matrix')) {
    it('the bot reacts 1️⃣ 2️⃣ ❌ and 🔁 under that message, so a person only clicks one; 👍/👎 are the client\'s own', async () => {
      await expect.poll(() => chat.appReactions!(thread, 1), { timeout: 20_000 }).toEqual(['1️⃣', '2️⃣', '❌', '🔁']);
      expect((await chat.final(thread, 1)).text).toContain('React 1️⃣ or 2️⃣ to pick the right answer (no new LLM call), ❌ if none is. React 👍 to approve the answer, 👎 if something is wrong.');
    });
  }

  it('a click by someone without access is refused and changes nothing', async () => {
    const before = chat.text(thread);
    await chat.click(thread, 'settle:2', 'outsider');
    await expect.poll(() => chat.told(), { timeout: 20_000 }).toMatch(chat.refusal);
    await new Promise((r) => setTimeout(r, 1000));
    // where a refusal cannot be private (Matrix) it is the one line added
    const after = chat.text(thread).split('\n').filter((l) => !(chat.publicAnswers && chat.refusal.test(l)));
    expect(after.join('\n')).toBe(before);
    expect(chat.llm.requests).toHaveLength(3);
  });

  it('a click ends the run ✅ confirmed by that person, with the chosen output, and no LLM call', async () => {
    await chat.click(thread, 'settle:1');
    const final = await chat.final(thread, 2);
    expect(final.text).toMatch(/confirmed by \S+ \(candidate 1\)/);
    expect([...final.choices].sort()).toEqual(['approve:up', 'approve:down', ...(name.startsWith('Matrix') ? [] : ['program:save'])].sort());
    expect(chat.text(thread)).toMatch(/Confirmed by \S+: candidate 1 is the answer/);
    if (chat.appReactions) await expect.poll(() => chat.appReactions!(thread, 2), { timeout: 20_000 }).toEqual(['🔁']);
    expect(chat.llm.requests).toHaveLength(3); // no new request reached the LLM
  });

  it('👍 records the approval in the thread, with no LLM call', async () => {
    await chat.click(thread, 'approve:up');
    await expect.poll(() => chat.text(thread), { timeout: 30_000 }).toMatch(/👍 Approved by \S+\./);
    expect(chat.llm.requests).toHaveLength(3);
  });
});
