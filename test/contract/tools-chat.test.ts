/**
 * Tools from chat, on Slack and on Discord, embedded and in queue mode (the real Bolt and discord.js against their fakes, the
 * real sandbox and tool broker): "chart this quarter's exchange rates from our internal rates API"
 * (a rates server on 127.0.0.1 listed in `tools.http`, with a credential the host side adds) and
 * "what was yesterday's signup count?" (a real PostgreSQL as `tools.sql.sources.shop`). The thread
 * shows each tool call as a 🔧 line; a channel the tools are not configured for is told of no tool
 * and its program's request is refused before reaching the server.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allText, py, SECRET, TEAM, startWorld as startSlack } from '../slack/harness.js';
import { startWorld as startDiscord } from '../discord/harness.js';
import { startQueueWorld } from '../queue/harness.js';
import { startDiscordQueueWorld } from '../queue/discord-harness.js';
import { sendCommand } from '../fakes/slack-signed.js';
import type { FakeSlack } from '../fakes/slack-api.js';
import type { FakeDiscord, FakeUser } from '../fakes/discord-server.js';
import type { FakeOpenAi } from '../fakes/openai-server.js';
import { startPostgres, type TestServer } from '../helpers/servers.js';
import { createReader } from '../tools/sql-fixtures.js';

const TOKEN = 'rates-token-5f0c2e';
let rates: Server;
let ratesHost: string;
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
let db: TestServer;
let readerUrl: string;

beforeAll(async () => {
  rates = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'text/csv');
    res.end('date,eur_usd\n2026-10-01,1.08\n2026-11-01,1.10\n2026-12-01,1.12\n');
  });
  await new Promise<void>((resolve) => rates.listen(0, '127.0.0.1', resolve));
  ratesHost = `127.0.0.1:${(rates.address() as AddressInfo).port}`;
  db = await startPostgres();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(`CREATE TABLE signups (id serial PRIMARY KEY, created_on date NOT NULL);
    INSERT INTO signups (created_on) VALUES (current_date - 1), (current_date - 1), (current_date - 1), (current_date);`);
  await client.end();
  readerUrl = await createReader(db.url);
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => rates?.close(resolve));
  await db?.stop();
});

/** The `tools` section: both tools for `conversations` only. */
function tools(conversations: string[]): Record<string, unknown> {
  return {
    http: { allow: [ratesHost], headers: { [ratesHost]: { Authorization: `Bearer ${TOKEN}` } }, conversations },
    sql: { sources: { shop: { url: readerUrl, conversations } } },
  };
}

const RATES_PROGRAM = () => `import pandas as pd
df = pd.read_csv("http://${ratesHost}/v1/rates?quarter=Q4")
df.plot(x="date", y="eur_usd").get_figure().savefig("rates.png")
print("rates:", len(df))`;
const SIGNUPS_PROGRAM = `from tools import sql
df = sql("shop", "SELECT count(*) AS n FROM signups WHERE created_on = current_date - 1")
print("yesterday's signups:", int(df["n"][0]))`;
const REFUSED_PROGRAM = () => `import urllib.request, urllib.error
try:
    urllib.request.urlopen("http://${ratesHost}/v1/rates", timeout=5)
except urllib.error.URLError as e:
    print("unreachable:", e.reason)`;

/** What each platform does in this test: ask in a channel, then read the thread's text once the run ended. */
interface Platform {
  ask(requirement: string, channel: 'main' | 'other'): Promise<string>;
  /** The system prompt of the n-th LLM request. */
  systemPrompt(n: number): string;
  close(): Promise<void>;
}

/** Slack over its fake and an app URL (the embedded app, or a queue-mode ingress): the tools are for C_MAIN; C_OTHER has none. */
function slackPlatform(slack: FakeSlack, llm: FakeOpenAi, appUrl: string, close: () => Promise<void>): Platform {
  const roots = (channel: string) => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === channel && !c.args.thread_ts && c.result?.ok);
  const posts = (ts: string) => slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === ts);
  let seq = 0;
  return {
    async ask(requirement, channel) {
      const id = channel === 'main' ? 'C_MAIN' : 'C_OTHER';
      const before = roots(id).length;
      seq++;
      await sendCommand(appUrl, SECRET, { command: '/run', text: requirement, user_id: 'U_ALICE', user_name: 'alice', channel_id: id, team_id: TEAM, trigger_id: `trig-${seq}`, response_url: slack.responseUrl(`tools-${seq}`) });
      await slack.waitFor(() => roots(id).length > before, 30_000, 'the channel message');
      const root = String(roots(id)[before]!.result!.ts);
      await slack.waitFor(() => posts(root).some((c) => /Reply in this thread to|❌ \*Failed\*/.test(String(c.args.text))), 60_000, 'the final message');
      return allText(posts(root));
    },
    systemPrompt: (n) => String(llm.requests[n]!.messages[0]!.content),
    close,
  };
}

/** Discord over its fake: the tools are for the `general` channel (by its id); `elsewhere` has none. */
function discordPlatform(discord: FakeDiscord, llm: FakeOpenAi, general: string, elsewhere: string, alice: FakeUser, close: () => Promise<void>): Platform {
  return {
    async ask(requirement, channel) {
      const i = discord.slash('run', { requirement }, { user: alice, channelId: channel === 'main' ? general : elsewhere });
      const record = discord.interaction(i.id);
      const thread = await discord.waitFor(() => record.originalMessageId && discord.world.channels.has(record.originalMessageId) && record.originalMessageId, 30_000, 'the thread');
      // the run's last message carries the Re-run / Improve buttons
      await discord.waitFor(() => discord.messagesIn(thread).some((m) => m.components.length > 0), 60_000, 'the final message');
      return discord.messagesIn(thread).map((m) => m.content).join('\n');
    },
    systemPrompt: (n) => String(llm.requests[n]!.messages[0]!.content),
    close,
  };
}

/** The four worlds: each platform embedded and in queue mode (real redis-server, ingress and worker processes). */
const PLATFORMS: Record<string, (replies: string[]) => Promise<Platform>> = {
  'Slack, embedded': async (replies) => {
    const w = await startSlack({ replies: replies.map(py), tools: tools(['C_MAIN']) });
    return slackPlatform(w.slack, w.llm, w.appUrl!, () => w.close());
  },
  'Discord, embedded': async (replies) => {
    const w = await startDiscord({ replies: replies.map(py), tools: (general) => tools([general]) });
    return discordPlatform(w.discord, w.llm, w.general.id, w.discord.world.addChannel('elsewhere').id, w.alice, () => w.close());
  },
  'Slack, queue mode': async (replies) => {
    const w = await startQueueWorld({ replies: replies.map(py), ingresses: 1, workers: 1, tools: tools(['C_MAIN']) });
    return slackPlatform(w.slack, w.llm, w.ingress[0]!, () => w.close());
  },
  'Discord, queue mode': async (replies) => {
    const w = await startDiscordQueueWorld({ replies: replies.map(py), workers: 1, tools: (general) => tools([general]) });
    return discordPlatform(w.discord, w.llm, w.general.id, w.other.id, w.alice, () => w.close());
  },
};

describe.each(Object.keys(PLATFORMS))('tools from %s', (name) => {
  let chat: Platform | undefined;
  afterEach(async () => {
    await chat?.close();
    chat = undefined;
  });

  it("charts this quarter's rates from the internal API and answers yesterday's signups; the thread shows each tool call", async () => {
    seen.length = 0;
    chat = await PLATFORMS[name]!([RATES_PROGRAM(), SIGNUPS_PROGRAM]);
    const ratesThread = await chat.ask("chart this quarter's exchange rates from our internal rates API", 'main');
    expect(ratesThread).toContain(`🔧 GET ${ratesHost}/v1/rates → 200`);
    expect(ratesThread).toContain('rates: 3');
    expect(seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${TOKEN}`]); // added on the host side
    expect(ratesThread).not.toContain(TOKEN);
    expect(chat.systemPrompt(0)).toContain(ratesHost); // the model was told the host it may reach

    const signupsThread = await chat.ask("what was yesterday's signup count?", 'main');
    expect(signupsThread).toMatch(/🔧 sql shop: 1 query, 1 row/);
    expect(signupsThread).toContain("yesterday's signups: 3");
    expect(chat.systemPrompt(1)).toMatch(/shop/);
    expect(signupsThread).not.toContain(db.url);
  }, 120_000);

  it('a channel the tools are not configured for is told of none, and its request never reaches the server', async () => {
    seen.length = 0;
    chat = await PLATFORMS[name]!([REFUSED_PROGRAM()]);
    const thread = await chat.ask('get the rates from the rates API', 'other');
    // no tool here: no broker and no proxy, only the sandbox's own empty network
    expect(thread).toContain('unreachable: [Errno 111] Connection refused');
    expect(thread).not.toContain('🔧');
    expect(seen).toEqual([]);
    expect(chat.systemPrompt(0)).not.toContain(ratesHost);
  }, 120_000);
});
